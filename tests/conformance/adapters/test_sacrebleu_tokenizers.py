"""The live sacrebleu adapter passes the new tokenizers to sacrebleu, and for the
SentencePiece ones makes sacrebleu load the ``spm_model`` file instead of downloading."""

from __future__ import annotations

import pytest

import bleu_impl
from conformance.adapters import make_adapter
from conformance.protocol import Request
from tools.fixtures.multilingual import random_corpus

pytest.importorskip("sacrebleu")


def _request(tokenize: str, **knobs) -> Request:
    hyps, refs = random_corpus(11, 30, 2, {"zh": "zh-hans", "ja-mecab": "ja"}.get(tokenize))
    return Request(
        level="corpus",
        config={"tokenize": tokenize, **knobs},
        hypotheses=tuple(hyps),
        references=tuple(tuple(r) for r in refs),
        case_knobs=frozenset({"tokenize", *knobs}),
    )


def _bleu_impl(request: Request) -> bleu_impl.BleuResult:
    refs = [list(r) for r in request.references]
    return bleu_impl.corpus_bleu(
        list(request.hypotheses), refs, profile="sacrebleu", **request.config
    )


@pytest.mark.parametrize("tokenize", ["zh", "ja-mecab", "ko-mecab"])
def test_the_tokenizer_reaches_sacrebleu(tokenize: str) -> None:
    pytest.importorskip({"zh": "sacrebleu", "ja-mecab": "MeCab", "ko-mecab": "mecab_ko"}[tokenize])
    adapter = make_adapter("sacrebleu")
    request = _request(tokenize)
    assert adapter.check(request) is None
    answer = adapter.run(request)
    ours = _bleu_impl(request)
    assert answer.counts == ours.counts and answer.totals == ours.totals
    assert answer.score == pytest.approx(ours.score * 100, rel=1e-9)
    assert answer.counts != _bleu_impl(_request("13a")).counts  # not silently 13a


@pytest.mark.parametrize("tokenize", ["spm", "flores101", "flores200"])
def test_sacrebleu_loads_the_given_spm_model(tokenize: str, spm_model: str) -> None:
    from sacrebleu.tokenizers import tokenizer_spm

    before = tokenizer_spm.SACREBLEU_DIR
    adapter = make_adapter("sacrebleu")
    request = _request(tokenize, spm_model=spm_model)
    assert adapter.check(request) is None
    answer = adapter.run(request)
    assert answer.failure is None, answer.failure
    ours = _bleu_impl(request)
    assert answer.counts == ours.counts and answer.totals == ours.totals
    assert answer.score == pytest.approx(ours.score * 100, rel=1e-9)
    assert before == tokenizer_spm.SACREBLEU_DIR  # restored after the metric is built


def test_a_missing_spm_model_is_a_skip_not_a_download(tmp_path) -> None:
    adapter = make_adapter("sacrebleu")
    reason = adapter.check(_request("flores200", spm_model=str(tmp_path / "none.model")))
    assert reason is not None and "no such file" in reason
