"""Per-implementation counts and conformance of a run: the view every run report shows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .report import Report
from .vocab import CHANGED, ERROR, FAIL, FIXED, OUTCOMES, PASS, SKIP, UNEXPECTED, XFAIL, Outcome

__all__ = ["Summary", "columns", "summarize"]


@dataclass(frozen=True)
class Summary:
    """One implementation's tally."""

    implementation: str
    version: str
    counts: Counter[str] = field(default_factory=Counter)

    @property
    def ran(self) -> int:
        return sum(n for outcome, n in self.counts.items() if outcome != SKIP)

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
    versions = {info.name: info.version for info in report.implementations}
    order = list(dict.fromkeys([*versions, *(r.implementation for r in report.results)]))
    out = []
    for name in order:
        counts = Counter(r.outcome for r in report.results if r.implementation == name)
        out.append(Summary(name, versions.get(name, "?"), Counter(counts)))
    return out


def columns(summaries: Sequence[Summary]) -> list[Outcome]:
    """Outcome columns: always pass..xfail; fixed and changed only when they occur."""
    base = [PASS, FAIL, ERROR, SKIP, XFAIL]
    extra = [o for o in (FIXED, CHANGED) if any(s.counts[o] for s in summaries)]
    return [o for o in OUTCOMES if o in base + extra]
