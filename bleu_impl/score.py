"""From statistics to a score: ``BLEU = BP * exp(sum_n w_n ln p_n)`` (Papineni et al. 2002).

``BP = 1`` if c > r, ``0`` if c = 0, else ``exp(1 - r/c)``. Log terms are summed with
``math.fsum``; counts stay integers and precisions exact fractions until the final log/exp.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from .brevity import BREVITY_PENALTIES, brevity_penalty, penalty
from .errors import EmulatedFailure, InputError
from .float32 import as_float32, float32_bleu
from .knobs import Config
from .macro import macro_mean
from .profiles import Profile, get_profile
from .signature import signature
from .smoothing import (
    DROPPED,
    FORCES_ZERO,
    NOT_IN_SUM,
    OrderPrecision,
    order_precisions,
)
from .stats import BleuStats

__all__ = [
    "BleuResult",
    "ScoreParts",
    "brevity_penalty",
    "check_lengths",
    "check_references",
    "make_result",
    "precision_factor",
    "score_parts",
    "score_stats",
    "score_value",
    "weighted_orders",
]


@dataclass(frozen=True)
class BleuResult:
    """A BLEU score with everything needed to check it by hand.

    ``score`` is always on 0..1 (the paper's BLEU, never NaN), under every profile;
    ``scaled_score`` is on the scale the profile's tool prints (0..100 for sacrebleu,
    multi-bleu, mteval: sacrebleu's ``.score``), and so is ``str(result)``, sacrebleu's
    line. ``to_dict()`` is JSON-serialisable; ``signature`` names the profile and every knob.

    >>> import bleu_impl
    >>> hyps = ["The cat sat on the mat."]
    >>> refs = [["The cat is on the mat."]]   # refs[i]: the references of hyps[i]
    >>> result = bleu_impl.corpus_bleu(hyps, refs, profile="sacrebleu")
    >>> round(result.score, 4), round(result.scaled_score, 2)
    (0.4889, 48.89)
    >>> print(result)
    BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
    >>> import json; json.loads(json.dumps(result.to_dict()))["hyp_len"]
    7
    """

    score: float
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: tuple[float | None, ...]
    bp: float
    hyp_len: int
    ref_len: int | Fraction
    config: Config
    signature: str
    profile: str
    orders: tuple[OrderPrecision, ...] = ()
    note: str = ""

    @property
    def scaled_score(self) -> float:
        """The score on the profile's printing scale (``scale`` knob: 1 or 100)."""
        return self.score * self.config.scale

    @property
    def ratio(self) -> float:
        """hyp_len / ref_len (0 when ref_len is 0, as sacrebleu prints it)."""
        return float(Fraction(self.hyp_len) / self.ref_len) if self.ref_len else 0.0

    @property
    def details(self) -> str:
        """sacrebleu's ``verbose_score``: ``85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000
        hyp_len = 7 ref_len = 7)``; the precisions with one decimal on 0..100 (an order
        without n-grams: 0.0, as sacrebleu), four on 0..1."""
        scale = self.config.scale
        shown = "/".join(
            f"{(p or 0.0) * 100:.1f}" if scale == 100 else _fixed(p, 4) for p in self.precisions
        )
        ref_len = self.ref_len if isinstance(self.ref_len, int) else f"{float(self.ref_len):.6g}"
        return (
            f"{shown} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} hyp_len = {self.hyp_len} "
            f"ref_len = {ref_len})"
        )

    def __str__(self) -> str:
        """``BLEU = 48.89 85.7/...`` on the profile's scale (2 decimals on 0..100, as
        sacrebleu's ``str``; 4 on 0..1)."""
        decimals = 2 if self.config.scale == 100 else 4
        return f"BLEU = {self.scaled_score + 0.0:.{decimals}f} {self.details}"

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON types (``ref_len`` a float when it is an average)."""
        return {
            "score": self.score,
            "scaled_score": self.scaled_score,
            "counts": list(self.counts),
            "totals": list(self.totals),
            "precisions": list(self.precisions),
            "bp": self.bp,
            "ratio": self.ratio,
            "hyp_len": self.hyp_len,
            "ref_len": self.ref_len if isinstance(self.ref_len, int) else float(self.ref_len),
            "profile": self.profile,
            "signature": self.signature,
            "config": self.config.as_dict(),
            "note": self.note,
        }

    def __float__(self) -> float:
        return self.score


def _fixed(value: float | None, decimals: int) -> str:
    return "-" if value is None else f"{value:.{decimals}f}"


def _failure(profile: Profile, kind: str, fallback: str) -> EmulatedFailure:
    return EmulatedFailure(kind, profile.failures.get(kind, fallback))


def score_stats(
    stats: BleuStats,
    *,
    profile: str | Profile = "papineni2002",
    level: str = "corpus",
    config: Config | None = None,
    **knobs: Any,
) -> BleuResult:
    """Score ``stats`` under ``profile`` + ``knobs`` (or an already resolved ``config``).
    A clipped count above its total is an error, except under torchtext's re-split counting
    (``ngram_join="space-resplit"``), which counts a match at the order of its re-split key."""
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    if config is None:
        config = prof.resolve(knobs, level)
    above = [n for n, (c, t) in enumerate(zip(stats.counts, stats.totals), 1) if c > t]
    if above and config.ngram_join != "space-resplit":
        raise InputError(
            f"BleuStats: counts {list(stats.counts)!r} exceed totals {list(stats.totals)!r} at "
            f"order {above[0]}: clipped matches are at most the hypothesis n-grams (only "
            "ngram_join='space-resplit', torchtext's counting, makes more)"
        )
    if stats.max_order != config.max_order:
        raise EmulatedFailure(
            "stats-mismatch",
            f"statistics have {stats.max_order} orders but the config needs {config.max_order}",
        )
    if config.aggregation == "macro":
        return macro_mean(stats, config, lambda part, one: _score(part, one, prof))
    return _score(stats, config, prof)


def check_references(stats: BleuStats, config: Config, prof: Profile) -> None:
    """Raise the emulated failure of statistics in which no segment has a reference
    (``no_refs='error'``: multi-bleu cannot open its reference file)."""
    if config.no_refs == "error" and stats.missing == stats.segments:
        raise _failure(prof, "missing-reference", "no segment has a reference (no_refs='error')")


def _parts(stats: BleuStats, config: Config, prof: Profile) -> ScoreParts:
    check_references(stats, config, prof)
    return score_parts(
        stats.counts,
        stats.hyp_len,
        stats.ref_len,
        config,
        prof,
        lambda: tuple(order_precisions(stats, config)),
    )


def _score(stats: BleuStats, config: Config, prof: Profile) -> BleuResult:
    parts = _parts(stats, config, prof)
    return make_result(stats.counts, stats.totals, stats.hyp_len, stats.ref_len, parts)


def score_value(
    stats: BleuStats, *, profile: str | Profile = "papineni2002", config: Config
) -> float:
    """``score_stats(stats, profile=profile, config=config).score`` without assembling
    the result (resampling scores thousands of statistics and reads only the score)."""
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    if config.aggregation == "macro" or stats.max_order != config.max_order:
        return score_stats(stats, profile=prof, config=config).score
    return _parts(stats, config, prof).final


class ScoreParts(NamedTuple):
    """What scoring found before the result is assembled: the score (not yet rounded to
    float32), the per-order precisions, a note, the brevity penalty, config and profile
    (a tuple: a batch builds one per segment)."""

    score: float
    orders: tuple[OrderPrecision, ...]
    note: str
    bp: float
    config: Config
    profile: Profile

    @property
    def final(self) -> float:
        """The score as reported (float32-rounded when ``result_float`` says so)."""
        if self.config.result_float == "float32":
            return as_float32(self.score)
        return self.score


def _log_value(order: OrderPrecision) -> float:
    assert order.value is not None
    return math.log(order.value)


def score_parts(
    counts: tuple[int, ...],
    c: int,
    r: int | Fraction,
    config: Config,
    prof: Profile,
    orders_of: Callable[[], tuple[OrderPrecision, ...]],
    log: Callable[[OrderPrecision], float] = _log_value,
) -> ScoreParts:
    """Score statistics (``counts``, hypothesis length c, reference length r):
    ``BP * precision_factor``; the precisions come from ``orders_of()``
    (``order_precisions``, or a batch's remembered ones) and ``log(order)`` is ``ln`` of an
    order's value (a batch may remember it)."""
    check_lengths(c, r, config, prof)
    bp = penalty(config.brevity_penalty, config.empty_ref, c, r)
    if config.arithmetic == "float32":
        used, orders, note = weighted_orders(counts, c, config, orders_of)
        standard = config.brevity_penalty == "standard" and r != 0
        terms = [(w, o.value) for w, o in used or () if o.value is not None]
        score = 0.0 if used is None else float32_bleu(terms, c, r, None if standard else bp)
        return ScoreParts(score, orders, note, bp, config, prof)
    factor, orders, note = precision_factor(counts, c, config, orders_of, log)
    return ScoreParts(0.0 if factor is None else bp * factor, orders, note, bp, config, prof)


def check_lengths(c: int, r: int | Fraction, config: Config, prof: Profile) -> None:
    """Raise the emulated tool's own failure for these lengths, if it has one (in the order
    the scripts meet them): an empty reference or hypothesis side, a brevity penalty that
    underflows to 0.0."""
    if r == 0 and config.empty_ref == "error":
        raise _failure(prof, "empty-reference", "the reference length is 0 (empty_ref='error')")
    if c == 0 and config.empty_hyp == "error":
        raise _failure(prof, "empty-hypothesis", "the hypothesis length is 0 (empty_hyp='error')")
    bp_rule = BREVITY_PENALTIES[config.brevity_penalty]
    if c > 0 and config.bp_underflow == "error" and bp_rule(c, r) == 0.0:
        raise _failure(
            prof,
            "bp-underflow",
            f"the brevity penalty exp(1 - {r}/{c}) underflows to 0.0 (bp_underflow='error')",
        )


def weighted_orders(
    counts: tuple[int, ...],
    c: int,
    config: Config,
    orders_of: Callable[[], tuple[OrderPrecision, ...]],
) -> tuple[list[tuple[float, OrderPrecision]] | None, tuple[OrderPrecision, ...], str]:
    """The (weight, order) pairs in the sum ``sum_n w_n ln p_n`` (None when the score is 0:
    an early exit or an order that forces it), the precisions and a note."""
    if config.early_zero == "no-unigram-match" and counts[0] == 0:
        return None, (), "no unigram matches: early exit with 0 (early_zero)"
    if config.early_zero == "any-zero-order" and 0 in counts:
        return None, (), "an order has no match: early exit with 0 (early_zero)"
    if config.early_zero == "empty-hypothesis" and c == 0:
        return None, (), "no hypothesis token: early exit with 0 (early_zero)"
    orders = orders_of()
    weights = _effective_weights(orders, config, c)
    if any(o.treatment in FORCES_ZERO for o, _ in zip(orders, weights)):
        first = next(o for o in orders if o.treatment in FORCES_ZERO)
        return None, orders, f"order {first.n} has precision 0 ({first.treatment})"
    used = [
        (w, o)
        for o, w in zip(orders, weights)
        if o.treatment not in NOT_IN_SUM and o.value is not None
    ]
    return used, orders, ""


def precision_factor(
    counts: tuple[int, ...],
    c: int,
    config: Config,
    orders_of: Callable[[], tuple[OrderPrecision, ...]],
    log: Callable[[OrderPrecision], float] = _log_value,
) -> tuple[float | None, tuple[OrderPrecision, ...], str]:
    """``exp(sum_n w_n ln p_n)`` (None when the score is 0), the precisions and a note. It
    depends on the statistics only through the counts, the totals (via the precisions)
    and c."""
    used, orders, note = weighted_orders(counts, c, config, orders_of)
    if used is None:
        return None, orders, note
    return math.exp(math.fsum(w * log(o) for w, o in used)), orders, note


def make_result(
    counts: tuple[int, ...],
    totals: tuple[int, ...],
    hyp_len: int,
    ref_len: int | Fraction,
    parts: ScoreParts,
) -> BleuResult:
    """The :class:`BleuResult` of statistics scored into ``parts``."""
    config, prof, orders = parts.config, parts.profile, parts.orders
    return BleuResult(
        score=parts.final,
        counts=counts,
        totals=totals,
        precisions=tuple(o.as_float for o in orders)
        or tuple(float(Fraction(m, t)) if t else 0.0 for m, t in zip(counts, totals)),
        bp=parts.bp,
        hyp_len=hyp_len,
        ref_len=ref_len,
        config=config,
        signature=signature(prof.name, config),
        profile=prof.name,
        orders=orders,
        note=parts.note,
    )


def _effective_weights(
    orders: tuple[OrderPrecision, ...], config: Config, hyp_len: int
) -> list[float]:
    """Weights per order; effective order renormalises uniformly over the kept orders.

    NLTK's ``auto_reweigh`` replaces the exact default (0.25,)*4 by (1/c,)*c when c < 4;
    ``zip`` then ignores the orders above c.
    """
    if any(o.treatment == DROPPED for o in orders):
        kept = sum(o.treatment != DROPPED for o in orders)
        return [0.0 if o.treatment == DROPPED else 1.0 / kept for o in orders]
    weights = list(config.order_weights)
    if config.arithmetic == "float32-weights":  # fast-bleu stores weights as C float
        weights = [as_float32(w) for w in weights]
    if config.auto_reweigh and 0 < hyp_len < 4 and tuple(weights) == (0.25, 0.25, 0.25, 0.25):
        weights = [1 / hyp_len] * hyp_len
    return weights
