"""Per-segment statistics on the fast path, as integer arrays (rows = segments).

The same counting as :func:`bleu_impl.fast.corpus_stats` (tokenize a chunk, count it), but
the chunk's per-segment rows are kept instead of summed: what resampling
(:mod:`bleu_impl.resample`) needs. Memory is linear in the number of segments
(``2 * max_order + 2`` integers per segment).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import CHUNK_SENTENCES, CUT_SCOPES, cut_references, read_chunks
from ..knobs import Config
from ..ngrams import needs_last
from ..reflength import RefLength
from ..stats import LastSegment
from .chunks import count_chunk
from .count import ChunkStats
from .ref_pool_counts import pooled_chunk

__all__ = ["SegmentArrays", "chunk_arrays", "numerators", "segment_arrays"]

#: counts (S x N), totals (S x N), hypothesis lengths (S), reference-length numerators (S),
#: their common denominator, and each segment's last-segment data (NLTK methods 5-7) or None.
SegmentArrays = tuple[
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int64],
    int,
    "tuple[LastSegment, ...] | None",
]


def numerators(values: Sequence[RefLength]) -> tuple[NDArray[np.int64], int]:
    """Reference lengths (ints or Fractions) as numerators over one common denominator."""
    den = 1
    for v in values:
        if type(v) is not int:
            den = lcm(den, Fraction(v).denominator)
    if den == 1:
        return np.array([int(v) for v in values], dtype=np.int64), 1
    return np.array([int(Fraction(v) * den) for v in values], dtype=np.int64), den


def segment_arrays(
    hypotheses: Iterable[Any], references: Iterable[Any], config: Config
) -> SegmentArrays:
    """Every segment's statistics under ``config`` (errors as :func:`corpus_stats` raises
    them, naming the segment)."""
    return chunk_arrays(_chunks(hypotheses, references, config), config)


def chunk_arrays(chunks: Iterable[ChunkStats], config: Config) -> SegmentArrays:
    """The rows of consecutive chunks (counted with every segment's last data) as arrays."""
    counts: list[NDArray[np.int64]] = []
    totals: list[NDArray[np.int64]] = []
    hyp_lens: list[NDArray[np.int64]] = []
    ref_lens: list[RefLength] = []
    lasts: list[LastSegment] | None = [] if needs_last(config) else None
    for chunk in chunks:
        counts.append(chunk.counts)
        totals.append(chunk.totals())
        hyp_lens.append(chunk.hyp_len)
        ref = chunk.ref_len
        ref_lens.extend(ref.tolist() if isinstance(ref, np.ndarray) else ref)
        if lasts is not None:
            assert chunk.lasts is not None
            lasts.extend(chunk.lasts)
    order = config.max_order
    if not counts:
        empty = np.zeros((0, order), dtype=np.int64)
        return empty, empty.copy(), np.zeros(0, np.int64), np.zeros(0, np.int64), 1, None
    ref_num, den = numerators(ref_lens)
    return (
        np.concatenate(counts).astype(np.int64),
        np.concatenate(totals).astype(np.int64),
        np.concatenate(hyp_lens).astype(np.int64),
        ref_num,
        den,
        None if lasts is None else tuple(lasts),
    )


def _chunks(
    hypotheses: Iterable[Any], references: Iterable[Any], config: Config
) -> Iterator[ChunkStats]:
    """The corpus's chunks counted with every segment's last-segment data (a corpus-wide
    reference pool: one chunk)."""
    if config.ref_scope == "corpus":
        yield pooled_chunk(hypotheses, references, config, every_last=True)
        return
    if config.ref_scope in CUT_SCOPES:
        hypotheses, references = cut_references(hypotheses, references, config.ref_scope)
    for start, hyps, refss in read_chunks(hypotheses, references, CHUNK_SENTENCES):
        yield count_chunk(hyps, refss, config, start, every_last=True)
