"""The engine warms an adapter up once, before its first case, outside the per-case clock;
a float32 implementation is compared at 1e-6 relative (Capabilities.arithmetic)."""

from __future__ import annotations

import time

from conformance.adapters import Adapter, Capabilities
from conformance.adapters.base import call_with_timeout
from conformance.engine.asking import ANSWERED, ask
from conformance.engine.differ import Subject
from conformance.protocol import Answer, Request

REQUEST = Request(level="corpus", config={}, hypotheses=("a b",), references=(("a b",),))


class SlowToStart(Adapter):
    """Its first call costs more than its per-case timeout (an import), later ones nothing."""

    def __init__(self) -> None:
        self.capabilities = Capabilities(name="slow-start", timeout=0.2)
        self.warmed = 0
        self.started = False

    def warm_up(self) -> None:
        self.warmed += 1
        time.sleep(0.4)
        self.started = True

    def run(self, request: Request) -> Answer:
        def call() -> float:
            if not self.started:
                time.sleep(0.4)
            return 0.5

        return Answer(score=call_with_timeout(call, self.capabilities.timeout, "slow-start"))


def test_warm_up_runs_once_outside_the_per_case_clock() -> None:
    adapter = SlowToStart()
    replies = [ask(adapter, REQUEST) for _ in range(3)]
    assert [r.status for r in replies] == [ANSWERED] * 3
    assert adapter.warmed == 1
    assert replies[0].duration < 0.2


def test_float32_arithmetic_widens_the_tolerance() -> None:
    single = SlowToStart()
    single.capabilities = Capabilities(name="f32", arithmetic="float32")
    double = SlowToStart()
    assert Subject("f32", single).tolerance.rel == 1e-6
    assert Subject("f64", double).tolerance.rel == 1e-9
