"""Per-order precisions: smoothing methods and the zero/absent-order policies.

Sources: NLTK's ``SmoothingFunction`` methods 0-7 (nltk/translate/bleu_score.py, 3.10.4),
which follow Chen & Cherry (2014), *A Systematic Comparison of Smoothing Techniques for
Sentence-Level BLEU*, WMT, W14-3346; NIST's geometric smoothing (mteval-v13a.pl, sub
``bleu_score``; sacrebleu ``exp``); sacrebleu 2.6.0's ``floor`` and ``add-k``
(sacrebleu/metrics/bleu.py, ``compute_bleu``).

Each order n starts from its corpus sums (m_n, l_n), after any per-segment floor (or
``max(1, l_n)`` on the sums with ``denominator_floor="corpus"``). In order:

1. additive smoothing changes both sums (``add-k`` and ``nltk-method2`` for n >= 2,
   ``add-one`` for every n), so an absent order can become k/k = 1 or 1/2;
2. an order with l_n = 0 follows ``absent_order``;
3. an order with m_n = 0 < l_n is smoothed (``floor``, ``exp``/``nist``, NLTK methods 1, 3, 4)
   or, unsmoothed, follows ``zero_match``;
4. NLTK methods 5 and 6 (and 7 = 4 then 5) then rewrite the whole vector.

Three methods instead give every order n a value from its sums (m_n, l_n) alone, so no order
is ever absent or zero-matched and the score is never forced to 0 (``EVERY_ORDER``):

* ``coco-eps`` (pycocoevalcap 1.2 ``bleu_scorer.py``, ``compute_score``): ``p_n = (m_n +
  1e-15) / (l_n + 1e-9)`` in floats, the constants ``tiny`` and ``small``;
* ``allennlp-eps`` (AllenNLP 2.10 ``training/metrics/bleu.py``, ``get_metric``): ``ln p_n =
  ln(m_n + 1e-13) - ln(l_n + 1e-13)``;
* ``add-one-fmin`` (CodeXGLUE ``Code-Text/code-to-text/code/bleu.py``, ``score_cooked`` with
  ``smooth=1``): ``ln p_n = ln(m_n + a_n + f) - ln(l_n + a_n + f)`` with ``a_1 = 0``, ``a_n = 1``
  for n >= 2 (Lin & Och 2004) and ``f = sys.float_info.min``; an order with ``l_1 = 0`` gets
  ``f / f = 1``, a unigram order without matches ``f / l_1``.

Values stay exact ``Fraction`` where the implementation's arithmetic is exact; where it
uses floats (NLTK method4, ``float-min``) the same float operations are performed.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from .errors import EmulatedFailure
from .knobs import EVERY_ORDER_METHODS, LAST_SEGMENT_METHODS, Config
from .stats import BleuStats

__all__ = [
    "ABSENT_ONE",
    "ABSENT_ZERO",
    "DROPPED",
    "EVERY_ORDER",
    "EXACT",
    "FLOAT_MIN",
    "FORCES_ZERO",
    "NOT_IN_SUM",
    "SKIPPED",
    "SMOOTHED",
    "TRUNCATED",
    "ZERO",
    "Exact",
    "Number",
    "OrderPrecision",
    "order_precision",
    "order_precisions",
]

Number = Fraction | float
Exact = Fraction | int

# Treatments: how an order's precision was obtained.
EXACT = "exact"  # m/l
SMOOTHED = "smoothed"  # a smoothing method produced the value
ABSENT_ONE = "absent-one"  # l = 0, counts as log 1 = 0 with its weight
ABSENT_ZERO = "absent-zero"  # l = 0, precision 0: the score is 0
DROPPED = "dropped"  # l = 0, left out and weights renormalised (effective order)
ZERO = "zero"  # m = 0, unsmoothed: the score is 0
FLOAT_MIN = "float-min"  # m = 0 replaced by sys.float_info.min (NLTK >= 3.3)
TRUNCATED = "truncated"  # this and higher orders ignored, weights kept (NLTK 3.2.2)
SKIPPED = "skipped"  # left out of the log-sum, weights kept (NLTK's p > 0 filter)

NOT_IN_SUM = (ABSENT_ONE, DROPPED, TRUNCATED, SKIPPED)
FORCES_ZERO = (ABSENT_ZERO, ZERO)

_ADDITIVE = {"nltk-method2": 2, "add-one": 1}  # smoothing -> first order touched (add-k: a knob)
_NLTK_BEFORE_3_6 = ("3.5", "3.3", "3.2.2")  # nltk_methods values with the old method2 and method4


def _coco(n: int, m: int, l: int) -> Number:
    return (float(m) + 1e-15) / (float(l) + 1e-9)


def _allennlp(n: int, m: int, l: int) -> Number:
    return math.exp(math.log(m + 1e-13) - math.log(l + 1e-13))


def _add_one_fmin(n: int, m: int, l: int) -> Number:
    add = 1 if n >= 2 else 0
    if m + add == 0:  # ln(f) - ln(l + f): f / l, or 1 when l = 0 too
        return Fraction(1) if l == 0 else Fraction(sys.float_info.min) / l
    return Fraction(m + add, l + add)


#: smoothing knob value -> ``(n, m_n, l_n) -> p_n`` for the methods that rewrite every order.
EVERY_ORDER: dict[str, Callable[[int, int, int], Number]] = {
    "coco-eps": _coco,
    "allennlp-eps": _allennlp,
    "add-one-fmin": _add_one_fmin,
}


@dataclass(frozen=True)
class OrderPrecision:
    """The precision of order ``n``: the value used, how it was obtained, and its inputs."""

    n: int
    matches: Number
    total: Number
    value: Number | None
    treatment: str

    @cached_property  # a remembered order is reported again and again (SegmentScorer)
    def as_float(self) -> float | None:
        """The precision in 0..1 as reported (1.0 for orders counted as log 1)."""
        if self.treatment in (ABSENT_ONE, SKIPPED):
            return 1.0
        if self.treatment in (DROPPED, TRUNCATED):
            return None
        return float(self.value) if self.value is not None else 0.0


def order_precisions(stats: BleuStats, config: Config) -> list[OrderPrecision]:
    """Compute the precision of every order 1..N under ``config``'s smoothing policies."""
    param = Fraction(config.smoothing_param)
    zero_orders = 0  # zero-match orders so far: NIST's k, NLTK method4's j
    result: list[OrderPrecision] = []
    for n, (m, l) in enumerate(zip(stats.counts, stats.totals), start=1):
        precision, zero_orders = order_precision(n, m, l, zero_orders, param, stats, config)
        result.append(precision)
        if precision.treatment == TRUNCATED:
            result.extend(_truncated(n, stats))
            break
    if config.smoothing in LAST_SEGMENT_METHODS:
        result = _nltk_vector_smoothing(result, stats, config)
    if config.nltk_methods != "3.6.6" and any(o.treatment == SKIPPED for o in result):
        raise EmulatedFailure(  # NLTK's p > 0 filter came in 3.6.6
            "math-domain",
            f"NLTK before 3.6.6 takes math.log of a smoothed precision 0 "
            f"(nltk_methods={config.nltk_methods}: ValueError: math domain error)",
        )
    return result


