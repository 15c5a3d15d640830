"""Scoring many segments' statistics under one config, remembering what repeats.

An order's precision depends only on its sums (m_n, l_n) and the number of zero-match
orders below it (plus the hypothesis length for NLTK method4), and the precision factor
``exp(sum_n w_n ln p_n)`` only on the counts, the totals and the hypothesis length, so across
the segments of a batch (or the calls of ``sentence_bleu``) each distinct one -- and its
logarithm -- is computed once, by the shared scoring code (:func:`~bleu_impl.score.score_parts`
in pieces). NLTK methods 5-7 (whose smoothing reads the whole vector and the segment's own
data) and NLTK 3.2.2's truncation are scored without that shortcut.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from .brevity import BREVITY_PENALTIES
from .knobs import LAST_SEGMENT_METHODS, Config
from .profiles import Profile
from .score import (
    BleuResult,
    ScoreParts,
    check_lengths,
    check_references,
    make_result,
    precision_factor,
    score_parts,
    score_stats,
)
from .smoothing import OrderPrecision, order_precision, order_precisions
from .stats import BleuStats

__all__ = ["SegmentScorer", "scorer_for"]

#: Remembered precisions (and factors) per batch before the memo is cleared.
_MAX_REMEMBERED = 200_000

#: The same for the scorers kept across ``sentence_bleu`` calls (several may be alive).
_MAX_REMEMBERED_KEPT = 20_000

#: (n, m_n, l_n, zero-match orders below n[, hypothesis length]) of one order.
_OrderKey = tuple[int, ...]


class SegmentScorer:
    """Scores one segment's statistics under one profile and config, remembering each
    order's precision and logarithm by what it depends on."""

    def __init__(self, profile: Profile, config: Config, limit: int = _MAX_REMEMBERED) -> None:
        self.profile, self.config, self._limit = profile, config, limit
        self._param = Fraction(config.smoothing_param)
        self._local = (  # float32 arithmetic rounds BP * factor as a whole
            config.smoothing not in LAST_SEGMENT_METHODS
            and config.zero_match != "truncate"
            and config.arithmetic == "float64"
        )
        self._by_length = config.smoothing == "nltk-method4"  # reads the hypothesis length
        self._orders: dict[_OrderKey, tuple[OrderPrecision, int]] = {}
        self._logs: dict[int, float] = {}  # id of a remembered order -> ln of its value
        self._factors: dict[tuple[Any, ...], tuple[float | None, tuple[OrderPrecision, ...], str]]
        self._factors = {}

    def parts(self, stats: BleuStats) -> ScoreParts:
        """``score_parts`` of ``stats`` (raises the emulated failures ``score_stats``
        raises); the precision factor is remembered per (counts, totals, c)."""
        counts, c, r, config = stats.counts, stats.hyp_len, stats.ref_len, self.config
        check_references(stats, config, self.profile)
        if not self._local:
            return score_parts(
                counts, c, r, config, self.profile, lambda: tuple(order_precisions(stats, config))
            )
        check_lengths(c, r, config, self.profile)
        key = (counts, stats.totals, c)
        found = self._factors.get(key)
        if found is None:
            if len(self._factors) > self._limit:
                self._forget()
            found = self._factors[key] = precision_factor(
                counts, c, config, lambda: self._remembered(stats), self._log
            )
        factor, orders, note = found
        bp = BREVITY_PENALTIES[config.brevity_penalty](c, r)
        return ScoreParts(
            0.0 if factor is None else bp * factor, orders, note, bp, config, self.profile
        )

    def score(self, stats: BleuStats) -> float:
        """The segment's score, equal to ``score_stats(stats, ...).score``."""
        if self.config.aggregation == "macro":
            return self.result(stats).score
        return self.parts(stats).final

    def result(self, stats: BleuStats) -> BleuResult:
        """The segment's :class:`BleuResult`, equal to ``score_stats(stats, ...)`` (a mean
        over one segment's parts under macro aggregation: said in the note and signature)."""
        if self.config.aggregation == "macro":
            return score_stats(stats, profile=self.profile, config=self.config)
        return make_result(
            stats.counts, stats.totals, stats.hyp_len, stats.ref_len, self.parts(stats)
        )

    def _remembered(self, stats: BleuStats) -> tuple[OrderPrecision, ...]:
        if len(self._orders) > self._limit:
            self._forget()
        memo = self._orders
        extra = (stats.hyp_len,) if self._by_length else ()
        orders = []
        zero_orders = 0
        for n, (m, l) in enumerate(zip(stats.counts, stats.totals), start=1):
            key = (n, m, l, zero_orders, *extra)
            found = memo.get(key)
            if found is None:
                found = memo[key] = order_precision(
                    n, m, l, zero_orders, self._param, stats, self.config
                )
            orders.append(found[0])
            zero_orders = found[1]
        return tuple(orders)

    def _forget(self) -> None:
        self._orders.clear()
        self._logs.clear()
        self._factors.clear()

    def _log(self, order: OrderPrecision) -> float:
        found = self._logs.get(id(order))
        if found is None:
            assert order.value is not None
            found = self._logs[id(order)] = math.log(order.value)
        return found


_SCORERS: dict[tuple[int, Config], SegmentScorer] = {}
_MAX_SCORERS = 16


def scorer_for(profile: Profile, config: Config) -> SegmentScorer:
    """The scorer of ``profile`` and ``config``, kept across calls (``sentence_bleu`` per
    segment scores under the same config over and over)."""
    try:
        key = (id(profile), config)
        found = _SCORERS.get(key)
    except TypeError:  # an unhashable value in a hand-built Config
        return SegmentScorer(profile, config)
    if found is None or found.profile is not profile:
        if len(_SCORERS) >= _MAX_SCORERS:
            _SCORERS.clear()
        found = _SCORERS[key] = SegmentScorer(profile, config, _MAX_REMEMBERED_KEPT)
    return found
