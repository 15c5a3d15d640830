"""Corpus statistics on the fast path: read a chunk, tokenize it, count it, add the sums."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ..inputs import CHUNK_SENTENCES, read_chunks
from ..knobs import Config
from ..stats import BleuStats
from .count import chunk_stats
from .tokens import tokenize_chunk

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
    chunk of about ``limit`` sentences at a time). Errors name segments from ``first_index``
    on (a worker counting one piece of a larger corpus)."""
    total = BleuStats.zero(config.max_order)
    with gc_paused():
        for start, hyps, refss in read_chunks(hypotheses, references, limit):
            tokens = tokenize_chunk(hyps, refss, config, first_index + start)
            del hyps, refss
            total = total + chunk_stats(tokens, config).summed()
            del tokens
    return total
