"""Per-implementation counts and conformance of a run: the view every run report shows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .coverage import Coverage, coverage
from .report import Report
from .vocab import (
    CHANGED,
    ERROR,
    FAIL,
    FIXED,
    OUTCOMES,
    PASS,
    SKIP,
    UNCHECKED,
    UNEXPECTED,
    XFAIL,
    Outcome,
)

__all__ = ["Summary", "columns", "summarize"]


@dataclass(frozen=True)
class Summary:
    """One implementation's tally, and what it was checked on (:mod:`.coverage`)."""

    implementation: str
    version: str
    counts: Counter[str] = field(default_factory=Counter)
    coverage: Coverage | None = None

    @property
    def ran(self) -> int:
        """Cases with a verdict: every outcome but skip and unchecked."""
        return sum(n for outcome, n in self.counts.items() if outcome not in (SKIP, UNCHECKED))

    @property
    def conformance(self) -> float | None:
        """Share of the cases it could express that it got right (known failures count
        against it: they are still non-conformant); ``None`` when nothing ran."""
        ran = self.ran
        return None if ran == 0 else (self.counts[PASS] + self.counts[FIXED]) / ran

    @property
    def unexpected(self) -> int:
        return sum(self.counts[o] for o in UNEXPECTED)


def summarize(report: Report) -> list[Summary]:
    """Summaries in the order implementations were run."""
    infos = {info.name: info for info in report.implementations}
    order = list(dict.fromkeys([*infos, *(r.implementation for r in report.results)]))
    out = []
    for name in order:
        info = infos.get(name)
        found = coverage(name, (r.outcome for r in report.results_for(name)), info)
        version = info.version if info else "?"
        out.append(Summary(name, version, Counter(found.outcomes), found))
    return out


def columns(summaries: Sequence[Summary]) -> list[Outcome]:
    """Outcome columns: always pass..xfail; unchecked, fixed and changed only when they
    occur."""
    base = [PASS, FAIL, ERROR, SKIP, XFAIL]
    extra = [o for o in (UNCHECKED, FIXED, CHANGED) if any(s.counts[o] for s in summaries)]
    return [o for o in OUTCOMES if o in base + extra]
