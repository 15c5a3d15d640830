"""StatsCache: one corpus under many configs equals corpus_stats under each, errors too."""

from __future__ import annotations

import itertools

import pytest

from bleu_impl import BleuError, StatsCache, corpus_stats, make_config

from .randomcorpus import corpus as token_corpus
from .randomcorpus import random_corpus

#: Every statistics knob moved at least once, alone and in pairs with the tokenizer.
VARIANTS = [
    {},
    {"max_order": 2},
    {"max_order": 5},
    {"ref_length": "closest-first"},
    {"ref_length": "shortest"},
    {"ref_length": "average"},
    {"ref_length": "single"},
    {"missing_refs": "len-9999"},
    {"denominator_floor": "per-segment"},
    {"smoothing": "nltk-method5", "smoothing_context": "last-segment"},
    {"smoothing": "nltk-method6", "smoothing_context": "last-segment", "max_order": 5},
    {"lowercase": "ascii"},
    {"lowercase": "unicode", "line_prep": "rstrip"},
    {"split": "perl-unicode"},
    {"split": "perl-bytes"},
]
TOKENIZERS = ["none", "13a", "intl", "char"]


def _stats_or_error(run):
    try:
        return run()
    except BleuError as exc:
        return type(exc), str(exc)


@pytest.mark.parametrize("seed", range(4))
def test_every_config_equals_corpus_stats(seed) -> None:
    hyps, refs = random_corpus(seed, segments=8, missing=seed % 2 == 1)
    cache = StatsCache(hyps, refs)
    for knobs, tokenize in itertools.product(VARIANTS, TOKENIZERS):
        config = make_config({**knobs, "tokenize": tokenize})
        want = _stats_or_error(lambda c=config: corpus_stats(hyps, refs, c))
        assert _stats_or_error(lambda c=config: cache.stats(c)) == want, (knobs, tokenize)
        assert _stats_or_error(lambda c=config: cache.stats(c)) == want  # remembered


def test_token_lists_and_read_errors() -> None:
    import random

    hyps, refs = token_corpus(random.Random(3), 6)
    cache = StatsCache(hyps, refs)
    for knobs in VARIANTS:
        config = make_config(knobs)
        assert _stats_or_error(lambda c=config: cache.stats(c)) == _stats_or_error(
            lambda c=config: corpus_stats(hyps, refs, c)
        )
    short = StatsCache(hyps, refs[:-1])  # one reference list missing
    config = make_config({})
    assert _stats_or_error(lambda: short.stats(config)) == _stats_or_error(
        lambda: corpus_stats(hyps, refs[:-1], config)
    )
