"""A tie, a rank difference within noise, a significant difference and a flip are told apart
in words, on the differences and p-values of each implementation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.engine.corpus.verdicts import against_first, verdict
from conformance.results.vocab import Policy

POLICY = Policy()


def _says(delta: dict[str, float], p: dict[str, float | None]) -> str:
    significant = {i: POLICY.significant(v, delta[i]) for i, v in p.items()}
    return verdict("A", "B", delta, significant, POLICY)


def test_a_tie() -> None:
    assert _says({"x": 0.0, "y": 0.0}, {"x": 1 / 1001, "y": 0.5}).startswith("tie: A and B")
    # 1e-76 apart (NLTK's float-min scores) with p = 1/1001: still equal at 2 decimals
    said = _says({"x": 7.9e-76, "y": 0.0}, {"x": 1 / 1001, "y": 1 / 1001})
    assert said.startswith("tie: A and B score the same at 2 decimals")


def test_a_rank_difference_within_noise() -> None:
    said = _says({"x": 0.4, "y": 0.3}, {"x": 0.2, "y": 0.3})
    assert "A ranks above B" in said and "not a reliable one" in said


def test_a_significant_difference_and_a_partly_significant_one() -> None:
    assert _says({"x": 2.0, "y": 1.5}, {"x": 0.001, "y": 0.01}) == (
        "A is significantly better than B under every implementation"
    )
    said = _says({"x": 2.0, "y": 0.5}, {"x": 0.001, "y": 0.3})
    assert "significant under 1, within noise (p ≥ 0.05) under 1" in said


def test_flips() -> None:
    assert _says({"x": 2.0, "y": -1.5}, {"x": 0.001, "y": 0.01}).startswith(
        "flip, significant both ways"
    )
    said = _says({"x": 2.0, "y": -0.5}, {"x": 0.001, "y": 0.4})
    assert said.startswith("flip: A is significantly better under 1 implementation")
    assert _says({"x": 0.2, "y": -0.5}, {"x": 0.5, "y": 0.4}).startswith("flip within noise")


def test_every_system_is_tested_against_the_first_with_every_implementation() -> None:
    scores = {"x": {"s0": 30.0, "s1": 31.0, "s2": 29.0}, "y": {"s0": 30.0, "s2": 28.0}}
    pairs = against_first(scores, lambda i, a, b: 0.01 * (b + 1), ["s0", "s1", "s2"], POLICY)
    assert [p.systems for p in pairs] == [("s1", "s0"), ("s2", "s0")]
    assert pairs[0].delta == {"x": 1.0} and pairs[1].p_value == {"x": 0.03, "y": 0.03}


def test_the_report_names_a_near_zero_flip_a_tie_at_its_precision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three-word segments: every implementation but mteval scores both systems 0 (NLTK
    1e-76 apart): the pair is a rank difference within noise under mteval, equal elsewhere."""
    (tmp_path / "ref.txt").write_text("The big cat\nA small dog\nThe red car\n", encoding="utf-8")
    (tmp_path / "lower.txt").write_text("the big cat\na small dog\nthe red bus\n", "utf-8")
    (tmp_path / "words.txt").write_text("The big dog\nA small cat\nThe red car\n", "utf-8")
    argv = ["compare", "-r", str(tmp_path / "ref.txt"), "--format", "json"]
    argv += ["-i", str(tmp_path / "lower.txt"), "-i", str(tmp_path / "words.txt")]
    for impl in ("bleu_impl:sacrebleu", "bleu_impl:mteval-v13a", "bleu_impl:nltk"):
        argv += ["--impl", impl]
    assert main(argv) == 0
    (pair,) = json.loads(capsys.readouterr().out)["versus"]
    assert pair["systems"] == ["words", "lower"]
    assert pair["significant"]["bleu_impl:nltk"] is False  # p = 1/1001 on 1e-76
    assert pair["verdict"] == (
        "lower ranks above words under every implementation that orders them, within noise "
        "(p ≥ 0.05) under all: a rank difference, not a reliable one; equal at 2 decimals "
        "under 2 implementations"
    )
