"""``ja-mecab`` and ``ko-mecab`` against live sacrebleu 2.x's MeCab tokenizers (its ``[ja]`` and
``[ko]`` extras): tokens on random multilingual lines, the batch form, the signature, and the
errors when a dependency or the dictionary is not the one sacrebleu requires."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bleu_impl import corpus_bleu, make_config
from bleu_impl.errors import DependencyError
from bleu_impl.tokenizers.all_tokenizers import tokenizer_signature
from bleu_impl.tokenizers.mecab import JA_MECAB, KO_MECAB, MecabTokenizer, mecab_tokenizer
from tools.fixtures.multilingual import random_line

SETUPS = {"ja-mecab": (JA_MECAB, "ja"), "ko-mecab": (KO_MECAB, "ko")}


def _sacrebleu_tokenizer(name: str):
    pytest.importorskip(SETUPS[name][0].binding)
    metrics = pytest.importorskip("sacrebleu.metrics")
    return metrics.BLEU(tokenize=name).tokenizer


@pytest.mark.parametrize("name", list(SETUPS))
def test_tokens_and_signature_equal_sacrebleus(name: str) -> None:
    theirs = _sacrebleu_tokenizer(name)
    setup, main = SETUPS[name]
    rng = random.Random(name)
    lines = [random_line(rng, main if i % 2 else None) for i in range(600)]
    lines += ["", " ", "\u3000", "ｶﾀｶﾅとカタカナ", "１２３ｍ", "😀👍🏽", "a\tb  c"]
    ours = mecab_tokenizer(setup)
    expected = [theirs(line) for line in lines]
    assert [ours(line) for line in lines] == expected
    assert ours.batch(lines) == expected
    assert ours.signature == theirs.signature()
    assert tokenizer_signature(make_config({"tokenize": name})) == theirs.signature()


@pytest.mark.parametrize("name", list(SETUPS))
def test_a_missing_binding_names_the_pip_install(name: str) -> None:
    setup, extra = SETUPS[name]
    with pytest.raises(DependencyError, match=rf"pip install 'bleu-conformance\[{extra}\]'"):
        MecabTokenizer(replace(setup, binding="no_such_mecab_binding"))
    with pytest.raises(DependencyError, match="no_such_dictionary"):
        MecabTokenizer(replace(setup, dictionary="no_such_dictionary"))


def test_another_dictionary_is_refused_as_sacrebleu_does() -> None:
    pytest.importorskip("MeCab")
    with pytest.raises(DependencyError, match="sacrebleu requires exactly 1"):
        MecabTokenizer(replace(JA_MECAB, dictionary_size=1))


def test_corpus_bleu_with_ja_mecab_reports_mecab_in_its_signature() -> None:
    pytest.importorskip("MeCab")
    result = corpus_bleu(
        ["東京タワーは高い。"], [["東京タワーは低い。"]], profile="sacrebleu", tokenize="ja-mecab"
    )
    assert "|tok:ja-mecab-0.996-IPA|" in result.signature
    assert result.counts[0] == 4  # 東京 タワー は 。 match; 高い / 低い do not
