"""Every implementation takes part in every language: with ``--knob tokenize=T`` one that
cannot set ``tokenize`` gets the text pre-tokenized by T, as its users feed it.

The corpora (``data/``, see its README) are small Chinese, Japanese, Korean, Thai and French
files written for these tests. The expected NLTK numbers come from NLTK called directly on
the tokens of sacrebleu's own tokenizer, as a user scoring Chinese with NLTK would do.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.cases.implementations import load_registry
from conformance.cases.usercorpus import load_corpus
from conformance.commands.compare_corpus import default_implementations
from conformance.engine import open_subjects
from conformance.engine.corpus.analysis import CorpusOptions, corpus_report
from conformance.reporters import render
from conformance.results.records import End, Header
from conformance.results.report import Report
from conformance.results.vocab import Policy

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
def reports() -> Iterator[dict[str, dict[str, Any]]]:
    """Each language's report with every default implementation, as JSON: the
    implementations are opened once for the five reports (their workers start once)."""
    subjects = open_subjects(default_implementations(), load_registry().keys, keep_unstarted=True)
    infos = [s.info() for s in subjects]
    try:
        out = {}
        for lang, tokenizer in TOKENIZERS.items():
            corpus = load_corpus([str(r) for r in _refs(lang)], [_system(lang, s) for s in SYSTEMS])
            options = CorpusOptions(knobs={"tokenize": tokenizer}, policy=Policy(resamples=10))
            cells, summary = corpus_report(corpus, subjects, "sacrebleu", options)
            report = Report(Header("corpus"), infos, cells=cells, corpus=summary, end=End())
            out[lang] = json.loads(render(report, "json"))
        yield out
    finally:
        for subject in subjects:
            subject.adapter.close()


def _system(lang: str, name: str) -> str:
    return str(DATA / lang / f"{name}.txt")


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
        lines = Path(_system(lang, system)).read_text(encoding="utf-8").splitlines()
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
