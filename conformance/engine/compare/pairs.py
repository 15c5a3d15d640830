"""Run several implementations on the same cases and classify every pair's agreement.

Each case becomes one request (:func:`~conformance.engine.asking.build_request`, never carrying
an expected value) and every implementation is asked it once. For each pair a case is
``identical`` (same float or same failure), ``within`` tolerance, ``both-failed`` (both
rejected the input, for reasons that cannot be told apart), ``differing`` (then attributed
to a cause), ``errored`` (an implementation gave no usable answer -- never evidence) or
``skipped``. The statistics shown for a difference are each side's own: what it reported,
or, for an implementation that reports only a score, what its own bleu_impl profile
computes when that profile reproduces the score exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Protocol

from bleu_impl import BleuResult

from ...cases import Case, Tolerance
from ...protocol import Answer
from ...results.records import Cause, Change, Minimal, Pair, Shrinking, Side, Statistics
from ...results.vocab import (
    ANSWERED,
    BOTH_FAILED,
    DIFFERING,
    ERRORED_PAIR,
    IDENTICAL,
    SKIPPED,
    SKIPPED_PAIR,
    WITHIN,
    Verdict,
)
from ..asking import Outcome, Reply
from ..attribution import Attribution, attribute
from ..attribution import Side as Setting
from ..evaluator import Evaluator
from ..subjects import Subject, tolerance_for

__all__ = [
    "PairRow",
    "Shrunk",
    "classify",
    "compare_case",
    "compare_pair",
    "pair_record",
    "side_of",
]


@dataclass(frozen=True)
class PairRow:
    """The comparison of two implementations on one case."""

    case: Case
    a: str
    b: str
    reply_a: Reply
    reply_b: Reply
    outcome_a: Outcome | None
    outcome_b: Outcome | None
    verdict: Verdict
    abs_delta: float | None = None
    rel_delta: float | None = None
    attribution: Attribution | None = None
    stats_a: Statistics | None = None
    stats_b: Statistics | None = None
    minimal: Case | None = None
    shrink: Shrinking | None = None

    @property
    def stats_diff(self) -> tuple[str, ...]:
        return statistics_difference(self.a, self.stats_a, self.b, self.stats_b)


def classify(
    a: Reply, b: Reply, oa: Outcome | None, ob: Outcome | None, tolerance: Tolerance
) -> tuple[Verdict, float | None, float | None]:
    """The verdict for one pair and, for two scores, their absolute and relative delta."""
    if SKIPPED in (a.status, b.status):
        return SKIPPED_PAIR, None, None
    if oa is None or ob is None:
        return ERRORED_PAIR, None, None
    if oa.failure is not None and ob.failure is not None:
        same = oa.failure == ob.failure != "unknown"
        return (IDENTICAL if same else BOTH_FAILED), None, None
    if oa.failure is not None or ob.failure is not None:
        return DIFFERING, None, None
    x, y = oa.score, ob.score
    assert x is not None and y is not None
    if x == y:
        return IDENTICAL, 0.0, 0.0
    delta = abs(x - y)
    rel = delta / max(abs(x), abs(y))
    return (WITHIN if tolerance.agree(x, y) else DIFFERING), delta, rel


def _reported_stats(answer: Answer | None) -> Statistics | None:
    if answer is None or answer.failure is not None:
        return None
    if answer.counts is None or answer.totals is None:
        return None
    return Statistics(
        "reported",
        tuple(answer.counts),
        tuple(answer.totals),
        answer.hyp_len,
        answer.ref_len,
        answer.bp,
    )


def _reproduced_stats(result: BleuResult | None, profile: str | None) -> Statistics | None:
    if result is None:
        return None
    return Statistics(
        f"bleu_impl:{profile or 'papineni2002'}",
        tuple(result.counts),
        tuple(result.totals),
        result.hyp_len,
        float(result.ref_len),
        result.bp,
    )


def statistics_difference(
    name_a: str, a: Statistics | None, name_b: str, b: Statistics | None
) -> tuple[str, ...]:
    """Which statistics differ between what the two sides computed (per-order
    matches/totals, lengths, BP); a side with none is named."""
    if a is None or b is None:
        return tuple(f"{n} reports only a score" for n, s in ((name_a, a), (name_b, b)) if not s)
    diffs = []
    for n, (ca, cb, ta, tb) in enumerate(zip(a.counts, b.counts, a.totals, b.totals), 1):
        if (ca, ta) != (cb, tb):
            diffs.append(f"p{n} {ca}/{ta} vs {cb}/{tb}")
    if len(a.counts) != len(b.counts):
        diffs.append(f"orders {len(a.counts)} vs {len(b.counts)}")
    for field, va, vb in (("hyp_len", a.hyp_len, b.hyp_len), ("ref_len", a.ref_len, b.ref_len)):
        if va is not None and vb is not None and float(va) != float(vb):
            diffs.append(f"{field} {va:g} vs {vb:g}")
    ba, bb = a.bp, b.bp
    if ba is not None and bb is not None and abs(ba - bb) > 1e-12 * max(abs(ba), abs(bb)):
        diffs.append(f"BP {ba:.6g} vs {bb:.6g}")
    for side, stats in ((name_a, a), (name_b, b)):
        if stats.source != "reported":
            diffs.append(f"({side}: as computed by {stats.source}, which reproduces its score)")
    return tuple(diffs)


class Shrunk(Protocol):
    """What shrinking a disagreement found: the smallest input, and what it cost."""

    @property
    def minimal(self) -> Case | None: ...

    def record(self) -> Shrinking: ...


Shrinker = Callable[[Case, Subject, Subject, "PairRow"], Shrunk | None]


def compare_case(
    case: Case, subjects: Sequence[Subject], *, shrink: Shrinker | None = None
) -> list[PairRow]:
    """Every pair's row for ``case`` (each implementation is asked once)."""
    replies = [subject.reply(case) for subject in subjects]
    outcomes = [r.outcome(s.scale) for r, s in zip(replies, subjects)]
    rows = []
    for (i, sa), (j, sb) in combinations(enumerate(subjects), 2):
        row = compare_pair(case, sa, sb, (replies[i], replies[j]), (outcomes[i], outcomes[j]))
        if row.verdict == DIFFERING and shrink is not None:
            shrunk = shrink(case, sa, sb, row)
            if shrunk is not None:
                row = replace(row, minimal=shrunk.minimal, shrink=shrunk.record())
        rows.append(row)
    return rows


