"""Many corpora that share lines, scored under many configs: the work done once.

A corpus report scores every system (one corpus each, on the same references) with every
profile, then the settings between them. :class:`SharedCounts` remembers the tokens of each
line per tokenization and the clipped n-gram matches of each corpus per tokenization, order
and reference scope; a config then only applies its per-segment rules (reference length,
totals, the last segment's data). Inside ``with sharing(store):``
:func:`~bleu_impl.corpus_stats` (so :func:`~bleu_impl.corpus_bleu`) and
:func:`~bleu_impl.segment_table` read through the
store, so an implementation asked through its adapter shares the work too. The statistics
are the fast path's, identical to the reference path's; inputs the store does not take
(token sequences, invalid input, reference counts the config rejects, joined n-grams of
tokens with spaces) are counted the usual way, errors included. Memory is bounded by
``budget`` (about the bytes of the remembered lines; a corpus that could take half of it is
tokenized a chunk at a time and only its counts kept; the counts' arrays take at most about
``budget`` bytes more).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from .knobs import Config
from .stats import BleuStats

if TYPE_CHECKING:
    from .fast.segments import SegmentArrays

__all__ = ["SharedCounts", "active_counts", "sharing"]

_ACTIVE: ContextVar[SharedCounts | None] = ContextVar("bleu_impl_shared_counts", default=None)


class SharedCounts:
    """Tokens per line and clipped matches per corpus, remembered across configs (numpy
    is imported on first use)."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget  # None: ``bleu_impl.fast.reuse.DEFAULT_BUDGET`` (~320 MB at most)
        self._store: Any = None

    def _impl(self) -> Any:
        if self._store is None:
            from .fast.reuse import DEFAULT_BUDGET, Store

            self._store = Store(DEFAULT_BUDGET if self.budget is None else self.budget)
        return self._store

    def stats(self, hypotheses: Any, references: Any, config: Config) -> BleuStats | None:
        """``corpus_stats(hypotheses, references, config)``, or None when the store does
        not take this input (count it the usual way)."""
        chunk = self._impl().chunk(hypotheses, references, config)
        if chunk is None:
            return None
        macro = config.aggregation == "macro"
        return BleuStats.zero(config.max_order) + chunk.summed(parts=macro)

    def arrays(self, hypotheses: Any, references: Any, config: Config) -> SegmentArrays | None:
        """``fast.segments.segment_arrays(hypotheses, references, config)`` (the rows of
        :func:`~bleu_impl.segment_table`), or None (as :meth:`stats`)."""
        from dataclasses import replace

        from .fast.segments import chunk_arrays

        plain = replace(config, aggregation="corpus")
        chunk = self._impl().chunk(hypotheses, references, plain)
        return None if chunk is None else chunk_arrays([chunk], plain)


@contextmanager
def sharing(store: SharedCounts) -> Iterator[SharedCounts]:
    """Within the block, ``corpus_stats`` and ``segment_table`` read through ``store``."""
    token = _ACTIVE.set(store)
    try:
        yield store
    finally:
        _ACTIVE.reset(token)


def active_counts() -> SharedCounts | None:
    """The store of the enclosing :func:`sharing` block, if any."""
    return _ACTIVE.get()
