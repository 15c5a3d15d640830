"""The knob values that model older releases (``ref_scope="non-empty"``, ``add_k_from``)
against other paths of the same computation; the releases themselves are run by the sweep
(docs/versions.md) and by tests/conformance/adapters/test_releases.py."""

from __future__ import annotations

import pytest

import bleu_impl
from bleu_impl import EmulatedFailure, fast, get_profile
from bleu_impl.api import iter_segment_stats
from bleu_impl.stats import BleuStats

HYPS = ["on the mat", "a dog barked at the big moon"]
REFS = [["", "the cat sat on a mat"], ["a dog barked", "", "the dog barked at the moon"]]
CUT = [[r for r in refs if r] for refs in REFS]


@pytest.mark.parametrize("profile", ["sacrebleu-2.0", "sacrebleu-1.5"])
def test_non_empty_scope_is_the_input_without_its_empty_references(profile) -> None:
    config = get_profile(profile).resolve({}, "corpus")
    segments = sum(iter_segment_stats(HYPS, REFS, config), start=BleuStats.zero(4))
    counted = fast.corpus_stats(HYPS, REFS, config)
    assert segments == counted == bleu_impl.corpus_stats(HYPS, CUT, config)
    assert counted != bleu_impl.corpus_stats(HYPS, REFS, profile="sacrebleu")
    sentence = bleu_impl.sentence_bleu(HYPS[1], REFS[1], profile=profile)
    assert sentence.score == bleu_impl.sentence_bleu(HYPS[1], CUT[1], profile=profile).score


def test_a_segment_left_without_references_fails_as_the_releases_did() -> None:
    with pytest.raises(EmulatedFailure) as caught:
        bleu_impl.corpus_bleu(HYPS, [["the cat"], [""]], profile="sacrebleu-2.0")
    assert caught.value.kind == "missing-reference"


def test_add_k_from_the_unigrams_with_k_1_is_add_one() -> None:
    every = {"profile": "papineni2002", "smoothing": "add-k", "smoothing_value": 1}
    ones = bleu_impl.corpus_bleu(HYPS, CUT, profile="papineni2002", smoothing="add-one")
    assert bleu_impl.corpus_bleu(HYPS, CUT, **every, add_k_from=1).score == ones.score
    assert bleu_impl.corpus_bleu(HYPS, CUT, **every).score != ones.score


def test_add_k_from_the_trigrams_leaves_the_lower_orders_alone() -> None:
    knobs = {"profile": "papineni2002", "smoothing": "add-k", "smoothing_value": 2}
    late = bleu_impl.corpus_bleu(HYPS, CUT, **knobs, add_k_from=3)
    plain = bleu_impl.corpus_bleu(HYPS, CUT, profile="papineni2002")
    sums = [(o.matches, o.total) for o in late.orders]
    assert sums == [(m + 2 * (n > 2), l + 2 * (n > 2)) for n, m, l in _sums(plain)]


def _sums(result: bleu_impl.BleuResult) -> list[tuple[int, int, int]]:
    return list(zip(range(1, 5), result.counts, result.totals))
