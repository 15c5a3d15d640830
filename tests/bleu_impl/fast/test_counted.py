"""Remembered counts: stored narrow and read back equal, bounded by bytes (an array filed
under several keys counted once), and a corpus counted once for ``line_prep`` none and
rstrip only when no line has trailing whitespace."""

from __future__ import annotations

import numpy as np
import pytest

from bleu_impl import corpus_stats, make_config
from bleu_impl.bulk import SharedCounts
from bleu_impl.fast.counted import Counted, CountsCache, compact


def _counted(rows: int, fill: int = 1) -> Counted:
    return Counted.of(np.full((rows, 4), fill, dtype=np.int64), np.full(rows, fill), False)


def test_compact_keeps_every_value() -> None:
    small = np.array([0, 5, 2**31 - 1, -(2**31)], dtype=np.int64)
    large = np.array([0, 2**31], dtype=np.int64)
    assert compact(small).dtype == np.int32 and (compact(small) == small).all()
    assert compact(large).dtype == np.int64 and (compact(large) == large).all()
    counted = Counted.of(large.reshape(1, 2), small, True)
    assert counted.counts.dtype == counted.lens.dtype == np.int64
    assert counted.counts.tolist() == [[0, 2**31]] and counted.lens.tolist() == small.tolist()


def test_cache_is_bounded_by_bytes_least_recent_first() -> None:
    one = _counted(10).nbytes
    cache = CountsCache(3 * one)
    items = {k: _counted(10, k) for k in range(4)}
    for k in range(3):
        cache.put(("corpus", k), items[k])
    assert cache.get(("corpus", 0)) is items[0]  # now the most recent
    cache.put(("corpus", 3), items[3])
    assert cache.get(("corpus", 1)) is None
    assert [cache.get(("corpus", k)) is items[k] for k in (0, 2, 3)] == [True] * 3
    assert cache.bytes == 3 * one


def test_an_array_under_several_keys_is_counted_once() -> None:
    counted = _counted(10)
    cache = CountsCache(counted.nbytes)
    cache.put(("corpus", 0), counted)
    cache.put(("content", b"x"), counted)
    assert len(cache) == 2 and cache.bytes == counted.nbytes
    cache.forget("content")
    assert len(cache) == 1 and cache.bytes == counted.nbytes
    cache.forget("corpus")
    assert len(cache) == 0 and cache.bytes == 0


def test_the_last_put_is_kept_whatever_its_size() -> None:
    cache = CountsCache(1)
    big = _counted(100)
    cache.put(("corpus", 0), _counted(1))
    cache.put(("corpus", 1), big)
    assert cache.get(("corpus", 1)) is big and len(cache) == 1


HYPS = ["Im Jahr 2023. ", "Das ist gut.", "Am 1. 2. 2023. "]
REFS = [["Im Jahr 2023."], ["Das ist gut ."], ["Am 1. 2. 2023."]]


@pytest.mark.parametrize("budget", [10**9, 10])  # lines remembered / streamed
@pytest.mark.parametrize("trailing", [True, False])
def test_rstrip_and_none_on_every_corpus(budget: int, trailing: bool) -> None:
    hyps = HYPS if trailing else [h.rstrip() for h in HYPS]
    store = SharedCounts(budget)
    for prep in ("none", "rstrip", "none"):
        config = make_config({"tokenize": "intl", "line_prep": prep})
        assert store.corpus_stats(hyps, REFS, config) == corpus_stats(hyps, REFS, config)
        assert store.counted(hyps, REFS, config) is not None  # (not counted the usual way)
    none = make_config({"tokenize": "intl", "line_prep": "none"})
    rstrip = make_config({"tokenize": "intl", "line_prep": "rstrip"})
    differ = corpus_stats(hyps, REFS, none) != corpus_stats(hyps, REFS, rstrip)
    assert differ == trailing  # the corpus tells the two apart only with trailing spaces
