"""``BleuStats``: the additive sufficient statistics of BLEU.

Corpus BLEU depends on the segments only through corpus-wide sums: clipped matches and
hypothesis n-grams per order, hypothesis length c and reference length r (Papineni et al.
2002, ACL P02-1040, sections 2.1.1 and 2.2.2). So statistics built per segment can be merged
in any grouping (sharding, streaming) and scored once with :func:`bleu_impl.score_stats`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .errors import InputError

__all__ = ["BleuStats", "LastSegment", "counted_stats"]


@dataclass(frozen=True)
class LastSegment:
    """What NLTK's smoothing methods 5-7 read from the corpus's last segment.

    ``ngram_totals``: the last hypothesis's unfloored n-gram counts for orders 1..max(N, 5);
    ``p5``: its order-5 modified precision as (clipped matches, max(1, total)).
    """

    ngram_totals: tuple[int, ...]
    p5: tuple[int, int]


def _count(value: object) -> bool:
    return type(value) is int and value >= 0  # not bool, not float, not NaN


def _problem(stats: BleuStats) -> str | None:
    """What makes ``stats`` impossible (None when they are statistics of some text):
    counts and totals are integers >= 0; ``hyp_len`` and ``segments`` integers >= 0;
    ``ref_len`` an integer or Fraction >= 0, or down to -1 per segment with an empty
    hypothesis (one without a reference under ``missing_refs="len-minus-1"``). A count may
    exceed its total here: torchtext (``ngram_join="space-resplit"``) counts a match at
    the order of its re-split key; :func:`~bleu_impl.score.score_stats` refuses it under
    every other config."""
    if not all(map(_count, (*stats.counts, *stats.totals))):
        return (
            f"counts {list(stats.counts)!r} and totals {list(stats.totals)!r} must be "
            "integers >= 0 (clipped matches, n-grams)"
        )
    if not _count(stats.hyp_len):
        return f"hyp_len must be an integer >= 0 (tokens), got {stats.hyp_len!r}"
    # at most every segment but one is an empty -1 row when some hypothesis has a token
    ref_len = stats.ref_len + stats.segments - (stats.hyp_len > 0)
    if not (_count(ref_len) or (type(ref_len) is Fraction and ref_len >= 0)):
        return f"ref_len must be an integer or Fraction >= 0 (tokens), got {stats.ref_len!r}"
    if not _count(stats.segments):
        return f"segments must be an integer >= 0, got {stats.segments!r}"
    return None


@dataclass(frozen=True)
class BleuStats:
    """Clipped matches (``counts``) and hypothesis n-grams (``totals``) per order 1..N,
    hypothesis length ``hyp_len`` and chosen reference length ``ref_len`` (a Fraction only
    with ``ref_length="average"``), summed over ``segments`` segments, ``missing`` of which
    had no reference (``missing_refs`` len-9999 or len-minus-1). ``parts``: each segment's own
    statistics, kept when the score is a mean over segments (``aggregation="macro"``,
    :mod:`bleu_impl.macro`), else None."""

    counts: tuple[int, ...]
    totals: tuple[int, ...]
    hyp_len: int
    ref_len: int | Fraction
    segments: int = 1
    last: LastSegment | None = None
    missing: int = 0
    parts: tuple[BleuStats, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.counts) != len(self.totals):
            raise InputError(f"BleuStats: {len(self.counts)} counts but {len(self.totals)} totals")
        problem = _problem(self)
        if problem is not None:
            raise InputError(f"BleuStats: {problem}")

    @property
    def max_order(self) -> int:
        return len(self.counts)

    @classmethod
    def zero(cls, max_order: int) -> BleuStats:
        """The neutral element of ``+`` for ``max_order`` orders (zero segments)."""
        return cls((0,) * max_order, (0,) * max_order, 0, 0, segments=0)

    def __add__(self, other: BleuStats) -> BleuStats:
        if not isinstance(other, BleuStats):
            return NotImplemented
        if other.max_order != self.max_order:
            raise InputError(
                f"cannot merge BleuStats of max_order {self.max_order} and {other.max_order}"
            )
        return BleuStats(
            tuple(a + b for a, b in zip(self.counts, other.counts)),
            tuple(a + b for a, b in zip(self.totals, other.totals)),
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
            self.segments + other.segments,
            other.last if other.last is not None else self.last,
            self.missing + other.missing,
            _joined(self, other),
        )

    def to_dict(self) -> dict[str, int | str | list[int]]:
        ref_len = self.ref_len
        return {
            "counts": list(self.counts),
            "totals": list(self.totals),
            "hyp_len": self.hyp_len,
            "ref_len": ref_len if isinstance(ref_len, int) else str(ref_len),
            "segments": self.segments,
            "missing": self.missing,
        }


def counted_stats(
    counts: tuple[int, ...],
    totals: tuple[int, ...],
    hyp_len: int,
    ref_len: int | Fraction,
    last: LastSegment | None = None,
    missing: int = 0,
) -> BleuStats:
    """One segment's ``BleuStats`` as this package counted them (valid by construction), made
    without the checks of the constructor: bulk sentence scoring builds millions of them, and
    the checks cost five times the object (``tests/bleu_impl/test_sentences.py`` holds the
    counting paths to statistics the constructor accepts)."""
    stats = _new(BleuStats)
    stats.__dict__.update(
        counts=counts,
        totals=totals,
        hyp_len=hyp_len,
        ref_len=ref_len,
        segments=1,
        last=last,
        missing=missing,
        parts=None,
    )
    return stats


_new = object.__new__


def _joined(a: BleuStats, b: BleuStats) -> tuple[BleuStats, ...] | None:
    """The parts of ``a + b``: both sides' parts in order (a side without segments has
    none to add); None when neither keeps parts."""
    if a.parts is None and b.parts is None:
        return None
    return (a.parts or ()) + (b.parts or ())
