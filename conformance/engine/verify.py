"""Verify an implementation against the fixtures' expectations: pass, fail, error or skip.

Per case: choose the expectation key the adapter answers for, build the request from the
case *without* its expectations, :func:`~conformance.engine.asking.ask`, classify the answer
against the expectation field by field, then apply known failures. Scores are compared on
the expectation's scale, within the wider of the case's tolerance and half a unit of the
last digit the adapter prints. An implementation's problem never stops the run.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from bleu_impl import BleuError

from ..adapters import Adapter, Capabilities
from ..adapters.base import DEFAULT_EXPECT
from ..cases import Case, Expectation, ExpectationKey
from ..cases.model import printed_half_unit
from ..protocol import AdapterError, Answer
from ..results import known_failures
from ..results.records import CaseResult, ImplementationInfo, Mismatch
from ..results.vocab import ERROR, FAIL, PASS, SKIP, UNCHECKED, Outcome
from .asking import ANSWERED, SKIPPED, ask, build_request

__all__ = [
    "ANY_FAILURE",
    "STAT_TOLERANCE",
    "candidate_keys",
    "check_expectation",
    "choose_key",
    "classify_answer",
    "compared",
    "expected_by_default",
    "expected_summary",
    "implementation_info",
    "run_case",
    "startup_failure",
    "unknown_expectations",
    "verify_cases",
]

#: An expected error that any failure of the implementation meets (a foreign implementation
#: names its failures its own way: pycocoevalcap's AssertionError is bleu_impl's
#: ``missing-reference``).
ANY_FAILURE = "any"

#: Absolute tolerance for the brevity penalty and reference length of full-float answers.
STAT_TOLERANCE = 1e-9
#: ... and of answers printed with limited precision (half a unit of ~3-4 decimals).
PRINTED_STAT_TOLERANCE = 5e-4


def _version(text: str) -> tuple[int, ...] | None:
    match = re.match(r"\s*v?(\d+(?:\.\d+)*)", text)
    return tuple(int(p) for p in match.group(1).split(".")) if match else None


def candidate_keys(
    caps: Capabilities, keys: Mapping[str, ExpectationKey], override: Sequence[str] = ()
) -> list[str]:
    """Expectation keys this adapter answers for, most specific first.

    ``override`` (``--expect``) wins. Otherwise each name in ``caps.expect`` stands for the
    key itself and for version-range keys ``NAME>=X`` with X <= the adapter's live version.
    """
    if override:
        return list(override)
    live = _version(caps.version)
    found: list[str] = []
    for name in caps.expect or DEFAULT_EXPECT:
        ranged: list[tuple[tuple[int, ...], str]] = []
        for key in keys:
            if key.startswith(f"{name}>="):
                low = _version(key[len(name) + 2 :])
                if low is not None and live is not None and low <= live:
                    ranged.append((low, key))
        found.extend(k for _, k in sorted(ranged, reverse=True))
        found.append(name)
    return list(dict.fromkeys(found))


def unknown_expectations(
    candidates: Sequence[str], keys: Mapping[str, ExpectationKey]
) -> str | None:
    """Why ``candidates`` can match no case (none is an expectation key), or None."""
    if any(k in keys for k in candidates):
        return None
    shown = ", ".join(candidates) or "(none)"
    return (
        f"expects {shown}: no such expectation key in implementations.yaml (known: "
        f"{', '.join(sorted(keys))}); every case would be skipped"
    )


def choose_key(case: Case, candidates: Sequence[str]) -> str | None:
    """The first candidate key the case has an expectation for."""
    return next((k for k in candidates if k in case.expected), None)


def expected_summary(exp: Expectation) -> dict[str, Any]:
    """The expectation's fields, for reports (never sent to an implementation)."""
    out: dict[str, Any] = {"key": exp.key, "scale": exp.scale}
    for name in (
        "score",
        "printed",
        "precisions",
        "counts",
        "totals",
        "bp",
        "hyp_len",
        "ref_len",
        "error",
        "source",
    ):
        value = getattr(exp, name)
        if value is not None:
            out[name] = list(value) if isinstance(value, tuple) else value
    if exp.tolerance.abs or exp.tolerance.rel:
        out["tolerance"] = {"abs": exp.tolerance.abs, "rel": exp.tolerance.rel}
    return out


