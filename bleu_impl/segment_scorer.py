"""Scoring many segments' statistics under one config, remembering what repeats.

An order's precision depends only on its sums (m_n, l_n) and the number of zero-match
orders below it (plus the hypothesis length for NLTK method4), and the precision factor
``exp(sum_n w_n ln p_n)`` only on the counts, the totals and the hypothesis length, so across
the segments of a batch (or the calls of ``sentence_bleu``) each distinct one -- and its
logarithm -- is computed once, by the shared scoring code (:func:`~bleu_impl.score.score_parts`
in pieces). NLTK methods 5-7 (whose smoothing reads the whole vector and the segment's own
data) and NLTK 3.2.2's truncation are scored without that shortcut. Under macro aggregation
a score is the mean of its parts' scores (:func:`~bleu_impl.macro.macro_mean`), each
part scored by a scorer of the same knobs with ``aggregation="corpus"``.

:class:`ScorerPool` serves a search over many configs: one scorer per scoring setting
(:func:`scoring_key`: configs that differ only in knobs the statistics alone depend on share
one), and the remembered precisions shared by every scorer that computes them alike
(:func:`precision_key`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from .brevity import penalty
from .knobs import LAST_SEGMENT_METHODS, STATS_ONLY_KNOBS, Config, knobs_at
from .profiles import Profile
from .reflength import RefLength
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
from .stats import BleuStats, counted_stats

__all__ = [
    "Row",
    "ScorerPool",
    "SegmentScorer",
    "factor_key",
    "precision_key",
    "scorer_for",
    "scoring_key",
]

#: Remembered precisions (and factors) per batch before the memo is cleared.
_MAX_REMEMBERED = 200_000

#: The same for the scorers kept across ``sentence_bleu`` calls (several may be alive).
_MAX_REMEMBERED_KEPT = 20_000

#: (n, m_n, l_n, zero-match orders below n[, hypothesis length]) of one order.
_OrderKey = tuple[int, ...]

_NOT_SCORED = frozenset(STATS_ONLY_KNOBS)

#: Knobs whose value ``"error"`` makes scoring raise an emulated failure
#: (``check_references``, ``check_lengths``).
_FAILING = ("no_refs", "empty_ref", "empty_hyp", "bp_underflow")

#: One segment's statistics as :meth:`SegmentScorer.scores` reads them.
Row = tuple[tuple[int, ...], tuple[int, ...], int, RefLength, int]


def scoring_key(config: Config) -> tuple[Any, ...]:
    """What scoring reads of ``config``: every knob but ``STATS_ONLY_KNOBS`` (equal
    statistics under configs with equal keys score the same)."""
    return (type(config), *(v for k, v in vars(config).items() if k not in _NOT_SCORED))


#: The knobs :func:`~bleu_impl.smoothing.order_precision` may read, and those
#: :func:`~bleu_impl.score.precision_factor` reads besides (their declared stages).
_PRECISION_KNOBS = knobs_at("precision")
_FACTOR_KNOBS = knobs_at("precision", "factor")


def precision_key(config: Config) -> tuple[Any, ...]:
    """What :func:`~bleu_impl.smoothing.order_precision` reads of ``config`` (beside an
    order's sums, the zero-match orders below it and, for NLTK method4, the hypothesis
    length): configs with equal keys give every order the same precision."""
    return (type(config), *(getattr(config, k) for k in _PRECISION_KNOBS))


def factor_key(config: Config) -> tuple[Any, ...]:
    """What :func:`~bleu_impl.score.precision_factor` reads of ``config`` (beside the
    counts, the totals and the hypothesis length): the precision knobs, the weights and
    how they are applied, the early exits."""
    return (type(config), *(getattr(config, k) for k in _FACTOR_KNOBS))


class _Precisions:
    """Remembered order precisions and their logarithms (cleared together: a logarithm is
    found by its order's id)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.orders: dict[_OrderKey, tuple[OrderPrecision, int]] = {}
        self.logs: dict[int, float] = {}  # id of a remembered order -> ln of its value

    def clear(self) -> None:
        self.orders.clear()
        self.logs.clear()


class SegmentScorer:
    """Scores one segment's statistics under one profile and config, remembering each
    order's precision and logarithm by what it depends on."""

    def __init__(
        self,
        profile: Profile,
        config: Config,
        limit: int = _MAX_REMEMBERED,
        share: SegmentScorer | None = None,
    ) -> None:
        """``share``: a scorer whose remembered precisions (and precision factors) this one
        shares when its config computes them alike (:func:`precision_key`,
        :func:`factor_key`)."""
        self.profile, self.config, self._limit = profile, config, limit
        self._param = Fraction(config.smoothing_param)
        self._local = (  # float32 arithmetic rounds BP * factor as a whole
            config.smoothing not in LAST_SEGMENT_METHODS
            and config.zero_match != "truncate"
            and config.arithmetic == "float64"
            and config.nltk_methods == "3.6.6"  # older NLTK fails on a whole vector's zeros
        )
        self._by_length = config.smoothing == "nltk-method4"  # reads the hypothesis length
        self._precisions = _Precisions(limit)
        self._factors: dict[tuple[Any, ...], tuple[float | None, tuple[OrderPrecision, ...], str]]
        self._factors = {}
        if share is not None and precision_key(share.config) == precision_key(config):
            self._precisions = share._precisions
            if factor_key(share.config) == factor_key(config):
                self._factors = share._factors
        self._one: SegmentScorer | None = None  # the parts' scorer under macro aggregation

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
        found = self._factors.get((counts, stats.totals, c))
        if found is None:
            found = self._factor(stats)
        factor, orders, note = found
        bp = penalty(config.brevity_penalty, config.empty_ref, c, r)
        return ScoreParts(
            0.0 if factor is None else bp * factor, orders, note, bp, config, self.profile
        )

    def _factor(self, stats: BleuStats) -> tuple[float | None, tuple[OrderPrecision, ...], str]:
        """``precision_factor`` of ``stats``, remembered per (counts, totals, c)."""
        if len(self._factors) > self._limit:
            self._forget()
        key = (stats.counts, stats.totals, stats.hyp_len)
        self._factors[key] = precision_factor(
            stats.counts, stats.hyp_len, self.config, lambda: self._remembered(stats), self._log
        )
        return self._factors[key]

    def scores(self, rows: Iterable[Row]) -> list[float]:
        """:meth:`score` of every segment's statistics, given as rows (counts, totals,
        hypothesis length, reference length, 1 if it has no reference): the same floats. Where
        scoring cannot fail (no ``error`` knob) and reads no more than the precision factor and
        the brevity penalty, a row is scored from the remembered factor and penalty alone."""
        config = self.config
        if (
            not self._local
            or config.aggregation == "macro"
            or config.result_float != "float64"
            or any(getattr(config, knob) == "error" for knob in _FAILING)
        ):
            return [self.score(counted_stats(m, t, c, r, missing=x)) for m, t, c, r, x in rows]
        factors, rule, empty_ref = self._factors, config.brevity_penalty, config.empty_ref
        bps: dict[tuple[int, RefLength], float] = {}
        out: list[float] = []
        for counts, totals, c, r, missing in rows:
            found = factors.get((counts, totals, c))
            if found is None:
                found = self._factor(counted_stats(counts, totals, c, r, missing=missing))
            factor = found[0]
            if factor is None:
                out.append(0.0)
                continue
            bp = bps.get((c, r))
            if bp is None:
                bp = bps[(c, r)] = penalty(rule, empty_ref, c, r)
            out.append(bp * factor)
        return out

    def score(self, stats: BleuStats) -> float:
        """The segment's score, equal to ``score_stats(stats, ...).score``."""
        if self.config.aggregation == "macro":
            return self._macro(stats)
        return self.parts(stats).final

    def _macro(self, stats: BleuStats) -> float:
        """``macro_mean``'s score: every part scored with ``aggregation="corpus"``, then the
        summed statistics (for their failures only), in that order; without parts (or with
        statistics of another order) ``score_stats`` raises what it raises."""
        if not stats.parts or stats.max_order != self.config.max_order:
            return score_stats(stats, profile=self.profile, config=self.config).score
        one = self._one
        if one is None:
            one_config = replace(self.config, aggregation="corpus")
            one = SegmentScorer(self.profile, one_config, self._limit, share=self)
            self._one = one
        scores = [one.parts(part).final for part in stats.parts]
        one.parts(stats)  # the summed statistics (scoring never reads the parts)
        return math.fsum(scores) / len(scores)

    def result(self, stats: BleuStats) -> BleuResult:
        """The segment's :class:`BleuResult`, equal to ``score_stats(stats, ...)`` (a mean
        over one segment's parts under macro aggregation: said in the note and signature)."""
        if self.config.aggregation == "macro":
            return score_stats(stats, profile=self.profile, config=self.config)
        return make_result(
            stats.counts, stats.totals, stats.hyp_len, stats.ref_len, self.parts(stats)
        )

    def _remembered(self, stats: BleuStats) -> tuple[OrderPrecision, ...]:
        memo = self._precisions.orders
        if len(memo) > self._precisions.limit:
            self._forget()
        c, by_length = stats.hyp_len, self._by_length
        orders = []
        zero_orders = 0
        for n, m, l in zip(range(1, len(stats.counts) + 1), stats.counts, stats.totals):
            key = (n, m, l, zero_orders, c) if by_length else (n, m, l, zero_orders)
            found = memo.get(key)
            if found is None:
                found = memo[key] = order_precision(
                    n, m, l, zero_orders, self._param, stats, self.config
                )
            orders.append(found[0])
            zero_orders = found[1]
        return tuple(orders)

    def _forget(self) -> None:
        self._precisions.clear()
        self._factors.clear()

    def _log(self, order: OrderPrecision) -> float:
        logs = self._precisions.logs
        found = logs.get(id(order))
        if found is None:
            assert order.value is not None
            found = logs[id(order)] = math.log(order.value)
        return found


class ScorerPool:
    """Scorers of many configs under one profile: one per :func:`scoring_key`, sharing
    what they remember with the scorers of configs that compute it alike."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self._by_config: dict[int, tuple[Config, SegmentScorer]] = {}  # by id: entries keep it
        self._by_key: dict[tuple[Any, ...], SegmentScorer] = {}
        self._by_factors: dict[tuple[Any, ...], SegmentScorer] = {}
        self._by_precisions: dict[tuple[Any, ...], SegmentScorer] = {}

    def scorer(self, config: Config) -> SegmentScorer:
        """The scorer of ``config`` (whose knob values must be hashable)."""
        remembered = self._by_config.get(id(config))
        if remembered is not None and remembered[0] is config:
            return remembered[1]
        key = scoring_key(config)
        found = self._by_key.get(key)
        if found is None:
            found = self._by_key[key] = self._new(config)
        self._by_config[id(config)] = (config, found)
        return found

    def _new(self, config: Config) -> SegmentScorer:
        factors, precisions = factor_key(config), precision_key(config)
        share = self._by_factors.get(factors) or self._by_precisions.get(precisions)
        scorer = SegmentScorer(self.profile, config, share=share)
        self._by_factors.setdefault(factors, scorer)
        self._by_precisions.setdefault(precisions, scorer)
        return scorer


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
