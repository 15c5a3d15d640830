"""The corpus report's explanations read as they should, on the outputs that showed them:
labelled ranges, no −0.00, a one-reference implementation explained rather than
"unexplained", the reference tokens beside the hypothesis tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli import main

DATA = Path(__file__).parents[1] / "engine" / "corpus" / "data"


def _table(lang: str, impls: list[str], capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    argv = ["compare", "-q", *extra]
    argv += [x for ref in sorted((DATA / lang).glob("ref*.txt")) for x in ("-r", str(ref))]
    argv += [x for s in "abc" for x in ("-i", str(DATA / lang / f"{s}.txt"))]
    argv += [x for impl in impls for x in ("--impl", impl)]
    assert main(argv) == 0
    return capsys.readouterr().out


def test_french_with_two_references(capsys: pytest.CaptureFixture[str]) -> None:
    impls = ["bleu_impl:sacrebleu", "bleu_impl:fairseq", "bleu_impl:nltk", "bleu_impl:mteval-v13a"]
    out = _table("fr", impls, capsys)
    why = out.split("Why the scores differ", 1)[1].split("Significance against", 1)[0]
    flat = " ".join(why.split())
    # fairseq takes one reference: said, with the reason, not "unexplained"
    assert "bleu_impl:fairseq: not compared: bleu_impl:fairseq has no score on any system" in flat
    assert "needs exactly one reference per segment, got 2" in flat
    assert "unexplained" not in flat
    # a step's range over the systems is labelled
    assert "(systems " in flat and "[" not in flat
    assert "lowest and highest value over the systems" in flat
    # the segments show how each side tokenized the reference too
    segments = out.split("Where the difference comes from", 1)[1]
    assert "bleu_impl:sacrebleu ref tokens:" in segments


def test_chinese_shows_no_negative_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """Under tokenize=zh most implementations equal sacrebleu up to float rounding: that was
    printed "−0.00 vs sacrebleu" with every step idle; now they are one line of equal ones."""
    impls = ["sacrebleu", "bleu_impl:nltk", "bleu_impl:torchmetrics", "bleu_impl:ignite"]
    out = _table("zh", impls, capsys, "--knob", "tokenize=zh")
    assert "−0.00" not in out and "-0.00" not in out
    flat = " ".join(out.split())
    assert (
        "same scores as sacrebleu at 2 decimals (any knobs they differ in change nothing "
        "visible on these files): bleu_impl:nltk, bleu_impl:torchmetrics"
    ) in flat


def test_the_page_shows_the_feeding_and_the_significance(
    capsys: pytest.CaptureFixture[str],
) -> None:
    impls = ["bleu_impl:sacrebleu", "bleu_impl:nltk"]
    page = _table("zh", impls, capsys, "--knob", "tokenize=zh", "--format", "html")
    assert "input: pre-tokenized by zh (it cannot set tokenize itself): bleu_impl:nltk" in page
    assert "Significance against a" in page and "μ ± 95% CI" in page
    assert "a is significantly better than c under every implementation" in page


def test_a_score_of_1e_229_beside_zeros_is_drawn_on_the_bleu_scale(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Chinese without a tokenizer: NLTK's scores are 1.2e-229 where sacrebleu's are 0. The
    page's spread figure put its axis ticks at 1e-229 apart, rounded them all to 0 and
    crashed (a division by zero); now the axis is one BLEU point wide, and no number on the
    page is written with an exponent."""
    impls = ["bleu_impl:sacrebleu", "bleu_impl:nltk"]
    page = _table("zh", impls, capsys, "--format", "html")
    assert "Score spread per system" in page
    assert "×10" not in page and "e-229" not in page
    assert "−0.00" not in page and "-0.00" not in page
