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
from typing import TYPE_CHECKING, Any

from bleu_impl import BleuResult

from ...adapters import Adapter, Unstarted, distinct_name, make_adapter
from ...cases import Case, ExpectationKey, Tolerance
from ...protocol import AdapterError, Answer, SpecError
from ..asking import ANSWERED, SKIPPED, Outcome, Reply, ask, build_request
from ..attribution import Attribution, Side, attribute
from ..evaluator import Evaluator

if TYPE_CHECKING:
    from .shrink import ShrinkResult

__all__ = [
    "BOTH_FAILED",
    "DIFFERING",
    "ERRORED",
    "FLOAT32_ABS",
    "FLOAT32_REL",
    "FLOAT32_TOLERANCE",
    "IDENTICAL",
    "SKIPPED_PAIR",
    "WITHIN",
    "PairRow",
    "Subject",
    "compare_case",
    "compare_pair",
    "open_subjects",
    "row_record",
    "tolerance_for",
]

IDENTICAL, WITHIN, BOTH_FAILED = "identical", "within", "both-failed"
DIFFERING, ERRORED, SKIPPED_PAIR = "differing", "errored", "skipped"

#: The relative tolerance of an implementation that computes in float32 (``arithmetic``
#: capability): ~6e-8 relative error per operation; 1e-6 bounds the ~10 operations of a BLEU
#: computation (measured against torchmetrics, torcheval and ignite: at most 2e-7).
FLOAT32_REL = 1e-6

#: float32 resolves nothing finer than its smallest subnormal, 2**-149 (~1.4e-45): a float32
#: result of a score below its normal range (~1.2e-38) is only that close to the exact one.
FLOAT32_ABS = 2.0**-149

#: The tolerance of float32 arithmetic, relative and (for subnormal scores) absolute.
FLOAT32_TOLERANCE = Tolerance(abs=FLOAT32_ABS, rel=FLOAT32_REL)


@dataclass(frozen=True)
class Subject:
    """An implementation under comparison: its spec and open adapter."""

    spec: str
    adapter: Adapter

    @property
    def name(self) -> str:
        return self.adapter.capabilities.name

    @property
    def version(self) -> str:
        return self.adapter.capabilities.version

    @property
    def native(self) -> str | None:
        return self.adapter.capabilities.native

    @property
    def native_knobs(self) -> Mapping[str, Any]:
        return self.adapter.capabilities.native_knobs

    @property
    def scale(self) -> int:
        return self.adapter.capabilities.scale

    @property
    def tolerance(self) -> Tolerance:
        """Half a printed digit (on 0..1), 1e-9 relative (float64 sums of logs in another
        order), 1e-6 relative for float32 arithmetic."""
        caps = self.adapter.capabilities
        own = Tolerance(abs=caps.half_unit / caps.scale, rel=1e-9)
        return own.widened(FLOAT32_TOLERANCE) if caps.arithmetic != "float64" else own

    def reply(self, case: Case) -> Reply:
        return ask(self.adapter, build_request(case))

    def info(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "spec": self.spec}


def open_subjects(
    specs: Sequence[str], keys: Mapping[str, ExpectationKey], *, keep_unstarted: bool = False
) -> list[Subject]:
    """An open adapter per spec (AdapterError names a spec that cannot be opened; with
    ``keep_unstarted`` an implementation that exists but fails to start answers every
    request with that error, and only a :class:`SpecError` is raised); two implementations
    that declare the same name get distinct names (never one row)."""
    subjects: list[Subject] = []
    taken: set[str] = set()
    try:
        for spec in specs:
            try:
                adapter = make_adapter(spec, keys)
            except AdapterError as exc:
                if not keep_unstarted or isinstance(exc, SpecError):
                    raise
                adapter = Unstarted(spec, exc)
            name = distinct_name(adapter.capabilities.name, spec, taken)
            adapter.capabilities = replace(adapter.capabilities, name=name)
            taken.add(name)
            subjects.append(Subject(spec, adapter))
    except BaseException:
        for subject in subjects:
            subject.adapter.close()
        raise
    return subjects


def tolerance_for(a: Subject, b: Subject) -> Tolerance:
    """The wider of the two sides' tolerances."""
    return a.tolerance.widened(b.tolerance)


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
    verdict: str
    abs_delta: float | None = None
    rel_delta: float | None = None
    attribution: Attribution | None = None
    stats_a: Mapping[str, Any] | None = None
    stats_b: Mapping[str, Any] | None = None
    minimal: Case | None = None
    shrink: Mapping[str, Any] | None = None

    @property
    def stats_diff(self) -> tuple[str, ...]:
        return statistics_difference(self.a, self.stats_a, self.b, self.stats_b)


def classify(
    a: Reply, b: Reply, oa: Outcome | None, ob: Outcome | None, tolerance: Tolerance
) -> tuple[str, float | None, float | None]:
    """The verdict for one pair and, for two scores, their absolute and relative delta."""
    if SKIPPED in (a.status, b.status):
        return SKIPPED_PAIR, None, None
    if oa is None or ob is None:
        return ERRORED, None, None
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


