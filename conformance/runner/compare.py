"""Classify one answer against one expectation: pass, fail (field by field) or error.

Scores are compared on the expectation's scale. The tolerance used is the wider of the
case's tolerance and half a unit of the last digit the adapter prints.
"""

from __future__ import annotations

from typing import Any

from conformance.fixtures import Expectation
from conformance.fixtures.model import printed_half_unit

from ..adapters.base import Capabilities
from ..results import ERROR, FAIL, PASS, Answer, Mismatch

#: Absolute tolerance for the brevity penalty and reference length of full-float answers.
STAT_TOLERANCE = 1e-9


def expected_summary(exp: Expectation) -> dict[str, Any]:
    """The expectation's fields, for reports (never sent to an implementation)."""
    out: dict[str, Any] = {"key": exp.key, "scale": exp.scale}
    for name in ("score", "printed", "counts", "totals", "bp", "hyp_len", "ref_len", "error"):
        value = getattr(exp, name)
        if value is not None:
            out[name] = list(value) if isinstance(value, tuple) else value
    if exp.tolerance.abs or exp.tolerance.rel:
        out["tolerance"] = {"abs": exp.tolerance.abs, "rel": exp.tolerance.rel}
    return out


def _score_mismatch(exp: Expectation, answer: Answer, caps: Capabilities) -> Mismatch | None:
    assert answer.score is not None
    factor = exp.scale / caps.scale
    got = answer.score * factor
    adapter_tol = caps.half_unit * factor
    if exp.score is not None:
        want, case_tol = exp.score, exp.tolerance.bound(exp.score)
    elif exp.printed is not None:
        want, case_tol = float(exp.printed), printed_half_unit(exp.printed)
    else:
        return None
    tol = max(case_tol, adapter_tol)
    delta = got - want
    if abs(delta) <= tol:
        return None
    note = ""
    for ratio, scale in ((100.0, 100), (0.01, 1)):
        if want and abs(got - want * ratio) <= max(tol * ratio, abs(want * ratio) * 1e-6):
            note = (
                f"got is {ratio:g} x expected: the answer looks like it is on the 0-{scale} "
                f"scale, but {caps.name} declares scale {caps.scale}"
            )
    return Mismatch("score", want, got, delta, tol, note)


def compare(
    exp: Expectation, answer: Answer, caps: Capabilities
) -> tuple[str, str, list[Mismatch]]:
    """(outcome, reason, mismatches) for ``answer`` against ``exp``."""
    failure = answer.failure
    if exp.is_error:
        if failure is None:
            got = answer.score if answer.score is not None else "an answer"
            mismatch = Mismatch("error", exp.error, got, note="expected the implementation to fail")
            return FAIL, f"expected error {exp.error!r}, got a score", [mismatch]
        if failure.kind is not None and failure.kind != exp.error:
            mismatch = Mismatch("error", exp.error, failure.kind, note=failure.message)
            return FAIL, f"expected error {exp.error!r}, got error {failure.kind!r}", [mismatch]
        return PASS, "", []
    if failure is not None:
        kind = f" ({failure.kind})" if failure.kind else ""
        return ERROR, f"the implementation failed{kind}: {failure.message}", []
    if answer.score is None:
        return ERROR, "the answer has no score", []
    mismatches: list[Mismatch] = []
    score = _score_mismatch(exp, answer, caps)
    if score is not None:
        mismatches.append(score)
    for name in ("counts", "totals"):
        want, got = getattr(exp, name), getattr(answer, name)
        if want is not None and got is not None and tuple(want) != tuple(got):
            mismatches.append(Mismatch(name, list(want), list(got)))
    stat_tol = max(STAT_TOLERANCE, 0.0 if caps.precision is None else 5e-4)
    for name, tol in (("bp", stat_tol), ("hyp_len", 0.0), ("ref_len", STAT_TOLERANCE)):
        want, got = getattr(exp, name), getattr(answer, name)
        if want is None or got is None:
            continue
        delta = float(got) - float(want)
        if abs(delta) > tol:
            mismatches.append(Mismatch(name, want, got, delta, tol))
    if mismatches:
        return FAIL, "; ".join(_describe(m) for m in mismatches), mismatches
    return PASS, "", []


def _describe(m: Mismatch) -> str:
    if m.delta is None:
        return f"{m.field}: expected {m.expected}, got {m.got}"
    return (
        f"{m.field}: expected {m.expected!r}, got {m.got!r} "
        f"(delta {m.delta:+.3g}, tolerance {m.tolerance or 0:.3g})"
    )
