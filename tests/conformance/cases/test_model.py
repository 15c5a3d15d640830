"""The data model: tolerances, printed rounding, iteration."""

from __future__ import annotations

import pytest

from conformance.cases.model import (
    Case,
    Expectation,
    Input,
    Segment,
    Tolerance,
    iter_expectations,
    printed_half_unit,
)


def test_printed_half_unit() -> None:
    assert printed_half_unit("0.5046") == pytest.approx(5e-5)
    assert printed_half_unit("50.46") == pytest.approx(5e-3)
    assert printed_half_unit("100") == 0.5


def test_tolerance_abs_and_rel() -> None:
    tol = Tolerance(abs=1e-3, rel=1e-2)
    assert tol.accepts(100.9, 100.0)
    assert not tol.accepts(101.1, 100.0)
    assert tol.accepts(0.0009, 0.0)
    assert not Tolerance(rel=1e-12).accepts(1e-300, 0.0)


def test_score_matches_checks_score_and_printed() -> None:
    exp = Expectation(
        "mteval-v13a", score=0.504566684005848, printed="0.5046", tolerance=Tolerance(rel=1e-12)
    )
    assert exp.score_matches(0.504566684005848)
    assert not exp.score_matches(0.5045)
    printed_only = Expectation("multi-bleu-2017", scale=100, printed="50.46")
    assert printed_only.score_matches(50.464)
    assert not printed_only.score_matches(50.466)


def test_case_is_frozen_and_iterable() -> None:
    exp = Expectation("nltk>=3.3", score=1.0, tolerance=Tolerance(rel=1e-12))
    case = Case(
        "c",
        "d",
        "s",
        ("exact-match",),
        "sentence",
        {},
        Input("raw", (Segment("a b", ("a b", None)),)),
        {"nltk>=3.3": exp},
    )
    with pytest.raises(AttributeError):
        case.id = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        case.expected["x"] = exp  # type: ignore[index]
    assert list(iter_expectations([case])) == [(case, exp)]
    assert case.input.references == [["a b", None]]
    assert case.input.hypotheses == ["a b"]
