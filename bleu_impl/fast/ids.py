"""Segment-local token ids: equal tokens of a segment share an id, different tokens differ.

A segment's hypothesis and references together hold ``D`` distinct tokens; each gets an id in
``1..D`` (0 is kept for "past the end of the sentence"), so ids stay small whatever the
vocabulary size and the n-gram keys of :mod:`bleu_impl.fast.count` fit in 63 bits.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray

from .tokens import ChunkTokens

__all__ = ["Vocabulary", "dense_local_ids", "local_ids"]


def local_ids(chunk: ChunkTokens, skip: set[int]) -> list[int]:
    """Segment-local token ids 1..L, flattened, for every segment not in ``skip``.

    Within a segment (hypothesis and references together) equal tokens share an id and
    different tokens get different ids: the id is the 1-based position of the token's last
    occurrence in the segment.
    """
    ids: list[int] = []
    extend = ids.extend
    toks = chunk.toks
    if chunk.uniform == 1 and not skip:
        it = iter(toks)
        for h, r in zip(it, it):
            both = h + r
            extend(map(dict(zip(both, range(1, len(both) + 1))).__getitem__, both))
        return ids
    for i in range(len(chunk)):
        if i in skip:
            continue
        h, rs = chunk.segment(i)
        both = list(h)
        for r in rs:
            both += r
        extend(map(dict(zip(both, range(1, len(both) + 1))).__getitem__, both))
    return ids


class Vocabulary(dict[str, int]):
    """token -> id, numbering new tokens 0, 1, 2... on first lookup."""

    def __missing__(self, token: str) -> int:
        value = self[token] = len(self)
        return value


def dense_local_ids(
    chunk: ChunkTokens, seg_total: NDArray[np.int64], seg_start: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """Segment-local ids (1..distinct tokens of the segment) of every token, and the number
    of distinct tokens per segment; None if the sort key would not fit in 63 bits.

    Tokens get chunk-wide ids from a dict; one sort of ``(segment, id, position)`` then
    ranks each segment's distinct ids, and the position in the key puts the rank back.
    """
    total = int(seg_total.sum())
    segs = len(seg_total)
    vocab = Vocabulary()
    ids = np.fromiter(
        map(vocab.__getitem__, itertools.chain.from_iterable(chunk.toks)),
        dtype=np.int64,
        count=total,
    )
    if segs == 1:  # chunk-wide ids are that segment's ids: no sort (a 100 MB line's chunk)
        ids += 1
        return ids, np.array([len(vocab)], dtype=np.int64)
    id_bits = max(1, (len(vocab) - 1).bit_length())
    pos_bits = max(1, int(seg_total.max(initial=1)).bit_length())
    seg_bits = max(1, (segs - 1).bit_length())
    if seg_bits + id_bits + pos_bits > 63:
        return None
    seg_of = np.repeat(np.arange(segs, dtype=np.int64), seg_total)
    begin = np.repeat(seg_start, seg_total)  # the segment's first flat index, per token
    key = (seg_of << (id_bits + pos_bits)) | (ids << pos_bits)
    key |= np.arange(total, dtype=np.int64) - begin
    del ids, seg_of
    key.sort()  # segments keep their blocks: sizes and order are unchanged
    pair = key >> pos_bits
    new = np.empty(total, dtype=bool)
    new[:1] = True
    np.not_equal(pair[1:], pair[:-1], out=new[1:])
    del pair
    rank = np.cumsum(new, dtype=np.int64)
    del new
    local = np.empty(total, dtype=np.int64)
    local[begin + (key & ((1 << pos_bits) - 1))] = rank - rank[begin] + 1
    distinct = np.zeros(segs, dtype=np.int64)
    full = seg_total > 0
    first, last = seg_start[full], (seg_start + seg_total - 1)[full]
    distinct[full] = rank[last] - rank[first] + 1
    return local, distinct
