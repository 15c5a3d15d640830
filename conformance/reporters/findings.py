"""What a comparison found, from its log alone: per pair of implementations, per cause, and
every difference sorted by size and split into material and negligible.

A difference is **material** when it is at least half a unit of the last decimal people
print on the 0–100 scale (two decimals by default: 0.005 BLEU points): from that size on,
two scores can print differently. Smaller differences (NLTK's float-min ``1e-77`` against
an exact 0, float summation order) are **negligible**. A difference where one side fails
and the other gives a score is material and ranks above every numeric one.

Implementations get letters (A, B, C, ...) in the order they were compared, so a row names
its pair compactly (``A–C``) in a narrow terminal; every report also lists the letters.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.compare.differ import BOTH_FAILED, DIFFERING, ERRORED, IDENTICAL, SKIPPED_PAIR, WITHIN
from ..results.log import CompareLog

__all__ = [
    "DEFAULT_DECIMALS",
    "VERDICTS",
    "CauseGroup",
    "Difference",
    "Findings",
    "PairTally",
    "analyze",
    "letter",
    "threshold",
]

DEFAULT_DECIMALS = 2
#: Scores in the compare log are on 0..1; people print BLEU on 0–100.
PRINT_SCALE = 100
VERDICTS = (IDENTICAL, WITHIN, BOTH_FAILED, DIFFERING, ERRORED, SKIPPED_PAIR)


#: Float noise allowed at the threshold: deltas are differences of float64 scores on 0..1
#: (error ~1e-16), scaled by 100; 1e-9 is far above that and far below a printed digit.
_NOISE = 1e-9


def threshold(decimals: int = DEFAULT_DECIMALS) -> float:
    """The smallest material difference on 0–100: half a unit of the ``decimals``-th
    decimal (0.005 for two decimals)."""
    return 0.5 * 10.0**-decimals


def letter(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... for the ``index``-th implementation."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(ord("A") + rest) + out
    return out


@dataclass(frozen=True)
class Difference:
    """One differing pair record, with its size on 0–100 (``inf`` when one side fails)."""

    record: Mapping[str, Any]
    size: float
    material: bool

    @property
    def item(self) -> str:
        return str(self.record["item"])

    @property
    def pair(self) -> tuple[str, str]:
        return (str(self.record["a"]), str(self.record["b"]))

    @property
    def cause(self) -> str:
        return str(self.record.get("cause") or "unexplained")

    @property
    def explained(self) -> bool:
        return bool(self.record.get("explained", False))

    @property
    def score_a(self) -> float | None:
        """Side A's score on 0–100 (None when it failed)."""
        value = self.record.get("score_a")
        return None if value is None else PRINT_SCALE * float(value)

    @property
    def score_b(self) -> float | None:
        value = self.record.get("score_b")
        return None if value is None else PRINT_SCALE * float(value)

    @property
    def signed(self) -> float | None:
        """B − A on 0–100 (None when a side failed)."""
        a, b = self.score_a, self.score_b
        return None if a is None or b is None else b - a


@dataclass(frozen=True)
class CauseGroup:
    """Every difference with one cause, largest first."""

    cause: str
    explained: bool
    rows: tuple[Difference, ...]

    @property
    def cases(self) -> int:
        return len({d.item for d in self.rows})

    @property
    def material(self) -> int:
        return len({d.item for d in self.rows if d.material})

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return list(dict.fromkeys(d.pair for d in self.rows))

    @property
    def largest(self) -> Difference:
        return self.rows[0]


@dataclass
class PairTally:
    """One pair of implementations: cases per verdict, material and negligible counts."""

    a: str
    b: str
    counts: Counter = field(default_factory=Counter)
    material: int = 0
    negligible: int = 0
    unexplained: int = 0
    max_abs: float = 0.0
    max_rel: float = 0.0

    @property
    def compared(self) -> int:
        return sum(n for verdict, n in self.counts.items() if verdict != SKIPPED_PAIR)


