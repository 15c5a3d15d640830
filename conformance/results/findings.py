"""What a comparison found, from its log alone: per pair of implementations, per cause, and
every difference sorted by size and split into material and negligible.

A difference is **material** when the policy says so (:meth:`~.vocab.Policy.material`: at
least half a unit of the last decimal people print on 0–100); smaller differences (NLTK's
float-min ``1e-77`` against an exact 0, float summation order) are **negligible**. A
difference where one side fails and the other gives a score is material and ranks above
every numeric one.

Implementations get letters (A, B, C, ...) in the order they were compared, so a row names
its pair compactly (``A–C``) in a narrow terminal; every report also lists the letters.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from .records import ImplementationInfo, Pair
from .report import Report
from .vocab import DIFFERING, ERRORED_PAIR, SKIPPED, SKIPPED_PAIR, Policy, Verdict, origin

__all__ = ["CauseGroup", "Difference", "Findings", "PairTally", "analyze", "letter"]

#: Scores in the compare log are on 0..1; people print BLEU on 0–100.
PRINT_SCALE = 100


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
    """One differing pair, with its size on 0–100 (``inf`` when one side fails)."""

    record: Pair
    size: float
    material: bool
    #: The explanation chosen from the record's equally minimal ones (:func:`_shared`).
    chosen: str | None = None

    @property
    def item(self) -> str:
        return self.record.item

    @property
    def pair(self) -> tuple[str, str]:
        return (self.record.a, self.record.b)

    @property
    def cause(self) -> str:
        if self.chosen is not None:
            return self.chosen
        return self.record.cause.cause if self.record.cause else "unexplained"

    @property
    def alternatives(self) -> str:
        """The other equally minimal explanations, ``|``-separated."""
        return " | ".join(c for c in _candidates(self.record) if c != self.cause)

    @property
    def explained(self) -> bool:
        return self.record.cause is not None and self.record.cause.explained

    @property
    def score_a(self) -> float | None:
        """Side A's score on 0–100 (None when it failed)."""
        value = self.record.side_a.score
        return None if value is None else PRINT_SCALE * value

    @property
    def score_b(self) -> float | None:
        value = self.record.side_b.score
        return None if value is None else PRINT_SCALE * value

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
    counts: Counter[Verdict] = field(default_factory=Counter)
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
    """Everything the reports show, derived from a comparison's :class:`Report`."""

    implementations: list[ImplementationInfo]
    letters: dict[str, str]
    tallies: list[PairTally]
    causes: list[CauseGroup]
    material: list[Difference]
    negligible: list[Difference]
    errored: list[Pair]
    skip_reasons: list[tuple[str, int]]
    policy: Policy
    cases: int
    #: (class of :data:`~.vocab.ORIGINS`, cases, material differences), most cases first
    origins: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def decimals(self) -> int:
        return self.policy.decimals

    @property
    def threshold(self) -> float:
        return self.policy.threshold

    def pair_label(self, pair: tuple[str, str]) -> str:
        """``A–B``: the letters of a pair of implementations."""
        a, b = pair
        return f"{self.letters.get(a, a)}–{self.letters.get(b, b)}"

    @property
    def differences(self) -> list[Difference]:
        return [*self.material, *self.negligible]


def _size(pair: Pair) -> float:
    return math.inf if pair.abs_delta is None else PRINT_SCALE * pair.abs_delta


def _tally(pairs: Iterable[Pair], policy: Policy) -> list[PairTally]:
    table: dict[tuple[str, str], PairTally] = {}
    for pair in pairs:
        key = (pair.a, pair.b)
        tally = table.setdefault(key, PairTally(*key))
        tally.counts[pair.verdict] += 1
        if pair.abs_delta is not None:
            tally.max_abs = max(tally.max_abs, pair.abs_delta)
            tally.max_rel = max(tally.max_rel, pair.rel_delta or 0.0)
        if pair.verdict == DIFFERING:
            material = policy.material(_size(pair))
            tally.material += material
            tally.negligible += not material
            tally.unexplained += not (pair.cause is not None and pair.cause.explained)
    return list(table.values())


def _candidates(pair: Pair) -> list[str]:
    """Every equally minimal explanation of one difference, the recorded cause first."""
    cause = pair.cause
    if cause is None or not cause.explained:
        return []
    return [cause.cause, *(a for a in cause.alternatives.split(" | ") if a)]


def _shared(differences: list[Difference]) -> list[Difference]:
    """Each difference with, as its cause, the explanation (of its equally minimal ones) that
    explains the most differences of its pair; the recorded one on a tie. One case cannot
    tell ``tokenize: char`` from effective order on a 2-token exact match; the pair's other
    cases can."""
    counts: Counter[tuple[tuple[str, str], str]] = Counter()
    for d in differences:
        counts.update((d.pair, c) for c in _candidates(d.record))
    out = []
    for d in differences:
        candidates = _candidates(d.record)
        best = max(candidates, key=lambda c: counts[d.pair, c], default=None)
        out.append(d if best is None or best == candidates[0] else replace(d, chosen=best))
    return out


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


def _skip_reasons(pairs: Iterable[Pair]) -> list[tuple[str, int]]:
    reasons: Counter[str] = Counter()
    for pair in pairs:
        if pair.verdict == SKIPPED_PAIR:
            reasons.update(s.message for s in (pair.side_a, pair.side_b) if s.status == SKIPPED)
    return reasons.most_common()


def _origins(pairs: Sequence[Pair], material: Sequence[Difference]) -> list[tuple[str, int, int]]:
    """Cases and material differences per provenance class (:func:`~.vocab.origin`)."""
    kinds = {p.item: origin(p.tags) for p in pairs}
    cases, found = Counter(kinds.values()), Counter(kinds[d.item] for d in material)
    return [(kind, n, found[kind]) for kind, n in cases.most_common()]


def analyze(report: Report, decimals: int | None = None) -> Findings:
    """The findings of a comparison; materiality at the log's policy, or at ``decimals``
    decimals on 0–100 when given."""
    policy = report.policy if decimals is None else replace(report.policy, decimals=decimals)
    differences = sorted(
        _shared(
            [
                Difference(pair, _size(pair), policy.material(_size(pair)))
                for pair in report.pairs
                if pair.verdict == DIFFERING
            ]
        ),
        key=lambda d: (-d.size, d.item, d.pair),
    )
    material = [d for d in differences if d.material]
    return Findings(
        implementations=report.implementations,
        letters={name: letter(i) for i, name in enumerate(report.names())},
        tallies=_tally(report.pairs, policy),
        causes=_causes(differences),
        material=material,
        negligible=[d for d in differences if not d.material],
        errored=[p for p in report.pairs if p.verdict == ERRORED_PAIR],
        skip_reasons=_skip_reasons(report.pairs),
        policy=policy,
        cases=len({p.item for p in report.pairs}) or int(report.header.params.get("items", 0)),
        origins=_origins(report.pairs, material),
    )
