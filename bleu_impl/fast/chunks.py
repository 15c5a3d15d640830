"""One chunk of segments to per-segment statistics: tokenized and counted on the fast path,
or by the reference code where joined n-grams differ from tuples.

Joined n-grams (``ngram_join``, :mod:`bleu_impl.joined`) equal tuple n-grams when no token
has a space inside. Tokens of raw lines never do (every ``split`` splits on U+0020, and
lowercasing adds no space), so only a token sequence can hold one: a chunk with such a token
under a joined config is counted segment by segment by the reference path
(``ngrams.segment_stats``), which also raises its errors in its own order.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ..inputs import Segment
from ..knobs import Config
from ..ngrams import needs_last, segment_stats
from ..stats import BleuStats
from ..tokenizers import pipelines
from .count import ChunkStats, chunk_stats, text_stats
from .kernel import has_kernel
from .tokens import ChunkTokens, chunk_texts, tokenize_chunk

__all__ = ["count_chunk", "from_rows", "spaced_tokens"]


def spaced_tokens(segments: list[Any]) -> bool:
    """Whether a token sequence among ``segments`` may hold a token with a space inside
    (a sequence other than a list or tuple is not read, so it counts as one)."""
    for seg in segments:
        if type(seg) is str:
            continue
        if not isinstance(seg, list | tuple):
            return True
        if any(type(t) is str and " " in t for t in seg):
            return True
    return False


def from_rows(rows: list[BleuStats], ks: list[int], config: Config) -> ChunkStats:
    """A chunk's :class:`ChunkStats` from its segments' statistics."""
    n = config.max_order
    counts = np.array([r.counts for r in rows], dtype=np.int64).reshape(len(rows), n)
    hyp_len = np.array([r.hyp_len for r in rows], dtype=np.int64)
    last = rows[-1].last if rows else None
    # needs_last: every row carries its last-segment data (as ngrams.segment_stats makes it)
    lasts = [r.last for r in rows if r.last is not None] if needs_last(config) else None
    return ChunkStats(counts, hyp_len, [r.ref_len for r in rows], config, last, ks, lasts)


def _reference_chunk(
    hyps: list[Segment], refss: list[list[Segment]], config: Config, start: int
) -> ChunkStats:
    """The reference path's statistics of the chunk's segments (its order: references'
    tokens, hypothesis tokens, then the segment's counts and rules)."""
    hyp_pipeline, ref_pipeline = pipelines(config)
    plain = replace(config, aggregation="corpus")  # rows without parts
    rows = []
    for offset, (hyp, refs) in enumerate(zip(hyps, refss)):
        ref_tokens = [ref_pipeline.segment(r) for r in refs]
        rows.append(
            segment_stats(hyp_pipeline.segment(hyp), ref_tokens, plain, index=start + offset)
        )
    return from_rows(rows, [len(r) for r in refss], config)


def count_chunk(
    hyps: list[Segment],
    refss: list[list[Segment]],
    config: Config,
    start: int,
    *,
    every_last: bool = False,
) -> ChunkStats:
    """The per-segment statistics of a chunk whose first segment has index ``start``
    (each segment's own references: ``ref_scope="segment"``); ``every_last`` as
    :func:`~bleu_impl.fast.count.chunk_stats`."""
    if config.ngram_join != "none" and (
        spaced_tokens(hyps) or any(spaced_tokens(refs) for refs in refss)
    ):
        return _reference_chunk(hyps, refss, config, start)
    if config.missing_refs == "len-minus-1" and not all(refss):
        return _reference_chunk(hyps, refss, config, start)  # decided by each hypothesis
    if has_kernel() and not needs_last(config):
        texts = chunk_texts(hyps, refss, config, start)
        if texts is not None:  # the kernel splits the texts, or Python does
            lines, ks, pipeline = texts
            counted = text_stats(lines, ks, pipeline)
            if counted is not None:
                return counted
            split = pipeline.split_texts(pipeline.unsplit(lines))
            return chunk_stats(ChunkTokens(split, ks), config)
    tokens = tokenize_chunk(hyps, refss, config, start)
    return chunk_stats(tokens, config, every_last=every_last)