@dataclass(frozen=True)
class Findings:
    """Everything the reports show, derived from a :class:`CompareLog`."""

    implementations: list[dict[str, Any]]
    letters: dict[str, str]
    tallies: list[PairTally]
    causes: list[CauseGroup]
    material: list[Difference]
    negligible: list[Difference]
    errored: list[Mapping[str, Any]]
    skip_reasons: list[tuple[str, int]]
    decimals: int
    cases: int

    @property
    def threshold(self) -> float:
        return threshold(self.decimals)

    def pair_label(self, pair: tuple[str, str]) -> str:
        """``A–B``: the letters of a pair of implementations."""
        a, b = pair
        return f"{self.letters.get(a, a)}–{self.letters.get(b, b)}"

    @property
    def differences(self) -> list[Difference]:
        return [*self.material, *self.negligible]


def _size(record: Mapping[str, Any]) -> float:
    delta = record.get("abs_delta")
    return math.inf if delta is None else PRINT_SCALE * float(delta)


def _material(size: float, limit: float) -> bool:
    return size >= limit - _NOISE


def _tally(pairs: Iterable[Mapping[str, Any]], limit: float) -> list[PairTally]:
    table: dict[tuple[str, str], PairTally] = {}
    for record in pairs:
        key = (str(record["a"]), str(record["b"]))
        tally = table.setdefault(key, PairTally(*key))
        verdict = record["verdict"]
        tally.counts[verdict] += 1
        if record.get("abs_delta") is not None:
            tally.max_abs = max(tally.max_abs, float(record["abs_delta"]))
            tally.max_rel = max(tally.max_rel, float(record.get("rel_delta") or 0.0))
        if verdict == DIFFERING:
            material = _material(_size(record), limit)
            tally.material += material
            tally.negligible += not material
            tally.unexplained += not record.get("explained", False)
    return list(table.values())


def _causes(differences: Sequence[Difference]) -> list[CauseGroup]:
    """Groups of one cause: the most material cases first, then the largest, then the most
    cases."""
    grouped: dict[str, list[Difference]] = {}
    for difference in differences:
        grouped.setdefault(difference.cause, []).append(difference)
    groups = [
        CauseGroup(cause, any(d.explained for d in rows), tuple(rows))
        for cause, rows in grouped.items()
    ]
    return sorted(groups, key=lambda g: (-g.material, -g.largest.size, -g.cases, g.cause))


def _skip_reasons(pairs: Iterable[Mapping[str, Any]]) -> list[tuple[str, int]]:
    reasons: Counter = Counter()
    for record in pairs:
        if record["verdict"] != SKIPPED_PAIR:
            continue
        for side in ("value_a", "value_b"):
            value = str(record.get(side, ""))
            if value.startswith("skip: "):
                reasons[value.removeprefix("skip: ")] += 1
    return reasons.most_common()


def analyze(log: CompareLog, decimals: int = DEFAULT_DECIMALS) -> Findings:
    """The findings of ``log``; materiality at ``decimals`` decimals on 0–100."""
    limit = threshold(decimals)
    names = [str(i["name"]) for i in log.implementations]
    for record in log.pairs:
        names.extend(n for n in (str(record["a"]), str(record["b"])) if n not in names)
    differences = sorted(
        (
            Difference(record, _size(record), _material(_size(record), limit))
            for record in log.pairs
            if record["verdict"] == DIFFERING
        ),
        key=lambda d: (-d.size, d.item, d.pair),
    )
    return Findings(
        implementations=log.implementations,
        letters={name: letter(i) for i, name in enumerate(dict.fromkeys(names))},
        tallies=_tally(log.pairs, limit),
        causes=_causes(differences),
        material=[d for d in differences if d.material],
        negligible=[d for d in differences if not d.material],
        errored=[r for r in log.pairs if r["verdict"] == ERRORED],
        skip_reasons=_skip_reasons(log.pairs),
        decimals=decimals,
        cases=len({str(r["item"]) for r in log.pairs}) or int(log.header.get("items", 0)),
    )
