"""One corpus under many configs: tokens and clipped n-gram counts computed once, reused.

Attribution and identification score the same small input under hundreds of knob settings.
A config's statistics depend on the tokens (``lowercase``, ``line_prep``, ``tokenize``,
``split``), the clipped matches per order (tokens only: order n's count does not depend on
the highest order), and then cheap per-segment rules (``ref_length``, ``missing_refs``,
``denominator_floor``, the last segment's data). :class:`StatsCache` keeps the first two per
tokenization and applies the rules per config, giving exactly :func:`~bleu_impl.corpus_stats`
(the reference path's per-segment statistics, summed), errors included.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .errors import BleuError
from .inputs import Segment, read_segments
from .knobs import STATS_KNOBS, Config
from .ngrams import finish_segment, needs_last
from .reflength import RefLength
from .stats import BleuStats
from .tokenizers import pipelines

__all__ = ["StatsCache"]

#: The knobs the tokens depend on (what :class:`~bleu_impl.tokenizers.Pipeline` reads).
_TOKEN_KNOBS = ("lowercase", "lowercase_stage", "line_prep", "tokenize", "split", "spm_model")

#: The statistics knobs that matter only through ``needs_last``.
_LAST_KNOBS = ("smoothing", "smoothing_context")

#: Clipped counts are first computed up to this order (more when a config asks).
_FIRST_ORDERS = 5


class _Tokenized:
    """The segments' tokens under one tokenization, and their clipped counts per order
    (``counts[i][n-1]``), up to the first segment whose tokens raise (``error``)."""

    def __init__(self, segments: Sequence[tuple[Segment, list[Segment]]], config: Config) -> None:
        hyp_pipeline, ref_pipeline = pipelines(config)
        line, generic = hyp_pipeline.line, hyp_pipeline.segment
        ref_line, ref_generic = ref_pipeline.line, ref_pipeline.segment
        self.tokens: list[tuple[Sequence[str], list[Sequence[str]]]] = []
        self.error: BleuError | None = None
        try:
            for hyp, refs in segments:  # references first, as the reference path reads them
                ref_tokens: list[Sequence[str]] = [
                    ref_line(r) if type(r) is str else ref_generic(r) for r in refs
                ]
                hyp_tokens: Sequence[str] = line(hyp) if type(hyp) is str else generic(hyp)
                self.tokens.append((hyp_tokens, ref_tokens))
        except BleuError as exc:
            self.error = exc
        self.orders = 0
        self.counts: list[tuple[int, ...]] = []

    def clipped(self, order: int) -> list[tuple[int, ...]]:
        """Clipped matches of orders 1..``order`` (at least) per segment."""
        if order > self.orders:
            from .fast.sentence import clipped_counts  # numpy is imported on first use

            self.orders = max(order, _FIRST_ORDERS)
            self.counts = [
                tuple(clipped_counts(hyp, refs, self.orders)) for hyp, refs in self.tokens
            ]
        return self.counts


def _stats_key(config: Config) -> tuple[Any, ...]:
    """What the statistics depend on: ``STATS_KNOBS``, where ``smoothing`` and
    ``smoothing_context`` matter only as whether the last segment's data are carried."""
    return (
        type(config),
        needs_last(config),
        *(getattr(config, k) for k in STATS_KNOBS if k not in _LAST_KNOBS),
    )


def _per_segment(config: Config) -> bool:
    """Whether the statistics come from per-segment clipped counts of tuple n-grams (not a
    corpus-wide reference pool or joined n-grams, which ``corpus_stats`` handles)."""
    return config.ref_scope == "segment" and config.ngram_join == "none"


class StatsCache:
    """The statistics of one corpus under any number of configs (``stats(config)`` equals
    ``corpus_stats(hypotheses, references, config)``, raising the same errors), with the
    tokens and clipped n-gram counts of each tokenization computed once."""

    def __init__(self, hypotheses: Iterable[Segment], references: Iterable[Any]) -> None:
        self._hypotheses = hypotheses = list(hypotheses)
        self._references = references = list(references)
        self._segments: list[tuple[Segment, list[Segment]]] = []
        self._read_error: BleuError | None = None
        try:
            for segment in read_segments(hypotheses, references):
                self._segments.append(segment)
        except BleuError as exc:
            self._read_error = exc
        self._tokenized: dict[tuple[Any, ...], _Tokenized] = {}
        self._stats: dict[tuple[Any, ...], BleuStats | BleuError] = {}

    def stats(self, config: Config) -> BleuStats:
        """``corpus_stats`` of the corpus under ``config`` (remembered per value of what
        they depend on; an error is remembered and raised again)."""
        key = _stats_key(config)
        found = self._stats.get(key)
        if found is None:
            try:
                found = self._compute(config)
            except BleuError as exc:
                found = exc
            self._stats[key] = found
        if isinstance(found, BleuError):
            raise found
        return found

    def _compute(self, config: Config) -> BleuStats:
        from .fast import supports

        if not supports(config) or not _per_segment(config):  # no shortcut
            from .api import corpus_stats

            return corpus_stats(self._hypotheses, self._references, config)
        key = tuple(getattr(config, k) for k in _TOKEN_KNOBS)
        tokenized = self._tokenized.get(key)
        if tokenized is None:
            tokenized = self._tokenized[key] = _Tokenized(self._segments, config)
        order = config.max_order
        counts, totals = [0] * order, [0] * order
        hyp_len, last = 0, None  # summed as BleuStats.__add__ sums them
        ref_len: RefLength = 0
        segments = tokenized.tokens
        if config.aggregation == "macro":  # every segment kept as a part: summed by +
            return self._macro(tokenized, config)
        for index, ((hyp, refs), clipped) in enumerate(zip(segments, tokenized.clipped(order))):
            one = finish_segment(hyp, refs, clipped[:order], config, index)
            counts = [a + b for a, b in zip(counts, one.counts)]
            totals = [a + b for a, b in zip(totals, one.totals)]
            hyp_len, ref_len = hyp_len + one.hyp_len, ref_len + one.ref_len
            last = one.last if one.last is not None else last
        if tokenized.error is not None:
            raise tokenized.error
        if self._read_error is not None:
            raise self._read_error
        missing = sum(not refs for _, refs in segments)
        return BleuStats(
            tuple(counts), tuple(totals), hyp_len, ref_len, len(segments), last, missing
        )

    def _macro(self, tokenized: _Tokenized, config: Config) -> BleuStats:
        """The statistics with each segment's own as parts (``aggregation="macro"``)."""
        order = config.max_order
        total = BleuStats.zero(order)
        for index, ((hyp, refs), clipped) in enumerate(
            zip(tokenized.tokens, tokenized.clipped(order))
        ):
            total = total + finish_segment(hyp, refs, clipped[:order], config, index)
        if tokenized.error is not None:
            raise tokenized.error
        if self._read_error is not None:
            raise self._read_error
        return total
