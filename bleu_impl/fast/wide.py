"""Clipped matches of a segment too wide for the packed keys of :mod:`~bleu_impl.fast.count`.

A segment of millions of tokens with a large vocabulary (a whole document on one line) has
too many distinct tokens for ``order`` ids to share one 63-bit key. Here n-grams are
numbered order by order instead: the id of the n-gram at position i is the rank of (id of
the (n-1)-gram at i, id of the token at i + n - 1), so ids stay below the number of
positions for every order. Counts per id are ``bincount`` per sentence, and
``m_n = sum_g min(hyp(g), max_r ref_r(g))`` as in :mod:`bleu_impl.ngrams`. Memory is a few
integer arrays of the segment's size, where the reference path's Counter of tuples held
every n-gram as objects.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from .ids import Vocabulary

__all__ = ["wide_counts"]

#: Token and n-gram ids and ranks (int32 below 2**31 positions, else int64).
_Ids = NDArray[np.int32 | np.int64]


def wide_counts(hyp: Sequence[str], refs: Sequence[Sequence[str]], order: int) -> tuple[int, ...]:
    """Clipped matches of orders 1..``order`` of ``hyp`` against ``refs``, each equal to
    ``ngrams.clipped_matches(hyp, refs, n)[0]``."""
    sizes = [len(hyp), *map(len, refs)]
    total = sum(sizes)
    vocab = Vocabulary()
    small = np.int32 if total < 2**31 else np.int64  # ids and ranks: half the memory
    ids: _Ids = np.fromiter(
        map(vocab.__getitem__, itertools.chain(hyp, *refs)), dtype=small, count=total
    )
    starts = np.cumsum([0, *sizes[:-1]]).tolist()
    base = max(1, len(vocab))
    gram = ids  # id of the n-gram at each position (past a sentence end: never read)
    counts: list[int] = []
    for n in range(1, order + 1):
        if n > 1:
            if len(gram) < 2:
                counts.append(0)
                continue
            pair = gram[:-1].astype(np.int64)
            pair *= base  # < positions x distinct tokens: fits in int64
            pair += ids[n - 1 :]
            gram = _ranks(pair, small)
            del pair
        distinct = int(gram.max()) + 1 if len(gram) else 1
        spans = [(s, s + size - n + 1) for s, size in zip(starts, sizes)]
        hyp_c = _counts(gram, spans[0], distinct)
        ref_max = np.zeros(distinct, dtype=np.int64)
        for span in spans[1:]:
            np.maximum(ref_max, _counts(gram, span, distinct), out=ref_max)
        counts.append(int(np.minimum(hyp_c, ref_max).sum()))
    return tuple(counts)


def _ranks(values: NDArray[np.int64], dtype: type[np.int32 | np.int64]) -> _Ids:
    """The rank of every value among the distinct ``values`` (0, 1, ...), as ``dtype``
    (``np.unique(values, return_inverse=True)[1]`` with fewer arrays alive at once)."""
    order = np.argsort(values)
    ordered = values[order]
    new = np.empty(len(values), dtype=bool)
    new[:1] = False
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    del ordered
    ranks: _Ids = np.empty(len(values), dtype=dtype)
    ranks[order] = np.cumsum(new, dtype=dtype)
    return ranks


def _counts(gram: _Ids, span: tuple[int, int], distinct: int) -> NDArray[np.int64]:
    """How often each n-gram id occurs in ``gram[start:end]`` (none if the span is empty)."""
    start, end = span
    if end <= start:
        return np.zeros(distinct, dtype=np.int64)
    return np.bincount(gram[start:end], minlength=distinct)
