"""From statistics to a score: ``BLEU = BP * exp(sum_n w_n ln p_n)`` (Papineni et al. 2002).

``BP = 1`` if c > r, ``0`` if c = 0, else ``exp(1 - r/c)``. Log terms are summed with
``math.fsum``; counts stay integers and precisions exact fractions until the final log/exp.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import EmulatedFailure
from .knobs import Config
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

__all__ = ["BleuResult", "brevity_penalty", "score_stats"]


@dataclass(frozen=True)
class BleuResult:
    """A BLEU score (0..1, never NaN) with everything needed to check it by hand."""

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

    def to_dict(self) -> dict[str, Any]:
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


def brevity_penalty(hyp_len: int, ref_len: int | Fraction) -> float:
    """``1`` if c > r; ``0`` if c = 0; else ``exp(1 - r/c)`` (paper section 2.2.2)."""
    if hyp_len > ref_len:
        return 1.0
    if hyp_len == 0:
        return 0.0
    return math.exp(1 - ref_len / hyp_len)


def _failure(profile: Profile, kind: str, fallback: str) -> EmulatedFailure:
    return EmulatedFailure(kind, profile.failures.get(kind, fallback))


def _as_float32(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


def score_stats(
    stats: BleuStats,
    *,
    profile: str | Profile = "papineni2002",
    level: str = "corpus",
    config: Config | None = None,
    **knobs: Any,
) -> BleuResult:
    """Score ``stats`` under ``profile`` + ``knobs`` (or an already resolved ``config``)."""
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    if config is None:
        config = prof.resolve(knobs, level)
    if stats.max_order != config.max_order:
        raise EmulatedFailure(
            "stats-mismatch",
            f"statistics have {stats.max_order} orders but the config needs {config.max_order}",
        )
    return _score(stats, config, prof)


def _check_failures(stats: BleuStats, config: Config, prof: Profile, bp: float) -> None:
    """Raise the emulated tool's own failure, if it has one for these statistics (in the
    order the scripts meet them)."""
    if config.no_refs == "error" and stats.missing == stats.segments:
        raise _failure(prof, "missing-reference", "no segment has a reference (no_refs='error')")
    c, r = stats.hyp_len, stats.ref_len
    if r == 0 and config.empty_ref == "error":
        raise _failure(prof, "empty-reference", "the reference length is 0 (empty_ref='error')")
    if c == 0 and config.empty_hyp == "error":
        raise _failure(prof, "empty-hypothesis", "the hypothesis length is 0 (empty_hyp='error')")
    if bp == 0.0 and c > 0 and config.bp_underflow == "error":
        raise _failure(
            prof,
            "bp-underflow",
            f"the brevity penalty exp(1 - {r}/{c}) underflows to 0.0 (bp_underflow='error')",
        )


def _score(stats: BleuStats, config: Config, prof: Profile) -> BleuResult:
    c, r = stats.hyp_len, stats.ref_len
    bp = brevity_penalty(c, r)
    _check_failures(stats, config, prof, bp)

    def result(score: float, orders: tuple[OrderPrecision, ...], note: str) -> BleuResult:
        if config.result_float == "float32":
            score = _as_float32(score)
        return BleuResult(
            score=score,
            counts=stats.counts,
            totals=stats.totals,
            precisions=tuple(o.as_float for o in orders)
            or tuple(
                float(Fraction(m, t)) if t else 0.0 for m, t in zip(stats.counts, stats.totals)
            ),
            bp=bp,
            hyp_len=c,
            ref_len=r,
            config=config,
            signature=signature(prof.name, config),
            profile=prof.name,
            orders=orders,
            note=note,
        )

    if config.early_zero == "no-unigram-match" and stats.counts[0] == 0:
        return result(0.0, (), "no unigram matches: early exit with 0 (early_zero)")
    if config.early_zero == "any-zero-order" and 0 in stats.counts:
        return result(0.0, (), "an order has no match: early exit with 0 (early_zero)")

    orders = tuple(order_precisions(stats, config))
    weights = _effective_weights(orders, config, c)
    if any(o.treatment in FORCES_ZERO for o, _ in zip(orders, weights)):
        first = next(o for o in orders if o.treatment in FORCES_ZERO)
        return result(0.0, orders, f"order {first.n} has precision 0 ({first.treatment})")
    terms = [
        w * math.log(o.value)
        for o, w in zip(orders, weights)
        if o.treatment not in NOT_IN_SUM and o.value is not None
    ]
    return result(bp * math.exp(math.fsum(terms)), orders, "")


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
    if config.auto_reweigh and 0 < hyp_len < 4 and tuple(weights) == (0.25, 0.25, 0.25, 0.25):
        weights = [1 / hyp_len] * hyp_len
    return weights
