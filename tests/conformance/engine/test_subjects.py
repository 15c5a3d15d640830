"""A float32 implementation is compared at 1e-6 relative (Capabilities.arithmetic)."""

from __future__ import annotations

from conformance.adapters import Adapter, Capabilities
from conformance.engine.subjects import Subject
from conformance.protocol import Answer, Request


class Declares(Adapter):
    """An adapter that only declares its capabilities."""

    def __init__(self, capabilities: Capabilities) -> None:
        self.capabilities = capabilities

    def run(self, request: Request) -> Answer:
        return Answer(score=0.5)


def test_float32_arithmetic_widens_the_tolerance() -> None:
    single = Declares(Capabilities(name="f32", arithmetic="float32"))
    double = Declares(Capabilities(name="f64"))
    assert Subject("f32", single).tolerance.rel == 1e-6
    assert Subject("f64", double).tolerance.rel == 1e-9
