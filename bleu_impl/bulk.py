"""Scoring in bulk: the plain API's results, with the work done once and reused.

The plain API (``bleu_impl.__all__``) scores one corpus under one config. A tool that scores
the same data many times -- a knob search over hundreds of settings, every profile on every
system of a corpus report, millions of segments, a corpus split over processes -- uses these
instead; each gives exactly the plain call's result, errors included (tested against it):

* :class:`StatsCache`: one corpus under many configs (tokens and clipped counts computed once
  per tokenization, :mod:`bleu_impl.stats_cache`);
* :class:`SharedCounts`: many corpora that share lines (systems on the same references) under
  many configs; its ``corpus_bleu``, ``corpus_stats`` and ``segment_table`` are the plain
  functions reading through the store;
* :class:`SegmentScorer`, :class:`ScorerPool`, :func:`scoring_key`: many statistics under one
  scoring config, and one scorer per scoring setting (:mod:`bleu_impl.segment_scorer`);
* :func:`score_value`: ``score_stats(...).score`` without assembling the result;
* :func:`macro_result`: ``score_stats`` with a macro mean's parts scored by one scorer;
* :func:`parallel_corpus_stats`: ``corpus_stats`` over N processes (:mod:`bleu_impl.parallel`);
* :func:`counted_by`: which path counts a config's statistics here (the compiled kernel, numpy,
  or the reference path).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .api import corpus_stats, macro_result
from .knobs import Config
from .parallel import parallel_corpus_stats
from .profiles import Profile, get_profile
from .resample import SegmentTable, segment_table
from .score import BleuResult, score_value
from .segment_scorer import ScorerPool, SegmentScorer, scoring_key
from .stats import BleuStats
from .stats_cache import StatsCache

if TYPE_CHECKING:
    from .fast.count import ChunkStats
    from .fast.reuse import Store

__all__ = [
    "ScorerPool",
    "SegmentScorer",
    "SharedCounts",
    "StatsCache",
    "counted_by",
    "macro_result",
    "parallel_corpus_stats",
    "score_value",
    "scoring_key",
]


def counted_by(config: Config) -> str:
    """What counts a corpus's statistics under ``config`` here (``score --verbose``)."""
    from . import fast  # numpy on first use: not for every command that imports bulk

    return fast.counted_by(config)


class SharedCounts:
    """Tokens per line and clipped matches per corpus, remembered across configs.

    A corpus report scores every system (one corpus each, on the same references) with every
    profile, then the settings between them. The store remembers the tokens of each line per
    tokenization and the clipped n-gram matches of each corpus per tokenization, order and
    reference scope; a config then only applies its per-segment rules (reference length,
    totals, the last segment's data). The statistics are the fast path's, identical to the
    reference path's; inputs the store does not take (token sequences, invalid input,
    reference counts the config rejects, joined n-grams of tokens with spaces, configs the
    fast path declines) are counted the usual way, errors included. Memory is bounded by
    ``budget`` (about the bytes of the remembered lines; a corpus that could take half of it
    is tokenized a chunk at a time and only its counts kept; the counts' arrays take at most
    about ``budget`` bytes more; None: ``bleu_impl.fast.reuse.DEFAULT_BUDGET``, ~320 MB).
    numpy is imported on first use.
    """

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget
        self._store: Store | None = None

    def counted(self, hypotheses: Any, references: Any, config: Config) -> ChunkStats | None:
        """The corpus's per-segment counts under ``config`` from the store, or None when the
        store does not take this input (then it is counted the usual way)."""
        from . import fast

        if not fast.supports_corpus(config):
            return None
        if self._store is None:
            from .fast.reuse import DEFAULT_BUDGET, Store

            self._store = Store(DEFAULT_BUDGET if self.budget is None else self.budget)
        return self._store.chunk(hypotheses, references, config)

    def corpus_stats(self, hypotheses: Any, references: Any, config: Config) -> BleuStats:
        """:func:`bleu_impl.corpus_stats`, read through the store."""
        chunk = self.counted(hypotheses, references, config)
        if chunk is None:
            return corpus_stats(hypotheses, references, config)
        macro = config.aggregation == "macro"
        return BleuStats.zero(config.max_order) + chunk.summed(parts=macro)

    def corpus_bleu(
        self,
        hypotheses: Any,
        references: Any,
        *,
        profile: str | Profile = "papineni2002",
        **knobs: Any,
    ) -> BleuResult:
        """:func:`bleu_impl.corpus_bleu`, with the statistics read through the store."""
        prof = profile if isinstance(profile, Profile) else get_profile(profile)
        config = prof.resolve(knobs, "corpus")
        stats = self.corpus_stats(hypotheses, references, config)
        return macro_result(stats, profile=prof, config=config)

    def segment_table(self, hypotheses: Any, references: Any, config: Config) -> SegmentTable:
        """:func:`bleu_impl.segment_table`, read through the store."""
        from .fast.segments import chunk_arrays

        plain = replace(config, aggregation="corpus")
        chunk = self.counted(hypotheses, references, plain)
        if chunk is None:
            return segment_table(hypotheses, references, config)
        return SegmentTable(*chunk_arrays([chunk], plain))
