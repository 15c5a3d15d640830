"""Sums by integer limbs equal ``math.fsum`` (the exact sum rounded once), bit for bit, and
the bootstrap macro means built on them equal the ``fsum`` definition."""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_impl.exact_sums import limbs_of
from bleu_impl.resample import bootstrap_macro_means, bootstrap_macro_scores, resample_indices

FLOATS = st.one_of(
    st.floats(min_value=0.0, max_value=1.0, allow_subnormal=True),
    st.sampled_from([0.0, 1.0, 5e-324, 2.2250738585072014e-308, 0.1, 1 - 2**-53, 1e-300]),
    st.floats(min_value=0.0, max_value=1e6),
)


def _fsum_means(scores: list[float], samples: int, seed: int) -> list[float]:
    values = np.asarray(scores, dtype=np.float64)
    return [
        math.fsum(row) / len(values)
        for idx in resample_indices(len(values), samples, seed)
        for row in values[idx].tolist()
    ]


def _bits(values: list[float]) -> list[int]:
    return [int(np.float64(v).view(np.int64)) for v in values]


@settings(max_examples=300, deadline=None)
@given(st.lists(FLOATS, min_size=1, max_size=40), st.data())
def test_weighted_sums_equal_fsum(values, data) -> None:
    rows = data.draw(
        st.lists(
            st.lists(st.integers(0, 9), min_size=len(values), max_size=len(values)), min_size=1
        )
    )
    total = max(sum(r) for r in rows)
    limbs = limbs_of(np.asarray(values), total)
    assert limbs is not None
    got = limbs.sums(np.asarray(rows, dtype=np.float64))
    want = [math.fsum(v for v, w in zip(values, row) for _ in range(w)) for row in rows]
    assert _bits(got) == _bits(want)


@settings(max_examples=100, deadline=None)
@given(st.lists(FLOATS, min_size=1, max_size=60), st.integers(0, 2**32), st.integers(1, 50))
def test_bootstrap_macro_means_equal_the_fsum_definition(scores, seed, samples) -> None:
    got = bootstrap_macro_scores(scores, samples=samples, seed=seed)
    assert _bits(got) == _bits(_fsum_means(scores, samples, seed))


def test_many_lists_share_the_draws_and_odd_values_take_fsum() -> None:
    rng = random.Random(4)
    lists = [
        [rng.random() for _ in range(300)],
        [rng.choice([0.0, 1e-300, rng.random()]) for _ in range(300)],
        [-rng.random() for _ in range(300)],  # negative: math.fsum
        [math.inf] + [0.5] * 299,  # not finite: math.fsum
        [0.0] * 300,
    ]
    got = bootstrap_macro_means(lists, samples=40, seed=9)
    for scores, means in zip(lists, got):
        assert _bits(means) == _bits(_fsum_means(scores, 40, 9))
    assert limbs_of(np.asarray(lists[2]), 300) is None
    assert limbs_of(np.asarray(lists[3]), 300) is None
    assert bootstrap_macro_means([], samples=3) == []


def test_a_large_corpus_and_many_resamples() -> None:
    rng = random.Random(8)
    scores = [rng.random() ** 3 for _ in range(5000)]
    assert _bits(bootstrap_macro_scores(scores, samples=500, seed=1)) == _bits(
        _fsum_means(scores, 500, 1)
    )
