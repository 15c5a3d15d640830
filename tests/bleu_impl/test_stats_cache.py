"""StatsCache: one corpus under many configs equals corpus_stats under each, errors too."""

from __future__ import annotations

import itertools
from functools import partial

import pytest

from bleu_impl import BleuError, corpus_stats, make_config
from bleu_impl.bulk import StatsCache

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
    {"aggregation": "macro"},
    {"aggregation": "macro", "ref_length": "average", "denominator_floor": "per-segment"},
    {"aggregation": "macro", "ref_length": "average", "missing_refs": "len-9999"},
    {"ref_length": "average", "missing_refs": "len-9999"},
    {"ngram_join": "space"},
    {"ngram_join": "space-resplit"},
    {"ngram_join": "space-resplit", "max_order": 2, "aggregation": "macro"},
    {"ref_scope": "corpus"},
    {"ref_scope": "corpus", "ngram_join": "space", "ref_length": "shortest"},
    {"ref_scope": "non-empty"},
    {"ref_scope": "non-empty", "aggregation": "macro", "ref_length": "average"},
]
TOKENIZERS = ["none", "13a", "intl", "char"]


def _stats_or_error(run):
    """The statistics with the type of every reference length (an int and an equal
    Fraction compare equal but score differently), or the error."""
    try:
        stats = run()
    except BleuError as exc:
        return type(exc), str(exc)
    return stats, [type(s.ref_len) for s in (stats, *(stats.parts or ()))]


@pytest.mark.parametrize(
    ("seed", "segments"), [*((s, 8) for s in range(4)), *((s, 1) for s in range(4, 10))]
)
def test_every_config_equals_corpus_stats(seed, segments) -> None:
    """Several segments, and one (a reference pool of one segment is its references)."""
    hyps, refs = random_corpus(seed, segments=segments, missing=seed % 2 == 1)
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


def test_tokens_with_spaces_inside() -> None:
    """Joined n-grams of tokens that hold spaces collide (fast-bleu) or split into more
    pieces (torchtext, up to its IndexError): not tuple n-grams, so not their counts."""
    import random

    rng = random.Random(5)
    for _ in range(20):
        hyps, refs = token_corpus(rng, 4)
        hyps = [[*h, "a b", "c"] if rng.random() < 0.5 else h for h in hyps]
        refs = [[[*r, "a", "b c"] for r in rs] for rs in refs]
        cache = StatsCache(hyps, refs)
        for knobs in VARIANTS:
            config = make_config(knobs)
            want = _stats_or_error(partial(corpus_stats, hyps, refs, config))
            assert _stats_or_error(partial(cache.stats, config)) == want, knobs


@pytest.mark.parametrize("refs", [[[]], [[None]], [["a b c", None]], [[""]], [["", " ", "a b"]]])
def test_one_segment_with_and_without_references(refs) -> None:
    """A reference pool of one segment without references fails (whatever
    ``missing_refs`` says), unlike that segment's own missing references."""
    hyps = ["a b c d"]
    cache = StatsCache(hyps, refs)
    for knobs in [*VARIANTS, {"ref_scope": "corpus", "missing_refs": "len-9999"}]:
        config = make_config(knobs)
        want = _stats_or_error(lambda c=config: corpus_stats(hyps, refs, c))
        assert _stats_or_error(lambda c=config: cache.stats(c)) == want, knobs


def test_a_remembered_error_is_raised_with_its_own_traceback() -> None:
    """Raising one exception object again and again chains every raise's frames onto its
    traceback (a search asks thousands of configs): each raise starts afresh."""
    import traceback

    cache = StatsCache(["a b"], [])  # one reference list missing
    depths = []
    for max_order in (1, 2, 3) * 20:
        try:
            cache.stats(make_config({"max_order": max_order}))
        except BleuError as exc:
            depths.append(len(traceback.extract_tb(exc.__traceback__)))
    assert len(depths) == 60 and max(depths) == depths[0]


def test_references_cut_by_their_text() -> None:
    """``ref_scope="non-empty"`` drops the empty references (not the blank ones) before
    anything is counted, as ``corpus_stats`` does."""
    hyps = ["a b c d", "e f", "g"]
    for refs in (
        [["a b c", ""], ["", " ", "e f"], ["g", ""]],
        [["a b c"], [""], ["g"]],  # a segment left without a reference: the error
        [["a b c"], [" "], ["g", None]],
    ):
        cache = StatsCache(hyps, refs)
        for knobs, tokenize in itertools.product(VARIANTS[-2:], TOKENIZERS):
            config = make_config({**knobs, "tokenize": tokenize})
            want = _stats_or_error(partial(corpus_stats, hyps, refs, config))
            assert _stats_or_error(partial(cache.stats, config)) == want, (refs, knobs)
