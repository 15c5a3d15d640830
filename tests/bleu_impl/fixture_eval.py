"""Evaluate one fixture expectation with bleu_impl (the key's profile + knobs + case config).

Used by the test that bleu_impl's profiles pass every expectation naming them. Compares the
score (tolerance and printed rounding), counts, totals, hyp_len, ref_len, BP and -- for
unsmoothed per-order values -- precisions; an ``error:`` expectation must raise that kind.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import bleu_impl
from bleu_impl import EmulatedFailure, InputError
from conformance.cases.checks import BP_TOLERANCE
from conformance.cases.model import Case, Expectation, ExpectationKey, Tolerance

PRECISION_TOLERANCE = Tolerance(abs=1e-15, rel=1e-12)


def _inputs(case: Case) -> tuple[list[Any], list[list[Any]]]:
    hyps = [s.hypothesis for s in case.input.segments]
    refs = [list(s.references) for s in case.input.segments]
    return hyps, refs


def _error_kind(exc: EmulatedFailure | InputError) -> str:
    return exc.kind or type(exc).__name__


def evaluate(case: Case, exp: Expectation, impl: ExpectationKey) -> list[str]:
    """Mismatches between bleu_impl and ``exp`` (empty list: bleu_impl passes)."""
    assert impl.profile is not None
    knobs = {**impl.knobs, **case.config}
    hyps, refs = _inputs(case)
    try:
        if case.level == "sentence":
            result = bleu_impl.sentence_bleu(hyps[0], refs[0], profile=impl.profile, **knobs)
        else:
            result = bleu_impl.corpus_bleu(hyps, refs, profile=impl.profile, **knobs)
    except (EmulatedFailure, InputError) as exc:
        got = _error_kind(exc)
        if exp.error == got:
            return []
        return [f"raised {got}: {exc}" + (f" (expected error {exp.error})" if exp.error else "")]
    if exp.error is not None:
        return [f"expected error {exp.error}, got score {result.score!r}"]
    return [
        *_statistics_problems(result, exp),
        *_precision_problems(result, exp, impl.key.startswith("sacrebleu")),
    ]


def _statistics_problems(result: bleu_impl.BleuResult, exp: Expectation) -> list[str]:
    problems = []
    actual = result.score * exp.scale
    if (exp.score is not None or exp.printed is not None) and not exp.score_matches(actual):
        problems.append(f"score {actual!r} vs expected {exp.score!r} (printed {exp.printed!r})")
    for name in ("counts", "totals"):
        want, got = getattr(exp, name), tuple(getattr(result, name))
        if want is not None and got != want:
            problems.append(f"{name} {list(got)} vs {list(want)}")
    if exp.hyp_len is not None and result.hyp_len != exp.hyp_len:
        problems.append(f"hyp_len {result.hyp_len} vs {exp.hyp_len}")
    if exp.ref_len is not None and Fraction(result.ref_len) != Fraction(str(exp.ref_len)):
        problems.append(f"ref_len {result.ref_len} vs {exp.ref_len}")
    if exp.bp is not None and not BP_TOLERANCE.accepts(result.bp, exp.bp):
        problems.append(f"bp {result.bp!r} vs {exp.bp!r}")
    return problems


def _precision_problems(
    result: bleu_impl.BleuResult, exp: Expectation, smoothed: bool
) -> list[str]:
    if exp.precisions is None:
        return []
    if smoothed:  # sacrebleu reports smoothed precisions
        values = [p or 0.0 for p in result.precisions]
    else:  # NLTK's modified_precision: clipped matches over (floored) totals
        pairs = zip(result.counts, result.totals, strict=True)
        values = [m / t if t else 0.0 for m, t in pairs]
    return [
        f"precision p{n} {got * exp.scale!r} vs {want!r}"
        for n, (got, want) in enumerate(zip(values, exp.precisions, strict=False), start=1)
        if not PRECISION_TOLERANCE.accepts(got * exp.scale, want)
    ]
