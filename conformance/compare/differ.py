"""Run several implementations on the same inputs and classify every pair's agreement.

Each case becomes one :class:`~conformance.results.Request` (never carrying an expected
value); every adapter answers it or skips it with a reason. For each pair of implementations
a case is ``identical`` (same float or same failure), ``within`` tolerance, ``differing``
(then attributed to a cause), ``errored`` (an adapter gave no usable answer) or ``skipped``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from ..adapters.base import Adapter
from ..results import AdapterError, Request
from .attribution import Attribution, Evaluator, Outcome, Tolerance, attribute

IDENTICAL, WITHIN, DIFFERING, ERRORED, SKIPPED = (
    "identical",
    "within",
    "differing",
    "errored",
    "skipped",
)
VERDICTS = (IDENTICAL, WITHIN, DIFFERING, ERRORED, SKIPPED)


@dataclass(frozen=True)
class Item:
    """One input to compare on: a fixture case or a generated corpus."""

    id: str
    file: str
    level: str
    config: dict[str, Any]
    hypotheses: tuple[Any, ...]
    references: tuple[tuple[Any, ...], ...]
    input_format: str = "raw"
    tags: tuple[str, ...] = ()

    @classmethod
    def from_case(cls, case: Any) -> Item:
        """The comparison input of a fixture case (its expectations are left behind)."""
        return cls(
            id=case.id,
            file=case.file,
            level=case.level,
            config=dict(case.config),
            hypotheses=tuple(case.input.hypotheses),
            references=tuple(tuple(r) for r in case.input.references),
            input_format=case.input.format,
            tags=tuple(case.tags),
        )

    def request(self) -> Request:
        return Request(
            level=self.level,
            config=dict(self.config),
            hypotheses=self.hypotheses,
            references=self.references,
            input_format=self.input_format,
            case_knobs=frozenset(self.config),
        )


@dataclass(frozen=True)
class SideResult:
    """What one implementation did with one item."""

    implementation: str
    status: str  # ok | skip | error
    outcome: Outcome | None = None
    reason: str = ""
    counts: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None
    bp: float | None = None
    ref_len: float | None = None


@dataclass(frozen=True)
class PairRow:
    """The comparison of two implementations on one item."""

    item: Item
    a: SideResult
    b: SideResult
    verdict: str
    abs_delta: float | None = None
    rel_delta: float | None = None
    attribution: Attribution | None = None
    minimal: Item | None = None


@dataclass
class Implementation:
    """An adapter under comparison, with the bleu_impl profile describing its semantics."""

    spec: str
    adapter: Adapter
    native: str | None = None
    name: str = field(init=False)
    version: str = field(init=False)
    half_unit: float = field(init=False)

    def __post_init__(self) -> None:
        caps = self.adapter.capabilities
        self.name = caps.name
        self.version = caps.version
        self.native = self.native or caps.native
        self.half_unit = caps.half_unit / caps.scale

    def answer(self, item: Item) -> SideResult:
        request = item.request()
        reason = self.adapter.check(request)
        if reason:
            return SideResult(self.name, "skip", reason=reason)
        try:
            answer = self.adapter.run(request)
        except AdapterError as exc:
            return SideResult(self.name, "error", reason=f"{exc.kind}: {exc.message}")
        except Exception as exc:  # an adapter bug must not stop the comparison
            return SideResult(self.name, "error", reason=f"{type(exc).__name__}: {exc}")
        if answer.failure is not None:
            kind = answer.failure.kind or "unknown"
            return SideResult(self.name, "ok", Outcome(failure=kind), reason=answer.failure.message)
        if answer.score is None or not math.isfinite(answer.score):
            return SideResult(self.name, "error", reason=f"no finite score: {answer.score!r}")
        return SideResult(
            self.name,
            "ok",
            Outcome(score=answer.score / self.adapter.capabilities.scale),
            counts=answer.counts,
            totals=answer.totals,
            bp=answer.bp,
            ref_len=answer.ref_len,
        )


#: Native profiles of implementations that compute in float32 (notes K10: ~1e-7 relative
#: error per operation; 1e-6 bounds the ~10 operations of a BLEU computation).
FLOAT32_PROFILES = frozenset({"torchmetrics", "tensor2tensor"})


def tolerance_for(a: Implementation, b: Implementation) -> Tolerance:
    """1e-9 relative (float64 implementations summing logs in different orders), 1e-6 when
    either side computes in float32, widened to half a printed digit of either side."""
    rel = 1e-6 if {a.native, b.native} & FLOAT32_PROFILES else 1e-9
    return Tolerance(rel=rel, abs=max(a.half_unit, b.half_unit))


def classify(
    item: Item, a: SideResult, b: SideResult, tolerance: Tolerance
) -> tuple[str, float | None, float | None]:
    """The verdict for one pair and, for two scores, their absolute and relative delta."""
    if a.status == "skip" or b.status == "skip":
        return SKIPPED, None, None
    if a.status == "error" or b.status == "error":
        return ERRORED, None, None
    assert a.outcome is not None and b.outcome is not None
    if a.outcome.failure is not None or b.outcome.failure is not None:
        same = a.outcome.failure == b.outcome.failure
        return (IDENTICAL if same else DIFFERING), None, None
    x, y = a.outcome.score, b.outcome.score
    assert x is not None and y is not None
    delta = abs(x - y)
    rel = delta / max(abs(x), abs(y)) if delta else 0.0
    if x == y:
        return IDENTICAL, 0.0, 0.0
    if delta <= max(tolerance.rel * max(abs(x), abs(y)), tolerance.abs):
        return WITHIN, delta, rel
    return DIFFERING, delta, rel


def compare_item(
    item: Item,
    implementations: Sequence[Implementation],
    *,
    shrink: Callable[[Item, Implementation, Implementation, PairRow], Item | None] | None = None,
) -> list[PairRow]:
    """Every pair's row for ``item`` (answers are computed once per implementation)."""
    answers = [impl.answer(item) for impl in implementations]
    rows = []
    for (i, impl_a), (j, impl_b) in combinations(enumerate(implementations), 2):
        a, b = answers[i], answers[j]
        tolerance = tolerance_for(impl_a, impl_b)
        verdict, abs_delta, rel_delta = classify(item, a, b, tolerance)
        row = PairRow(item, a, b, verdict, abs_delta, rel_delta)
        if verdict == DIFFERING:
            assert a.outcome is not None and b.outcome is not None
            evaluator = Evaluator(item.hypotheses, item.references, item.level)
            cause = attribute(
                evaluator,
                (impl_a.native, a.outcome),
                (impl_b.native, b.outcome),
                item.config,
                tolerance,
            )
            row = replace(row, attribution=cause)
            if shrink is not None:
                row = replace(row, minimal=shrink(item, impl_a, impl_b, row))
        rows.append(row)
    return rows