def order_precision(
    n: int, m: int, l: int, zero_orders: int, param: Fraction, stats: BleuStats, config: Config
) -> tuple[OrderPrecision, int]:
    """Order n's precision from its sums (m, l) when ``zero_orders`` lower orders had a zero
    match, and the zero-match count including order n (steps 1-3 above; the statistics are
    read only by NLTK method4, for the hypothesis length)."""
    if config.smoothing in EVERY_ORDER_METHODS:  # rewrites every order, zero or not
        return OrderPrecision(n, m, l, EVERY_ORDER[config.smoothing](n, m, l), SMOOTHED), 0
    if config.denominator_floor == "corpus":  # pytorch-ignite: max(1, l) on the sums
        l = max(1, l)
    matches, total = _additive(n, m, l, config, param)
    if total == 0:
        return _absent(n, matches, total, config), zero_orders
    if matches != 0:
        return OrderPrecision(n, matches, total, Fraction(matches, total), EXACT), zero_orders
    zero_orders += 1
    smooth = _ZERO_MATCH_SMOOTHERS.get(config.smoothing)
    zero = _ZeroMatch(n, matches, total, zero_orders, param, stats, config)
    smoothed = smooth(zero) if smooth else None
    if smoothed is not None:
        return smoothed, zero_orders
    return _unsmoothed_zero(n, matches, total, config), zero_orders


