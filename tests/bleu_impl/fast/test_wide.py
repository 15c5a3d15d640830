"""Segments with too many distinct tokens for the packed keys: counted order by order
(bleu_impl/fast/wide.py), equal to the reference path's clipped matches."""

from __future__ import annotations

import random

import pytest

from bleu_impl import BleuStats, fast, iter_segment_stats
from bleu_impl.fast import count
from bleu_impl.fast.count import chunk_stats
from bleu_impl.fast.tokens import tokenize_chunk
from bleu_impl.fast.wide import wide_counts
from bleu_impl.knobs import make_config
from bleu_impl.ngrams import clipped_matches


@pytest.mark.parametrize("seed", range(40))
def test_wide_counts_equal_the_clipped_matches(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        vocabulary = rng.choice([1, 2, 3, 5, 40])
        hyp = [str(rng.randrange(vocabulary)) for _ in range(rng.randint(0, 14))]
        refs = [
            [str(rng.randrange(vocabulary)) for _ in range(rng.randint(0, 14))]
            for _ in range(rng.randint(0, 4))
        ]
        order = rng.randint(1, 8)
        want = tuple(clipped_matches(hyp, refs, n)[0] for n in range(1, order + 1))
        assert wide_counts(hyp, refs, order) == want


@pytest.mark.parametrize("max_order", [9, 16])
def test_segments_too_wide_for_one_key_are_counted_exactly(
    max_order: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 9 or 16 orders a 63-bit key leaves about 6 or 3 bits per token: segments with
    more distinct tokens go the wide way, the others the packed way, in one chunk."""
    rng = random.Random(max_order)
    words = [f"w{i}" for i in range(300)]
    hyps, refs = [], []
    for _ in range(60):
        size = rng.choice([3, 8, 200])
        hyp = " ".join(rng.choice(words[:size]) for _ in range(size))
        refs.append([" ".join(rng.sample(hyp.split(), len(hyp.split())))] * rng.randint(1, 3))
        hyps.append(hyp)
    config = make_config({"max_order": max_order})
    wide: list[int] = []

    def counting(hyp: list[str], refs: list[list[str]], order: int) -> tuple[int, ...]:
        wide.append(len(hyp))
        return wide_counts(hyp, refs, order)

    monkeypatch.setattr(count, "wide_counts", counting)
    monkeypatch.setattr(count, "kernel_counts", lambda *_: None)  # the numpy path's case
    chunk = tokenize_chunk(hyps, refs, config, 0)
    counted = chunk_stats(chunk, config)
    assert wide and len(wide) < len(hyps)  # both ways were taken
    expected = list(iter_segment_stats(hyps, refs, config))
    assert [tuple(row) for row in counted.counts.tolist()] == [s.counts for s in expected]
    total = sum(expected, BleuStats.zero(max_order))
    assert fast.corpus_stats(hyps, refs, config, limit=40) == total