def _score_mismatch(exp: Expectation, answer: Answer, caps: Capabilities) -> Mismatch | None:
    """The score's mismatch (only when both sides hold a score: see :func:`compared`)."""
    assert answer.score is not None
    factor = exp.scale / caps.scale
    got = answer.score * factor
    adapter_tol = caps.half_unit * factor
    if exp.score is not None:
        want, case_tol = exp.score, exp.tolerance.bound(exp.score)
    else:
        assert exp.printed is not None
        want, case_tol = float(exp.printed), printed_half_unit(exp.printed)
    tol = max(case_tol, adapter_tol)
    delta = got - want
    if abs(delta) <= tol:
        return None
    return Mismatch("score", want, got, delta, tol, _scale_hint(want, got, tol, caps))


def compared(exp: Expectation, answer: Answer) -> list[str]:
    """The fields of ``exp`` that ``answer`` reports too: what a check compares. None of
    them (a bare score against recorded counts) makes the case ``unchecked``, never a pass."""
    names = ["score"] if exp.score is not None or exp.printed is not None else []
    names += [
        n for n in ("counts", "totals", "bp", "hyp_len", "ref_len") if getattr(exp, n) is not None
    ]
    found = [n for n in names if getattr(answer, n) is not None]
    if _modified_precisions_only(exp) and answer.counts is not None and answer.totals is not None:
        found.append("precisions")  # derived from the answer's counts and totals
    return found


def _modified_precisions_only(exp: Expectation) -> bool:
    """An expectation that records only p_n (NLTK's ``_modified_precision`` doctests): the
    paper's unsmoothed clipped precisions. Beside a score or counts, recorded precisions
    may be a tool's smoothed ones (sacrebleu's), so they are not compared there."""
    others = (exp.score, exp.printed, exp.counts, exp.totals, exp.bp, exp.hyp_len, exp.ref_len)
    return exp.precisions is not None and all(v is None for v in others)


def _answer_precisions(answer: Answer) -> list[Fraction]:
    """p_n = clipped matches / total n-grams of the answer (0 where there are no n-grams, as
    NLTK's ``_modified_precision`` and the paper's zero-count convention give)."""
    assert answer.counts is not None and answer.totals is not None
    return [Fraction(c, t) if t else Fraction(0) for c, t in zip(answer.counts, answer.totals)]


def _precision_mismatch(exp: Expectation, answer: Answer) -> Mismatch | None:
    """The recorded precisions against the answer's exact ratios; a recorded precision is a
    float's repr of a ratio, so it may differ by one unit in the last place."""
    assert exp.precisions is not None
    got = _answer_precisions(answer)  # on the 0-1 scale; the record on its own
    if len(got) != len(exp.precisions):
        return Mismatch("precisions", list(exp.precisions), [float(p) for p in got])
    for want, ratio in zip(exp.precisions, got):
        want /= exp.scale
        tol = max(exp.tolerance.bound(want), math.ulp(want))
        if not abs(float(ratio) - want) <= tol:
            return Mismatch("precisions", list(exp.precisions), [float(p) for p in got])
    return None


def _scale_hint(want: float, got: float, tol: float, caps: Capabilities) -> str:
    for ratio, scale in ((100.0, 100), (0.01, 1)):
        if want and abs(got - want * ratio) <= max(tol * ratio, abs(want * ratio) * 1e-6):
            return (
                f"got is {ratio:g} x expected: the answer looks like it is on the 0-{scale} "
                f"scale, but {caps.name} declares scale {caps.scale}"
            )
    return ""


def _classify_failure(exp: Expectation, answer: Answer) -> tuple[Outcome, str, list[Mismatch]]:
    failure = answer.failure
    if failure is None:
        got = answer.score if answer.score is not None else "an answer"
        mismatch = Mismatch("error", exp.error, got, note="expected the implementation to fail")
        return FAIL, f"expected error {exp.error!r}, got a score", [mismatch]
    if failure.kind is not None and exp.error not in (failure.kind, ANY_FAILURE):
        mismatch = Mismatch("error", exp.error, failure.kind, note=failure.message)
        return FAIL, f"expected error {exp.error!r}, got error {failure.kind!r}", [mismatch]
    return PASS, "", []