def _additive(n: int, m: int, l: int, config: Config, param: Fraction) -> tuple[Exact, Exact]:
    """Both sums after additive smoothing: +k (``add-k``, from order ``add_k_from``) or +1
    (``add-one``, NLTK method2; before 3.6 method2 touched the unigrams too) from the
    method's first order on."""
    method = config.smoothing
    first_touched = config.add_k_from if method == "add-k" else _ADDITIVE.get(method)
    if method == "nltk-method2" and config.nltk_methods in _NLTK_BEFORE_3_6:
        first_touched = 1
    if first_touched is None or n < first_touched:
        return m, l
    add = param if method == "add-k" else 1
    return m + add, l + add


def _truncated(n: int, stats: BleuStats) -> list[OrderPrecision]:
    """Orders n+1..N, ignored after NLTK 3.2.2's truncation at order n."""
    orders = range(n + 1, stats.max_order + 1)
    return [
        OrderPrecision(k, mk, lk, None, TRUNCATED)
        for k, mk, lk in zip(orders, stats.counts[n:], stats.totals[n:])
    ]


@dataclass(frozen=True)
class _ZeroMatch:
    """An order with m = 0 < l, the ``j``-th such order, for a smoothing method to fill."""

    n: int
    m: Exact
    l: Exact
    j: int
    param: Fraction
    stats: BleuStats
    config: Config

    def smoothed(self, value: Number) -> OrderPrecision:
        return OrderPrecision(self.n, self.m, self.l, value, SMOOTHED)

    def skipped(self) -> OrderPrecision:
        """Left at 0; NLTK's final ``p > 0`` filter leaves it out of the log-sum."""
        return OrderPrecision(self.n, self.m, self.l, Fraction(0), SKIPPED)


def _geometric(z: _ZeroMatch) -> OrderPrecision:
    """NIST (mteval ``bleu_score``), sacrebleu ``exp``, NLTK method3: 1 / (2^j * l)."""
    return z.smoothed(Fraction(1, 2**z.j * z.l))


def _floor(z: _ZeroMatch) -> OrderPrecision | None:
    """sacrebleu ``floor``: epsilon / l (a zero epsilon leaves the order unsmoothed)."""
    return z.smoothed(z.param / z.l) if z.param > 0 else None


def _nltk_method1(z: _ZeroMatch) -> OrderPrecision:
    """NLTK method1: epsilon / l."""
    return z.smoothed(Fraction(z.config.epsilon) / z.l)


def _nltk_method4(z: _ZeroMatch) -> OrderPrecision:
    """NLTK >= 3.6 method4 (and the first step of method7): 1 / (2^j * K / ln c), divided by
    the (floored) total, in floats; left at 0 (then skipped) when c <= 1. Before 3.6 the code
    read ``incvnt = i+1 * k / math.log(c)``, i.e. ``(n - 1) + K / ln c``, and took ``incvnt /
    l`` (3.5) or ``1 / incvnt`` (3.2.2-3.4.5; c the last segment's length up to 3.2.5);
    ln 1 = 0 raised ZeroDivisionError, ln 0 ValueError."""
    c, k, release = z.stats.hyp_len, z.config.k, z.config.nltk_methods
    if release == "3.2.2" and z.stats.last is not None:
        c = z.stats.last.ngram_totals[0]
    if release in _NLTK_BEFORE_3_6:
        if c == 0:  # reached through 3.2.2-3.2.5 reading an empty last segment
            raise EmulatedFailure("math-domain", "NLTK method4 takes math.log(0)")
        if c == 1:
            raise EmulatedFailure("zero-division", "NLTK method4 divides K by ln 1 = 0")
        incvnt = (z.n - 1) + k / math.log(c)
        return z.smoothed(incvnt / z.l if release == "3.5" else 1 / incvnt)
    if c <= 1:
        return z.skipped()
    numerator = 1 / (2**z.j * k / math.log(c))
    return z.smoothed(numerator / z.l)


def _nltk_skipped(z: _ZeroMatch) -> OrderPrecision:
    """NLTK methods 2, 5 and 6 leave a zero match at 0 here (5 and 6 rewrite it later)."""
    return z.skipped()


