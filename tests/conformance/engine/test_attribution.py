"""Cause attribution on constructed disagreements whose cause is known in advance.

Side B's outcome is produced by changing exactly the knobs under test (or by an arbitrary
number), so the attribution must name exactly those knobs (or say "unexplained").
"""

from __future__ import annotations

import pytest

import bleu_impl
from conformance.cases import Case, Tolerance
from conformance.engine.asking import Outcome
from conformance.engine.attribution import Side, attribute
from conformance.engine.evaluator import Evaluator

TOL = Tolerance(rel=1e-9)


def evaluator(hyps, refs) -> Evaluator:
    return Evaluator(Case.from_texts("constructed", hyps, refs))


def outcome(hyps, refs, profile="papineni2002", level="corpus", **knobs) -> Outcome:
    try:
        return Outcome(score=bleu_impl.corpus_bleu(hyps, refs, profile=profile, **knobs).score)
    except bleu_impl.EmulatedFailure as exc:
        return Outcome(failure=exc.kind)


CASES = [
    # (description, hyps, refs, knobs that make side B, expected cause knobs)
    (
        "reference length rule",
        ["a b c d e f g h i j k l"],
        [["a b c d e f g h i j k l m", "a b"]],
        {"ref_length": "shortest"},
        {"ref_length"},
    ),
    (
        "tie to first listed",
        ["a b c d e f g h i j k l"],
        [["a b c d e f g h i j k l m", "a b c d e f g h i j k"]],
        {"ref_length": "closest-first"},
        {"ref_length"},
    ),
    (
        "lowercasing",
        ["The cat sat on the mat today"],
        [["the cat sat on the mat today"]],
        {"lowercase": "ascii"},
        {"lowercase"},
    ),
    (
        "13a tokenization",
        ["the cat sat on the mat, today."],
        [["the cat sat on the mat , today ."]],
        {"tokenize": "13a"},
        {"tokenize"},
    ),
    (
        "smoothing of a zero order",
        ["the cat sat a mat on the"],
        [["the cat sat on the mat"]],
        {"smoothing": "exp"},
        {"smoothing"},
    ),
    (
        "per-segment floor",
        ["a b c d e", "a b"],
        [["a b c d e"], ["a b"]],
        {"denominator_floor": "per-segment"},
        {"denominator_floor"},
    ),
    ("effective order", ["a b c"], [["a b c"]], {"effective_order": True}, {"absent_order"}),
]


@pytest.mark.parametrize(
    ("name", "hyps", "refs", "knobs", "cause"), CASES, ids=[c[0] for c in CASES]
)
def test_single_known_cause_is_found(name, hyps, refs, knobs, cause) -> None:
    a = outcome(hyps, refs)
    b = outcome(hyps, refs, **knobs)
    assert a != b, "the constructed case must disagree"
    result = attribute(evaluator(hyps, refs), Side(None, a), Side(None, b), {}, TOL)
    assert result.explained
    minimal = [result.changes, *result.alternatives]
    assert cause in [{c.knob for c in changes} for changes in minimal], result.cause


def test_profile_sides_give_the_minimal_difference() -> None:
    """papineni2002 vs nltk on a 2-token exact match: the floor + float-min explain it."""
    hyps, refs = [["foo", "bar"]], [[["foo", "bar"]]]
    a, b = outcome(hyps, refs), outcome(hyps, refs, profile="nltk")
    result = attribute(evaluator(hyps, refs), Side("papineni2002", a), Side("nltk", b), {}, TOL)
    assert result.explained
    assert {c.knob for c in result.changes} == {"zero_match", "denominator_floor"}
    # each side reproduced by its own profile: their statistics are the sides' own
    assert result.native_a is not None and result.native_b is not None
    assert (result.native_a.totals[2], result.native_b.totals[2]) == (0, 1)


def test_crash_versus_score_is_attributed() -> None:
    hyps, refs = [""], [["a b c"]]
    a, b = outcome(hyps, refs, profile="mteval-v14"), outcome(hyps, refs, profile="mteval-v13a")
    assert b.failure == "empty-hypothesis"
    result = attribute(
        evaluator(hyps, refs), Side("mteval-v14", a), Side("mteval-v13a", b), {}, TOL
    )
    assert [c.knob for c in result.changes] == ["empty_hyp"]


def test_arbitrary_number_is_unexplained() -> None:
    hyps, refs = ["the cat sat on the mat"], [["the cat is on the mat"]]
    a = outcome(hyps, refs)
    result = attribute(
        evaluator(hyps, refs), Side(None, a), Side(None, Outcome(score=0.123456789)), {}, TOL
    )
    assert not result.explained
    assert result.cause.startswith("unexplained")


def test_tolerance_is_relative_so_tiny_scores_are_not_zero() -> None:
    hyps, refs = [["a", "b"]], [[["a", "b"]]]
    tiny = outcome(hyps, refs, profile="nltk")
    assert 0 < tiny.score < 1e-100
    result = attribute(
        evaluator(hyps, refs), Side(None, Outcome(score=0.0)), Side(None, tiny), {}, TOL
    )
    assert result.explained and result.changes
