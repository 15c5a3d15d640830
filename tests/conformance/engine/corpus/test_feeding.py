"""Every implementation takes part in every language: with ``--knob tokenize=T`` one that
cannot set ``tokenize`` gets the text pre-tokenized by T, as its users feed it.

The corpora (``data/``, see its README) are small Chinese, Japanese, Korean, Thai and French
files written for these tests. The expected NLTK numbers come from NLTK called directly on
the tokens of sacrebleu's own tokenizer, as a user scoring Chinese with NLTK would do.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main

DATA = Path(__file__).parent / "data"
SYSTEMS = ("a", "b", "c")

#: language -> the tokenizer sacrebleu's command line would use for it (French: intl).
TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab", "th": "char", "fr": "intl"}

#: Implementations that take one reference (an error cell, with the reason, on two).
ONE_REFERENCE = {
    "bleu_impl:tensor2tensor",
    "bleu_impl:fairseq",
    "bleu_impl:allennlp",
    "bleu_impl:compare-mt",
}


def _refs(lang: str) -> list[Path]:
    return sorted((DATA / lang).glob("ref*.txt"))


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each language's report with every default implementation, as JSON."""
    out = {}
    for lang, tokenizer in TOKENIZERS.items():
        path = tmp_path_factory.mktemp(lang) / "report.json"
        argv = ["compare", "-q", "--knob", f"tokenize={tokenizer}", "--report", str(path)]
        argv += [x for ref in _refs(lang) for x in ("-r", str(ref))]
        argv += [x for s in SYSTEMS for x in ("-i", str(DATA / lang / f"{s}.txt"))]
        assert main([*argv, "--format", "json"]) == 0
        out[lang] = json.loads(path.read_text(encoding="utf-8"))
    return out


@pytest.mark.parametrize("lang", TOKENIZERS)
def test_every_implementation_has_a_number_or_a_reason(
    reports: dict[str, dict[str, Any]], lang: str
) -> None:
    report = reports[lang]
    two_refs = len(_refs(lang)) > 1
    assert len(report["implementations"]) >= 21  # every bleu_impl profile at least
    for impl in report["implementations"]:
        name = impl["name"]
        scores = report["scores"].get(name, {})
        errors = report["errors"].get(name, {})
        for system in SYSTEMS:
            if two_refs and name in ONE_REFERENCE:
                assert "reference" in errors[system], (name, errors)
            else:  # nobody is skipped: each is fed as its users feed it
                assert system in scores, (name, errors.get(system))
        assert impl["fed"], name


@pytest.mark.parametrize("lang", TOKENIZERS)
def test_each_column_says_how_it_was_fed(reports: dict[str, dict[str, Any]], lang: str) -> None:
    tokenizer = TOKENIZERS[lang]
    fed = {i["name"]: i["fed"] for i in reports[lang]["implementations"]}
    assert fed["bleu_impl:sacrebleu"] == f"raw text, its own tokenize={tokenizer}"
    assert fed["bleu_impl:nltk"].startswith(f"pre-tokenized by {tokenizer}")
    if "sacrebleu" in fed:
        assert fed["sacrebleu"] == f"raw text, its own tokenize={tokenizer}"


def _sacrebleu_tokenizer(name: str) -> Any:
    from sacrebleu.metrics.bleu import BLEU

    return BLEU(tokenize=name).tokenizer


@pytest.mark.skipif(
    importlib.util.find_spec("nltk") is None or importlib.util.find_spec("sacrebleu") is None,
    reason="needs NLTK and sacrebleu",
)
@pytest.mark.parametrize("lang", TOKENIZERS)
def test_nltk_scores_what_a_user_tokenizing_first_gets(
    reports: dict[str, dict[str, Any]], lang: str
) -> None:
    """NLTK 3.10.4's corpus_bleu on the tokens of sacrebleu 2.6.0's tokenizer, live."""
    from nltk.translate.bleu_score import corpus_bleu

    tokenize = _sacrebleu_tokenizer(TOKENIZERS[lang])
    refs = [p.read_text(encoding="utf-8").splitlines() for p in _refs(lang)]
    ref_tokens = [[tokenize(r).split() for r in seg] for seg in zip(*refs)]
    for system in SYSTEMS:
        lines = (DATA / lang / f"{system}.txt").read_text(encoding="utf-8").splitlines()
        want = 100 * corpus_bleu(ref_tokens, [tokenize(h).split() for h in lines])
        assert reports[lang]["scores"]["nltk"][system] == pytest.approx(want, rel=1e-12, abs=0)
        # bleu_impl's NLTK profile, fed the same way, reproduces it
        got = reports[lang]["scores"]["bleu_impl:nltk"][system]
        assert got == pytest.approx(want, rel=1e-12, abs=0)


@pytest.mark.parametrize("lang", TOKENIZERS)
def test_a_pre_tokenized_implementation_is_reproduced_and_explained(
    reports: dict[str, dict[str, Any]], lang: str
) -> None:
    """Its reproducing setting is its profile with the corpus tokenizer: the path from the
    baseline then has no tokenization step, only what the implementations really differ in."""
    report = reports[lang]
    nltk = next(i for i in report["implementations"] if i["name"] == "bleu_impl:nltk")
    assert nltk["reproduced_by"] == "bleu_impl:nltk"
    assert nltk["setting"]["tokenize"] == TOKENIZERS[lang]
    steps = report["decomposition"]["bleu_impl:nltk"]["steps"]
    assert not any("tokenize" in step["knobs"] for step in steps)
