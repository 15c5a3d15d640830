"""Corpus statistics on the fast path: read a chunk, tokenize it, count it, add the sums
(a corpus-wide reference pool: the whole corpus as one chunk, :mod:`.ref_pool_counts`)."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ..inputs import CHUNK_SENTENCES, CUT_SCOPES, cut_references, read_chunks
from ..knobs import Config
from ..ngrams import needs_last
from ..stats import BleuStats
from .chunks import count_chunk
from .ref_pool_counts import pooled_chunk

__all__ = ["corpus_stats", "gc_paused"]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC: the fast path allocates millions of acyclic lists and strs,
    and generation scans over them would otherwise cost as much as the counting."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def corpus_stats(
    hypotheses: Iterable[Any],
    references: Iterable[Any],
    config: Config,
    *,
    limit: int = CHUNK_SENTENCES,
    first_index: int = 0,
) -> BleuStats:
    """Corpus statistics identical to summing ``iter_segment_stats`` (bounded memory: one
    chunk of about ``limit`` sentences at a time, except with a corpus-wide reference pool,
    which needs every reference first). Errors name segments from ``first_index`` on (a
    worker counting one piece of a larger corpus). Under ``aggregation="macro"`` every
    segment's statistics are kept as parts, as the reference path keeps them."""
    macro = config.aggregation == "macro"
    every_last = macro and needs_last(config)
    if config.ref_scope in CUT_SCOPES:
        hypotheses, references = cut_references(hypotheses, references, config.ref_scope)
    with gc_paused():
        if config.ref_scope == "corpus":
            chunk = pooled_chunk(hypotheses, references, config, every_last=every_last)
            return chunk.summed(parts=macro)
        total = BleuStats.zero(config.max_order)
        for start, hyps, refss in read_chunks(hypotheses, references, limit):
            chunk = count_chunk(hyps, refss, config, first_index + start, every_last=every_last)
            del hyps, refss
            total = total + chunk.summed(parts=macro)
            del chunk
    return total
