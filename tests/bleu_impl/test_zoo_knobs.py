"""The zoo's knobs: validated, in the signature, declined by the fast path where its
statistics cannot express them, and consistent across paths and groupings.

The numbers these knobs produce are checked against the real tools elsewhere
(``test_differential_zoo.py`` live; ``tests/conformance/zoo/test_zoo_fixtures.py`` against
recorded outputs and the tools' own test suites)."""

from __future__ import annotations

import random

import pytest

import bleu_impl
from bleu_impl import BleuStats, EmulatedFailure, KnobError, fast, make_config

from .randomcorpus import corpus

NEW = {
    "aggregation": "macro",
    "ref_scope": "corpus",
    "ngram_join": "space-resplit",
    "brevity_penalty": "plus-one",
    "arithmetic": "float32",
    "denominator_floor": "corpus",
    "smoothing": "coco-eps",
}


@pytest.mark.parametrize(("knob", "value"), sorted(NEW.items()))
def test_knobs_are_validated_documented_and_signed(knob: str, value: str) -> None:
    config = make_config({knob: value})
    assert getattr(config, knob) == value
    assert knob in bleu_impl.DOCS
    with pytest.raises(KnobError):
        make_config({knob: "no-such-value"})
    assert f":{value}|" in bleu_impl.signature("papineni2002", config)


@pytest.mark.parametrize(
    "knobs",
    [{"aggregation": "macro"}, {"ref_scope": "corpus"}, {"ngram_join": "space"}],
)
def test_fast_path_declines_what_its_statistics_cannot_hold(knobs: dict) -> None:
    assert not fast.supports(make_config(knobs))


@pytest.mark.parametrize("knobs", [{"denominator_floor": "corpus"}, {"arithmetic": "float32"}])
def test_fast_path_keeps_scoring_only_knobs(knobs: dict) -> None:
    assert fast.supports(make_config(knobs))


@pytest.mark.parametrize("seed", range(20))
def test_macro_statistics_merge_in_any_grouping(seed: int) -> None:
    rng = random.Random(seed)
    hyps, refs = corpus(rng, rng.randint(2, 6))
    config = make_config({"aggregation": "macro", "smoothing": "add-k"})
    whole = bleu_impl.corpus_stats(hyps, refs, config)
    cut = rng.randint(1, len(hyps) - 1)
    halves = bleu_impl.corpus_stats(hyps[:cut], refs[:cut], config) + bleu_impl.corpus_stats(
        hyps[cut:], refs[cut:], config
    )
    assert halves == whole and len(whole.parts) == len(hyps)
    one = bleu_impl.score_stats(whole, config=config).score
    assert one == bleu_impl.score_stats(halves, config=config).score


def test_macro_of_one_segment_is_its_corpus_score() -> None:
    hyps, refs = corpus(random.Random(7), 1)
    corpus_score = bleu_impl.corpus_bleu(hyps, refs, smoothing="add-k").score
    assert bleu_impl.corpus_bleu(hyps, refs, smoothing="add-k", aggregation="macro").score == (
        corpus_score
    )


def test_macro_of_no_segment_is_an_emulated_failure() -> None:
    with pytest.raises(EmulatedFailure) as info:
        bleu_impl.score_stats(BleuStats.zero(4), aggregation="macro")
    assert info.value.kind == "empty-corpus"


def test_joined_ngrams_equal_tuples_without_spaces_in_tokens() -> None:
    rng = random.Random(3)
    for _ in range(20):
        hyps, refs = corpus(rng, 3)
        plain = bleu_impl.corpus_bleu(hyps, refs)
        for join in ("space", "space-resplit"):
            assert bleu_impl.corpus_bleu(hyps, refs, ngram_join=join).counts == plain.counts


def test_a_tool_never_gets_a_setting_it_has_no_option_for() -> None:
    ignite = bleu_impl.get_profile("ignite")
    ignite.resolve({"smoothing": "add-k", "denominator_floor": "none"})  # smooth2
    with pytest.raises(KnobError):  # smooth1 always floors the totals
        ignite.resolve({"smoothing": "floor", "denominator_floor": "none"})
    with pytest.raises(KnobError):
        bleu_impl.get_profile("coco").resolve({"tokenize": "13a"})