def _statistic_mismatches(
    exp: Expectation, answer: Answer, caps: Capabilities
) -> Iterable[Mismatch]:
    for name in ("counts", "totals"):
        want, got = getattr(exp, name), getattr(answer, name)
        if want is not None and got is not None and tuple(want) != tuple(got):
            yield Mismatch(name, list(want), list(got))
    stat_tol = STAT_TOLERANCE if caps.precision is None else PRINTED_STAT_TOLERANCE
    for name, tol in (("bp", stat_tol), ("hyp_len", 0.0), ("ref_len", STAT_TOLERANCE)):
        want, got = getattr(exp, name), getattr(answer, name)
        if want is None or got is None:
            continue
        delta = float(got) - float(want)
        if not abs(delta) <= tol:
            yield Mismatch(name, want, got, delta, tol)


def classify_answer(
    exp: Expectation, answer: Answer, caps: Capabilities
) -> tuple[Outcome, str, list[Mismatch]]:
    """(outcome, reason, mismatches) for ``answer`` against ``exp``."""
    if exp.is_error:
        return _classify_failure(exp, answer)
    if answer.failure is not None:
        kind = f" ({answer.failure.kind})" if answer.failure.kind else ""
        return ERROR, f"the implementation failed{kind}: {answer.failure.message}", []
    fields = compared(exp, answer)
    if not fields:
        return UNCHECKED, _unchecked_reason(exp, answer), []
    mismatches: list[Mismatch] = []
    score = _score_mismatch(exp, answer, caps) if "score" in fields else None
    if score is not None:
        mismatches.append(score)
    mismatches.extend(_statistic_mismatches(exp, answer, caps))
    precision = _precision_mismatch(exp, answer) if "precisions" in fields else None
    if precision is not None:
        mismatches.append(precision)
    if mismatches:
        return FAIL, "; ".join(_describe(m) for m in mismatches), mismatches
    return PASS, "", []


def _unchecked_reason(exp: Expectation, answer: Answer) -> str:
    recorded = [
        k for k, v in expected_summary(exp).items() if k not in _NOT_FIELDS and v is not None
    ]
    got = ", ".join(answer.reported()) or "nothing"
    return (
        f"nothing to compare: {exp.key} records {', '.join(recorded) or 'nothing'} and the "
        f"answer reports {got}"
    )


#: Entries of :func:`expected_summary` that are not recorded values.
_NOT_FIELDS = ("key", "scale", "source", "tolerance")


def _describe(m: Mismatch) -> str:
    if m.delta is None:
        return f"{m.field}: expected {m.expected}, got {m.got}"
    return (
        f"{m.field}: expected {m.expected!r}, got {m.got!r} "
        f"(delta {m.delta:+.3g}, tolerance {m.tolerance or 0:.3g})"
    )


def implementation_info(
    spec: str, adapter: Adapter, expect: Sequence[str], *, by_default: bool = False
) -> ImplementationInfo:
    """The log's record of ``adapter``, checked against ``expect`` (``by_default``: the
    default expectation, as nothing names it)."""
    caps = adapter.capabilities
    return ImplementationInfo(
        name=caps.name,
        version=caps.version,
        spec=spec,
        signature=caps.signature,
        expect_key=", ".join(expect),
        capabilities=caps.to_json(),
        default_expect=by_default,
    )


def expected_by_default(caps: Capabilities, override: Sequence[str] = ()) -> bool:
    """True when no expectation names the implementation (it declares none, and no
    ``--expect`` is given): it is then checked only on the default expectation's cases.
    One that declares the default itself chose it and is not checked "by default"."""
    return not override and not caps.expect


def _base(adapter: Adapter, case: Case) -> dict[str, Any]:
    return {
        "implementation": adapter.capabilities.name,
        "case_id": case.id,
        "file": case.file,
        "tags": tuple(case.tags),
    }