_STAT_FIELDS = ("counts", "totals", "hyp_len", "ref_len", "bp")


def _reported_stats(answer: Answer | None) -> dict[str, Any] | None:
    if answer is None or answer.failure is not None:
        return None
    stats = {
        name: getattr(answer, name) for name in _STAT_FIELDS if getattr(answer, name) is not None
    }
    if "counts" not in stats or "totals" not in stats:
        return None
    return {"source": "reported", **stats}


def _reproduced_stats(result: BleuResult | None, profile: str | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "source": f"bleu_impl:{profile or 'papineni2002'}",
        "counts": tuple(result.counts),
        "totals": tuple(result.totals),
        "hyp_len": result.hyp_len,
        "ref_len": float(result.ref_len),
        "bp": result.bp,
    }


def statistics_difference(
    name_a: str, a: Mapping[str, Any] | None, name_b: str, b: Mapping[str, Any] | None
) -> tuple[str, ...]:
    """Which statistics differ between what the two sides computed (per-order
    matches/totals, lengths, BP); a side with none is named."""
    missing = [n for n, s in ((name_a, a), (name_b, b)) if s is None]
    if a is None or b is None:
        return tuple(f"{n} reports only a score" for n in missing)
    diffs = []
    for n, (ca, cb, ta, tb) in enumerate(
        zip(a["counts"], b["counts"], a["totals"], b["totals"]), 1
    ):
        if (ca, ta) != (cb, tb):
            diffs.append(f"p{n} {ca}/{ta} vs {cb}/{tb}")
    if len(a["counts"]) != len(b["counts"]):
        diffs.append(f"orders {len(a['counts'])} vs {len(b['counts'])}")
    for field in ("hyp_len", "ref_len"):
        va, vb = a.get(field), b.get(field)
        if va is not None and vb is not None and float(va) != float(vb):
            diffs.append(f"{field} {va:g} vs {vb:g}")
    ba, bb = a.get("bp"), b.get("bp")
    if ba is not None and bb is not None and abs(ba - bb) > 1e-12 * max(abs(ba), abs(bb)):
        diffs.append(f"BP {ba:.6g} vs {bb:.6g}")
    for side, stats in ((name_a, a), (name_b, b)):
        if stats["source"] != "reported":
            diffs.append(f"({side}: as computed by {stats['source']}, which reproduces its score)")
    return tuple(diffs)


Shrinker = Callable[[Case, "Subject", "Subject", PairRow], "ShrinkResult | None"]


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
        Side(sa.native, oa, sa.native_knobs),
        Side(sb.native, ob, sb.native_knobs),
        case.config,
        tolerance,
    )
    stats_a = _reported_stats(ra.answer) or _reproduced_stats(cause.native_a, sa.native)
    stats_b = _reported_stats(rb.answer) or _reproduced_stats(cause.native_b, sb.native)
    return replace(row, attribution=cause, stats_a=stats_a, stats_b=stats_b)


def _side_value(reply: Reply, outcome: Outcome | None) -> str:
    if reply.status != ANSWERED or outcome is None:
        status = "skip" if reply.status == SKIPPED else "error"
        return f"{status}: {reply.reason}"[:80]
    failure = reply.answer.failure if reply.answer is not None else None
    if failure is not None and failure.kind is None and failure.message:
        return f"{outcome.describe()} ({failure.message})"[:80]  # what it raised
    return outcome.describe()


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def row_record(row: PairRow) -> dict[str, Any]:
    """One pair row as a JSON-friendly record (what the compare log stores)."""
    record: dict[str, Any] = {
        "kind": "pair",
        "item": row.case.id,
        "file": row.case.file,
        "a": row.a,
        "b": row.b,
        "value_a": _side_value(row.reply_a, row.outcome_a),
        "value_b": _side_value(row.reply_b, row.outcome_b),
        "verdict": row.verdict,
        "abs_delta": row.abs_delta,
        "rel_delta": row.rel_delta,
    }
    for side, outcome in (("a", row.outcome_a), ("b", row.outcome_b)):
        if outcome is not None:
            record[f"score_{side}" if outcome.failure is None else f"failure_{side}"] = (
                outcome.score if outcome.failure is None else outcome.failure
            )
    attribution = row.attribution
    if attribution is not None:
        record["cause"] = attribution.cause
        record["explained"] = attribution.explained
        record["changes"] = [[c.knob, _plain(c.a), _plain(c.b)] for c in attribution.changes]
        record["alternatives"] = attribution.alternatives_text
        record["stats_diff"] = list(row.stats_diff)
        record["stats_a"] = _plain(row.stats_a)
        record["stats_b"] = _plain(row.stats_b)
    if row.shrink is not None:
        record["shrink"] = dict(row.shrink)
    if row.minimal is not None:
        record["minimal"] = {
            "hypotheses": [_plain(h) for h in row.minimal.hypotheses],
            "references": [[_plain(r) for r in refs] for refs in row.minimal.references],
        }
    return record
