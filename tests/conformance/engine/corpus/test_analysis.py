"""Ranking flips of the corpus report where implementations score (nearly) 0: on WMT22
en-zh without a Chinese tokenizer, NLTK's scores are 1e-77-sized and torchmetrics' exactly 0
for most systems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main

#: Three-word segments: no 4-grams, so corpus BLEU without smoothing is 0 for both systems,
#: mteval's smoothing orders them one way and NLTK's float-min the other, by 1e-76.
REF = ["The big cat", "A small dog", "The red car"]
SYSTEMS = {
    "lower.txt": ["the big cat", "a small dog", "the red bus"],
    "words.txt": ["The big dog", "A small cat", "The red car"],
}
IMPLS = ["bleu_impl:sacrebleu", "bleu_impl:mteval-v13a", "bleu_impl:torchmetrics", "bleu_impl:nltk"]


def _report(tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    (tmp_path / "ref.txt").write_text("\n".join(REF) + "\n", encoding="utf-8")
    argv = ["compare", "-r", str(tmp_path / "ref.txt")]
    for name, lines in SYSTEMS.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv += ["-i", str(tmp_path / name)]
    argv += [x for impl in IMPLS for x in ("--impl", impl)]
    assert main([*argv, "--format", fmt]) == 0
    return capsys.readouterr().out


def test_a_tie_is_never_significant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Both systems score 0: every resample ties too, and sacrebleu's p = 1/1001 (kept, as
    sacrebleu computes it) made the tie "significant"."""
    (flip,) = json.loads(_report(tmp_path, "json", capsys))["flips"]
    assert flip["tied"] == ["bleu_impl:sacrebleu", "bleu_impl:torchmetrics"]
    for impl in flip["tied"]:
        assert flip["delta"][impl] == 0 and flip["p_value"][impl] == pytest.approx(1 / 1001)
        assert flip["significant"][impl] is False
    assert flip["significant"]["bleu_impl:mteval-v13a"] is not None


def test_a_difference_below_the_printed_precision_is_on_the_columns_scale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NLTK orders the two systems by 1e-76 BLEU: the flip row prints it at the report's
    precision (a 0-100 column never shows 7.9e-76 beside 19.35), as ±0.00 with no
    significance mark whatever its p-value, and the verdict says the scores are equal at two
    decimals under NLTK."""
    report = json.loads(_report(tmp_path, "json", capsys))
    delta = report["flips"][0]["delta"]["bleu_impl:nltk"]
    assert 0 < abs(delta) < 1e-70 and report["flips"][0]["significant"]["bleu_impl:nltk"] is False
    text = " ".join(_report(tmp_path, "table", capsys).split())
    assert "bleu_impl:nltk ±0.00 (p 0.0010)" in text
    assert "e−7" not in text and "e-7" not in text and "−0.00" not in text
    assert "equal at 2 decimals under 3 implementations" in text


def test_scores_equal_as_printed_share_a_rank(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NLTK's two scores print 0.00 (1e-76 apart): one rank, no "ranking differs" star."""
    report = json.loads(_report(tmp_path, "json", capsys))
    assert report["ranks"]["bleu_impl:nltk"] == {"lower": 1, "words": 1}
    assert report["ranks"]["bleu_impl:sacrebleu"] == {"lower": 1, "words": 1}
    ranks = _report(tmp_path, "table", capsys).split("Ranks", 1)[1].split("Why", 1)[0]
    assert "bleu_impl:nltk *" not in ranks and "bleu_impl:mteval-v13a *" in ranks