def run_case(
    adapter: Adapter,
    case: Case,
    keys: Mapping[str, ExpectationKey],
    candidates: Sequence[str],
    known: Sequence[known_failures.KnownFailure] = (),
    *,
    observe: bool = False,
) -> CaseResult:
    """Classify one case on one adapter (never raises for implementation problems).

    With ``observe`` a case without an expectation for the adapter is still run when it can
    be expressed: it stays a skip, but its answer is recorded (for regression baselines).
    """
    key = choose_key(case, candidates)
    if key is None:
        wanted = ", ".join(candidates) or "(none declared)"
        reason = f"no expectation for {wanted}"
        if observe:
            return _observe(adapter, case, reason, _base(adapter, case))
        return CaseResult(outcome=SKIP, reason=reason, **_base(adapter, case))
    return check_expectation(adapter, case, case.expected[key], keys.get(key), known)


def check_expectation(
    adapter: Adapter,
    case: Case,
    exp: Expectation,
    key: ExpectationKey | None,
    known: Sequence[known_failures.KnownFailure] = (),
) -> CaseResult:
    """Ask ``adapter`` the case (with ``key``'s knobs and semantics) and classify the answer
    against ``exp``, whatever its origin (a recorded output, or a reference computed for
    ``run --as``)."""
    caps = adapter.capabilities
    base = _base(adapter, case)
    base.update(expect_key=exp.key, expected=expected_summary(exp))
    try:
        request = build_request(case, key)
    except BleuError as exc:
        return CaseResult(outcome=ERROR, reason=f"the case's knobs do not resolve: {exc}", **base)
    reply = ask(adapter, request)
    if reply.status == SKIPPED:
        return CaseResult(outcome=SKIP, reason=reply.reason, **base)
    got = reply.answer.reported() if reply.answer is not None else {}
    if reply.status == ANSWERED and reply.answer is not None:
        outcome, why, mismatches = classify_answer(exp, reply.answer, caps)
    else:
        outcome, why, mismatches = ERROR, reply.reason, []
    entry = known_failures.find(known, caps.name, case.id, case.node_id)
    return CaseResult(
        outcome=known_failures.apply(outcome, entry),
        reason=why,
        mismatches=tuple(mismatches),
        got=got,
        stderr=reply.stderr,
        known_failure=entry.to_json() if entry else None,
        duration=round(reply.duration, 6),
        **base,
    )


def _observe(adapter: Adapter, case: Case, reason: str, base: dict[str, Any]) -> CaseResult:
    """Run a case that has no expectation for this adapter, only to record the answer."""
    reply = ask(adapter, build_request(case))
    if reply.status == SKIPPED:
        return CaseResult(outcome=SKIP, reason=f"{reason}; {reply.reason}", **base)
    if reply.status == ANSWERED and reply.answer is not None:
        got = reply.answer.reported()
    else:
        got = {"failure": {"kind": "adapter-error", "message": reply.reason}}
    return CaseResult(outcome=SKIP, reason=f"{reason} (answer recorded)", got=got, **base)


def startup_failure(spec: str, error: AdapterError, cases: Iterable[Case]) -> list[CaseResult]:
    """Every case errors when the implementation cannot even be started or imported."""
    return [
        CaseResult(
            implementation=spec,
            case_id=case.id,
            file=case.file,
            outcome=ERROR,
            reason=f"{error.kind}: {error.message}",
            stderr=error.stderr[-4000:],
            tags=tuple(case.tags),
        )
        for case in cases
    ]


def verify_cases(
    adapter: Adapter,
    cases: Sequence[Case],
    keys: Mapping[str, ExpectationKey],
    *,
    expect: Sequence[str] = (),
    known: Sequence[known_failures.KnownFailure] = (),
    on_result: Callable[[CaseResult], None] | None = None,
    observe: bool = False,
) -> list[CaseResult]:
    """Run ``cases`` through ``adapter`` in order; ``on_result`` sees each result."""
    candidates = candidate_keys(adapter.capabilities, keys, expect)
    results = []
    for case in cases:
        result = run_case(adapter, case, keys, candidates, known, observe=observe)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results
