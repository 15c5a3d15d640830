"""The engine warms an adapter up once, before its first case, outside the per-case clock
(also in a worker process, where the per-case timeout is enforced); a float32
implementation is compared at 1e-6 relative (Capabilities.arithmetic)."""

from __future__ import annotations

import time

from conformance.adapters import Adapter, Capabilities
from conformance.adapters.worker import WorkerAdapter
from conformance.engine.asking import ANSWERED, ask
from conformance.engine.compare.differ import Subject
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
        if not self.started:
            time.sleep(0.4)
        return Answer(score=0.5 if self.warmed == 1 else 0.0)


def test_warm_up_runs_once_outside_the_per_case_clock() -> None:
    adapter = SlowToStart()
    replies = [ask(adapter, REQUEST) for _ in range(3)]
    assert [r.status for r in replies] == [ANSWERED] * 3
    assert adapter.warmed == 1
    assert replies[0].duration < 0.2


def test_a_worker_is_warmed_up_in_its_process_before_the_first_case() -> None:
    """Without the warm-up the first case would take 0.4 s, past its 0.2 s timeout."""
    with WorkerAdapter(SlowToStart) as adapter:
        replies = [ask(adapter, REQUEST) for _ in range(2)]
    assert [r.status for r in replies] == [ANSWERED] * 2
    assert [r.answer.score for r in replies if r.answer] == [0.5, 0.5]  # warmed exactly once


def test_float32_arithmetic_widens_the_tolerance() -> None:
    single = SlowToStart()
    single.capabilities = Capabilities(name="f32", arithmetic="float32")
    double = SlowToStart()
    assert Subject("f32", single).tolerance.rel == 1e-6
    assert Subject("f64", double).tolerance.rel == 1e-9
