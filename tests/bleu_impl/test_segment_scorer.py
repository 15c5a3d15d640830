"""SegmentScorer and ScorerPool: every score equals ``score_stats``'s, errors included.

Property-tested over corpora of several segments (so macro aggregation averages several
parts), every profile with the options its tool offers, and many settings scored through
one pool (scorers of one scoring setting shared, precisions shared by the settings that
compute them alike). The oracle is ``score_stats``, the reference scoring of the statistics
(itself checked against the live libraries by the differential tests).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_impl import (
    BleuError,
    EmulatedFailure,
    corpus_stats,
    get_profile,
    make_config,
    score_stats,
)
from bleu_impl.bulk import ScorerPool, SegmentScorer

from .test_sentences import corpora, settings_of


def _outcome(run: Any) -> Any:
    try:
        return run()
    except BleuError as exc:
        return (type(exc), exc.kind if isinstance(exc, EmulatedFailure) else None)


@settings(max_examples=250, deadline=None)
@given(corpora(), st.lists(settings_of(), min_size=1, max_size=8), st.booleans())
def test_pool_scores_equal_score_stats(corpus: Any, chosen: Any, macro: bool) -> None:
    hyps, refs = corpus
    pool = ScorerPool(get_profile("papineni2002"))
    extra = {"aggregation": "macro"} if macro else {}
    for level in ("corpus", "sentence"):
        for profile, knobs in chosen:
            prof = get_profile(profile)
            try:
                config = prof.resolve({**knobs, **extra}, level)
                stats = corpus_stats(hyps, refs, config)
            except BleuError:
                continue
            want = _outcome(partial(score_stats, stats, profile=prof, config=config))
            if not isinstance(want, tuple):
                want = want.score
            assert _outcome(partial(pool.scorer(config).score, stats)) == want, (profile, knobs)
            alone = SegmentScorer(prof, config)
            assert _outcome(partial(alone.score, stats)) == want, (profile, knobs)


def test_macro_mean_of_several_parts() -> None:
    """pytorch-ignite's macro average, as its live 0.5.5 scores this corpus: the mean of
    the sentence scores 1.0 (an exact match) and 0.0 (no 4-gram match, no smoothing)."""
    config = get_profile("ignite").resolve({}, "corpus")
    hyps = [["a", "b", "c", "d"], ["a", "b", "c", "e"]]
    refs = [[["a", "b", "c", "d"]], [["a", "b", "c", "d"]]]
    stats = corpus_stats(hyps, refs, config)
    assert len(stats.parts) == 2
    assert SegmentScorer(get_profile("ignite"), config).score(stats) == 0.5


def test_a_pool_scores_each_setting_as_its_own() -> None:
    """Settings scored one after another in one pool, each right: another brevity
    penalty (which may reuse the remembered precisions and factors), another smoothing,
    other weights and an early exit (which may not: the 4-gram has no match)."""
    prof = get_profile("papineni2002")
    hyps, refs = ["a b c x", "a b"], [["a b c d"], ["a b c"]]
    first = make_config({"smoothing": "floor"})
    stats = corpus_stats(hyps, refs, first)
    pool = ScorerPool(prof)
    pool.scorer(first).score(stats)
    for knobs in (
        {"brevity_penalty": "plus-one"},
        {"smoothing": "exp"},
        {"weights": (0.1, 0.2, 0.3, 0.4)},
        {"early_zero": "any-zero-order"},
    ):
        config = make_config({"smoothing": "floor", **knobs})
        stats = corpus_stats(hyps, refs, config)
        want = score_stats(stats, config=config).score
        assert pool.scorer(config).score(stats) == want
        assert SegmentScorer(prof, config, share=pool.scorer(first)).score(stats) == want
