"""Dask equals one process on every profile, or refuses the profile by name: a shard
scored against its own references only (fast-bleu pools every reference of the corpus) gave
0.0 instead of 0.7812 on a two-line corpus."""

from __future__ import annotations

import pytest

import bleu_impl
from bleu_impl import KnobError, corpus_stats, get_profile, score_stats

from ...bleu_impl.randomcorpus import random_corpus

dask = pytest.importorskip("dask")
db = pytest.importorskip("dask.bag")
from bleu_impl.dask_bag import bag_stats, shards, unshardable  # noqa: E402


@pytest.fixture(scope="module")
def corpora() -> list[tuple[list[str], list[list[str]]]]:
    """One reference per segment (every profile takes it), then up to three."""
    return [random_corpus(7, segments=120, max_refs=1), random_corpus(8, segments=120, max_refs=3)]


def _on_dask(hyps, refs, config):
    bag = db.from_sequence(list(shards(hyps, refs, size=25)), npartitions=4)
    with dask.config.set(scheduler="synchronous"):
        return bag_stats(bag, config)


@pytest.mark.parametrize("profile", sorted(bleu_impl.PROFILES))
def test_dask_equals_one_process_or_refuses(corpora, profile):
    config = get_profile(profile).resolve({}, "corpus")
    for hyps, refs in corpora:
        try:
            one = corpus_stats(hyps, refs, config)
        except bleu_impl.InputError:  # e.g. one reference only: not this corpus
            continue
        if unshardable(config) is not None:
            with pytest.raises(KnobError, match="cannot shard these statistics over Dask"):
                _on_dask(hyps, refs, config)
            continue
        many = _on_dask(hyps, refs, config)
        assert many == one
        assert score_stats(many, config=config).score == score_stats(one, config=config).score


def test_fast_bleu_is_refused_not_scored_per_shard():
    config = get_profile("fast-bleu").resolve({}, "corpus")
    hyps = ["the cat sat on the mat", "a dog ran in the park"]
    refs = [["a dog ran in the park"], ["the cat sat on the mat"]]
    with pytest.raises(KnobError, match="ref_scope='corpus'"):
        _on_dask(hyps, refs, config)