#: smoothing -> what it makes of an order with m = 0 < l (None or absent: unsmoothed, so
#: ``zero_match`` decides).
_ZERO_MATCH_SMOOTHERS: dict[str, Callable[[_ZeroMatch], OrderPrecision | None]] = {
    "exp": _geometric,
    "nist": _geometric,
    "nltk-method3": _geometric,
    "floor": _floor,
    "nltk-method1": _nltk_method1,
    "nltk-method4": _nltk_method4,
    "nltk-method7": _nltk_method4,
    "nltk-method2": _nltk_skipped,
    "nltk-method5": _nltk_skipped,
    "nltk-method6": _nltk_skipped,
}


def _absent(n: int, m: Number, l: Number, config: Config) -> OrderPrecision:
    policy = config.absent_order
    if policy == "one":
        return OrderPrecision(n, m, l, None, ABSENT_ONE)
    if policy == "drop":
        return OrderPrecision(n, m, l, None, DROPPED)
    if policy == "zero":
        return OrderPrecision(n, m, l, Fraction(0), ABSENT_ZERO)
    raise EmulatedFailure(
        "absent-order",
        f"no hypothesis has {n} tokens, so order {n} has no n-grams (absent_order='error')",
    )


def _unsmoothed_zero(n: int, m: Number, l: Number, config: Config) -> OrderPrecision:
    policy = config.zero_match
    if policy == "float-min":
        return OrderPrecision(n, m, l, sys.float_info.min, FLOAT_MIN)
    if policy == "skip":
        return OrderPrecision(n, m, l, Fraction(0), SKIPPED)
    if policy == "truncate":
        return OrderPrecision(n, m, l, None, TRUNCATED)
    return OrderPrecision(n, m, l, Fraction(0), ZERO)


def _nltk_vector_smoothing(
    orders: list[OrderPrecision], stats: BleuStats, config: Config
) -> list[OrderPrecision]:
    """NLTK methods 5, 6 and 7 (after 4), which rewrite every order from its neighbours."""
    if stats.last is None:
        raise EmulatedFailure(
            "missing-context",
            f"{config.smoothing} needs the last segment's statistics; build the BleuStats "
            "with this config (smoothing_context='last-segment')",
        )
    values: list[Number] = [o.value if o.value is not None else Fraction(0) for o in orders]
    if config.smoothing == "nltk-method6":
        values = _nltk_method6(values, stats, config)
    else:
        values = _nltk_method5(values, stats)
    return [
        OrderPrecision(o.n, o.matches, o.total, v, SMOOTHED if v > 0 else SKIPPED)
        for o, v in zip(orders, values)
    ]


def _nltk_method5(values: list[Number], stats: BleuStats) -> list[Number]:
    """q_0 = p_1 + 1; q_n = (q_{n-1} + p_n + p_{n+1}) / 3 with p_{N+1} the last segment's
    order-5 precision; every p read is the value before smoothing (NLTK SmoothingFunction)."""
    assert stats.last is not None
    original = [*values, Fraction(*stats.last.p5)]
    smoothed: list[Number] = []
    previous = original[0] + 1
    for i in range(len(values)):
        previous = (previous + original[i] + original[i + 1]) / 3
        smoothed.append(previous)
    return smoothed


def _nltk_method6(values: list[Number], stats: BleuStats, config: Config) -> list[Number]:
    """Gao & He (2013) prior for n >= 3: p_n = (m_n + alpha * p_{n-1}^2 / p_{n-2}) / (L_n +
    alpha), with L_n the last hypothesis's n-gram count and updated lower orders."""
    assert stats.last is not None
    if len(values) < 3:
        raise EmulatedFailure("index-error", "NLTK method6 needs at least 3 orders (IndexError)")
    if values[2] == 0:
        raise EmulatedFailure(
            "assertion",
            "NLTK method6 asserts a non-zero trigram precision "
            "('This smoothing method requires non-zero precision for bigrams.')",
        )
    alpha = Fraction(config.alpha)
    out = list(values)
    for i in range(2, len(out)):
        prior = 0 if out[i - 2] == 0 else out[i - 1] ** 2 / out[i - 2]
        out[i] = (stats.counts[i] + alpha * prior) / (stats.last.ngram_totals[i] + alpha)
    return out
