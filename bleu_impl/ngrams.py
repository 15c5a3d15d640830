"""N-gram counting and clipping: the readable reference path for segment statistics.

``m_n = sum_g min(count_hyp(g), max_r count_r(g))``: each hypothesis n-gram counts at most
as often as it occurs in any single reference (the paper's modified n-gram precision,
Papineni et al. 2002, section 2.1); ``l_n = max(0, |h| - n + 1)`` hypothesis n-grams. The
fast path (``bleu_impl.fast``) must produce identical numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .errors import InputError
from .joined import joined_counts
from .knobs import LAST_SEGMENT_METHODS, Config
from .macro import as_part
from .reflength import MULTI_BLEU_MISSING_LENGTH, REF_LENGTH_RULES
from .stats import BleuStats, LastSegment

__all__ = [
    "Tokens",
    "clipped_matches",
    "counted_segment",
    "finish_segment",
    "last_segment",
    "needs_last",
    "ngram_counts",
    "segment_stats",
]

Tokens = Sequence[str]


def ngram_counts(tokens: Tokens, n: int) -> Counter[tuple[str, ...]]:
    """Multiset of the n-grams of ``tokens`` (empty when shorter than n)."""
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def clipped_matches(hyp: Tokens, refs: Sequence[Tokens], n: int) -> tuple[int, int]:
    """(clipped matches, hypothesis n-grams) of order n against the references."""
    hyp_counts = ngram_counts(hyp, n)
    max_ref: Counter[tuple[str, ...]] = Counter()
    for ref in refs:
        for gram, count in ngram_counts(ref, n).items():
            if gram in hyp_counts and count > max_ref[gram]:
                max_ref[gram] = count
    matches = sum(min(count, max_ref[gram]) for gram, count in hyp_counts.items())
    return matches, max(0, len(hyp) - n + 1)


def needs_last(config: Config) -> bool:
    """Whether the statistics carry the last segment's data (NLTK methods 5-7; method4 too
    in NLTK 3.2.2-3.2.5, whose corpus_bleu passes the last hypothesis's length)."""
    if config.smoothing == "nltk-method4" and config.nltk_methods == "3.2.2":
        return True
    return config.smoothing_context == "last-segment" and config.smoothing in LAST_SEGMENT_METHODS


def last_segment(hyp: Tokens, refs: Sequence[Tokens], config: Config) -> LastSegment:
    """What NLTK methods 5-7 read from a segment: unfloored n-gram counts for orders
    1..max(N, 5) and the order-5 modified precision with a floored denominator."""
    m5, t5 = clipped_matches(hyp, refs, 5)
    totals = tuple(max(0, len(hyp) - n + 1) for n in range(1, max(config.max_order, 5) + 1))
    return LastSegment(totals, (m5, max(1, t5)))


def finish_segment(
    hyp: Tokens,
    refs: Sequence[Tokens],
    counts: tuple[int, ...],
    config: Config,
    index: int,
    ref_lens: Sequence[int] | None = None,
) -> BleuStats:
    """A segment's BleuStats from its tokens and clipped ``counts`` (:func:`counted_segment`,
    with the last-segment data when needed). ``ref_lens``: the lengths the ``ref_length``
    rule chooses from, when the caller has them (default: every reference's)."""
    lengths = [len(r) for r in refs] if ref_lens is None else ref_lens
    last = last_segment(hyp, refs, config) if needs_last(config) else None
    return counted_segment(counts, len(hyp), lengths if refs else (), config, index, last)


def counted_segment(
    counts: tuple[int, ...],
    hyp_len: int,
    ref_lens: Sequence[int],
    config: Config,
    index: int,
    last: LastSegment | None = None,
) -> BleuStats:
    """A segment's BleuStats from its clipped ``counts``, hypothesis length and reference
    lengths (none: it has no reference): totals (with NLTK's optional max(1, .) floor) and
    the reference length the ``ref_length`` rule chooses."""
    totals = tuple(max(0, hyp_len - n + 1) for n in range(1, config.max_order + 1))
    if config.denominator_floor == "per-segment":
        totals = tuple(max(1, t) for t in totals)
    if ref_lens:
        ref_len = REF_LENGTH_RULES[config.ref_length](hyp_len, ref_lens)
    elif config.missing_refs == "len-9999":
        ref_len = MULTI_BLEU_MISSING_LENGTH
    elif config.missing_refs == "len-minus-1" and hyp_len == 0:
        ref_len = -1
    else:
        raise InputError(
            f"segment {index}: no reference (missing_refs={config.missing_refs!r})",
            "missing-reference",
        )
    stats = BleuStats(counts, totals, hyp_len, ref_len, 1, last, missing=0 if ref_lens else 1)
    return as_part(stats, config)


def segment_stats(
    hyp: Tokens, refs: Sequence[Tokens], config: Config, *, index: int = 0
) -> BleuStats:
    """The statistics of one segment under ``config`` (``index`` names it in errors)."""
    if config.ngram_join != "none":
        counts = joined_counts(hyp, refs, config.max_order, config.ngram_join)
    else:
        counts = tuple(clipped_matches(hyp, refs, n)[0] for n in range(1, config.max_order + 1))
    return finish_segment(hyp, refs, counts, config, index)
