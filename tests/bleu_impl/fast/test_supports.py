"""Which configs the fast path takes; the others fall back to the reference path."""

from __future__ import annotations

import dataclasses

from bleu_impl import (
    BleuStats,
    Config,
    corpus_stats,
    fast,
    get_profile,
    iter_segment_stats,
)
from bleu_impl.api import sentence_stats

from ..randomcorpus import random_corpus


def test_unknown_knobs_fall_back_to_the_reference_path() -> None:
    assert fast.supports(
        get_profile("papineni2002").resolve(
            {"tokenize": "13a", "smoothing": "nltk-method7", "smoothing_context": "last-segment"}
        )
    )
    extended = dataclasses.make_dataclass(
        "Extended", [("new_knob", str, "x")], bases=(Config,), frozen=True
    )
    config = extended()
    assert not fast.supports(config)
    hyps, refs = random_corpus(1)
    expected = list(iter_segment_stats(hyps, refs, config))
    assert corpus_stats(hyps, refs, config) == sum(expected, BleuStats.zero(4))
    for hyp, ref_list, want in zip(hyps, refs, expected):
        assert sentence_stats(hyp, ref_list, config) == want
