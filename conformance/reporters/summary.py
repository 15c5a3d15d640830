"""Per-implementation counts and conformance percentages, shared by every reporter."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..results.log import RunLog
from ..results.records import CHANGED, ERROR, FAIL, FIXED, OUTCOMES, PASS, SKIP, XFAIL


@dataclass(frozen=True)
class Summary:
    """One implementation's tally."""

    implementation: str
    version: str
    counts: Counter = field(default_factory=Counter)

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
        return sum(self.counts[o] for o in (FAIL, ERROR, FIXED, CHANGED))


def summarize(log: RunLog) -> list[Summary]:
    """Summaries in the order implementations were run."""
    versions = {info.name: info.version for info in log.implementations}
    order = list(dict.fromkeys([*versions, *(r.implementation for r in log.results)]))
    out = []
    for name in order:
        counts = Counter(r.outcome for r in log.results if r.implementation == name)
        out.append(Summary(name, versions.get(name, "?"), counts))
    return out


def columns(summaries: Sequence[Summary]) -> list[str]:
    """Outcome columns: always pass..xfail; fixed and changed only when they occur."""
    base = [PASS, FAIL, ERROR, SKIP, XFAIL]
    extra = [o for o in (FIXED, CHANGED) if any(s.counts[o] for s in summaries)]
    return [o for o in OUTCOMES if o in base + extra]


def number(value: object, spec: str, missing: str = "") -> str:
    """``value`` formatted with ``spec`` when it is a number; else as text (a log stores
    non-finite floats as the strings "nan"/"inf": shown, never compared or crashed on)."""
    if value is None:
        return missing
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format(value, spec)
    return str(value)


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"