def compare_pair(
    case: Case,
    sa: Subject,
    sb: Subject,
    replies: tuple[Reply, Reply],
    outcomes: tuple[Outcome | None, Outcome | None],
) -> PairRow:
    """One pair's row, attributed when the two differ."""
    (ra, rb), (oa, ob) = replies, outcomes
    tolerance = tolerance_for(sa, sb)
    verdict, abs_delta, rel_delta = classify(ra, rb, oa, ob, tolerance)
    row = PairRow(case, sa.name, sb.name, ra, rb, oa, ob, verdict, abs_delta, rel_delta)
    if verdict != DIFFERING:
        return row
    assert oa is not None and ob is not None
    cause = attribute(
        Evaluator(case),
        Setting(sa.native, oa, sa.native_knobs),
        Setting(sb.native, ob, sb.native_knobs),
        case.config,
        tolerance,
    )
    stats_a = _reported_stats(ra.answer) or _reproduced_stats(cause.native_a, sa.native)
    stats_b = _reported_stats(rb.answer) or _reproduced_stats(cause.native_b, sb.native)
    return replace(row, attribution=cause, stats_a=stats_a, stats_b=stats_b)


def side_of(reply: Reply, outcome: Outcome | None) -> Side:
    if reply.status != ANSWERED or outcome is None:
        return Side(SKIPPED if reply.status == SKIPPED else "errored", message=reply.reason)
    if outcome.failure is None:
        return Side(ANSWERED, score=outcome.score)
    failure = reply.answer.failure if reply.answer is not None else None
    said = failure.message if failure is not None and failure.kind is None else ""
    return Side(ANSWERED, failure=outcome.failure, message=said)  # what it raised


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _cause(attribution: Attribution) -> Cause:
    changes = tuple(Change(c.knob, _plain(c.a), _plain(c.b)) for c in attribution.changes)
    return Cause(attribution.cause, attribution.explained, changes, attribution.alternatives_text)


def pair_record(row: PairRow) -> Pair:
    """One pair row as the record the compare log stores."""
    minimal = None
    if row.minimal is not None:
        minimal = Minimal(
            tuple(_plain(h) for h in row.minimal.hypotheses),
            tuple([_plain(r) for r in refs] for refs in row.minimal.references),
        )
    attribution = row.attribution
    return Pair(
        item=row.case.id,
        file=row.case.file,
        a=row.a,
        b=row.b,
        side_a=side_of(row.reply_a, row.outcome_a),
        side_b=side_of(row.reply_b, row.outcome_b),
        verdict=row.verdict,
        abs_delta=row.abs_delta,
        rel_delta=row.rel_delta,
        cause=None if attribution is None else _cause(attribution),
        stats_a=row.stats_a,
        stats_b=row.stats_b,
        stats_diff=row.stats_diff if attribution is not None else (),
        shrink=row.shrink,
        minimal=minimal,
        tags=tuple(row.case.tags),
    )
