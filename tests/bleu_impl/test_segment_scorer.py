"""SegmentScorer and ScorerPool: every score equals ``score_stats``'s, errors included.

Property-tested over corpora of several segments (so macro aggregation averages several
parts), every profile with the options its tool offers, and many settings scored through
one pool (scorers of one scoring setting shared, precisions shared by the settings that
compute them alike). The oracle is ``score_stats``, the reference scoring of the statistics
(itself checked against the live libraries by the differential tests).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_impl import (
    BleuError,
    EmulatedFailure,
    ScorerPool,
    SegmentScorer,
    corpus_stats,
    get_profile,
    make_config,
    score_stats,
)
from bleu_impl.segment_scorer import Precisions, precision_key

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
            want = _outcome(lambda: score_stats(stats, profile=prof, config=config).score)
            assert _outcome(lambda: pool.scorer(config).score(stats)) == want, (profile, knobs)
            alone = SegmentScorer(prof, config)
            assert _outcome(lambda: alone.score(stats)) == want, (profile, knobs)


def test_macro_mean_of_several_parts() -> None:
    """pytorch-ignite's macro average, as its live 0.5.5 scores this corpus: the mean of
    the sentence scores 1.0 (an exact match) and 0.0 (no 4-gram match, no smoothing)."""
    config = get_profile("ignite").resolve({}, "corpus")
    hyps = [["a", "b", "c", "d"], ["a", "b", "c", "e"]]
    refs = [[["a", "b", "c", "d"]], [["a", "b", "c", "d"]]]
    stats = corpus_stats(hyps, refs, config)
    assert len(stats.parts) == 2
    assert SegmentScorer(get_profile("ignite"), config).score(stats) == 0.5


def test_precisions_of_other_knobs_are_refused() -> None:
    floor = make_config({"smoothing": "floor"})
    shared = Precisions(precision_key(make_config({})))
    with pytest.raises(ValueError, match="other knobs"):
        SegmentScorer(get_profile("papineni2002"), floor, precisions=shared)
