"""The fast sentence path (one segment: the compiled kernel where it takes the segment, else
pure Python) equals the reference path, errors too."""

from __future__ import annotations

import pytest

from bleu_impl import (
    InputError,
    corpus_stats,
    fast,
    get_profile,
    iter_segment_stats,
    score_stats,
    sentence_bleu,
)
from bleu_impl.knobs import make_config

from ..randomcorpus import random_corpus


def _reference(hyps, refs, config):
    return list(iter_segment_stats(hyps, refs, config))


@pytest.mark.parametrize(
    "knobs",
    [
        {},
        {"tokenize": "13a", "ref_length": "closest-first"},
        {"tokenize": "intl", "lowercase": "unicode", "denominator_floor": "per-segment"},
        {"ref_length": "average", "max_order": 2},
        {"missing_refs": "len-9999"},
        # the kernel's splits, 13a run by it or before it (lowercased between its steps)
        {"tokenize": "none", "split": "perl-unicode"},
        {"split": "perl-bytes", "lowercase": "perl-lc", "lowercase_stage": "after-entities"},
        {"lowercase": "unicode", "lowercase_stage": "after-tokenize"},  # Python splits
    ],
)
def test_sentence_path_equals_reference(knobs) -> None:
    hyps, refs = random_corpus(4, missing="missing_refs" in knobs)
    config = make_config(knobs)
    for hyp, ref_list in zip(hyps, refs):
        assert fast.sentence_stats(hyp, ref_list, config) == corpus_stats([hyp], [ref_list], config)
        expected = next(iter(iter_segment_stats([hyp], [ref_list], config)))
        assert fast.sentence_stats(hyp, ref_list, config) == expected


def test_sentence_bleu_results_unchanged() -> None:
    hyps, refs = random_corpus(9)
    for profile in ("sacrebleu", "nltk", "papineni2002"):
        prof = get_profile(profile)
        config = prof.resolve({}, "sentence")
        for hyp, ref_list in zip(hyps, refs):
            stats = next(iter(iter_segment_stats([hyp], [ref_list], config)))
            want = score_stats(stats, profile=prof, config=config)
            assert sentence_bleu(hyp, ref_list, profile=profile) == want


def test_sentence_path_errors_match() -> None:
    config = make_config({})
    for hyp, refs in [(None, ["a"]), ("a", "a"), ("a", []), ("a", [b"x"]), (["a", 2], ["a"])]:
        with pytest.raises(InputError) as expected:
            _reference([hyp], [refs], config)
        with pytest.raises(InputError) as got:
            fast.sentence_stats(hyp, refs, config)
        assert str(got.value) == str(expected.value)
