"""N-gram counting and clipping: the readable reference path for segment statistics.

``m_n = sum_g min(count_hyp(g), max_r count_r(g))`` and ``l_n = max(0, |h| - n + 1)``
(notes section 0). The fast path (``bleu_impl._fast``) must produce identical numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .errors import InputError
from .knobs import Config
from .reflength import MULTI_BLEU_MISSING_LENGTH, REF_LENGTH_RULES
from .stats import BleuStats, LastSegment

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


def segment_stats(
    hyp: Tokens, refs: Sequence[Tokens], config: Config, *, index: int = 0
) -> BleuStats:
    """The statistics of one segment under ``config`` (``index`` names it in errors)."""
    order = config.max_order
    pairs = [clipped_matches(hyp, refs, n) for n in range(1, order + 1)]
    counts = tuple(m for m, _ in pairs)
    totals = tuple(t for _, t in pairs)
    if config.denominator_floor == "per-segment":
        totals = tuple(max(1, t) for t in totals)
    if refs:
        ref_len = REF_LENGTH_RULES[config.ref_length](len(hyp), [len(r) for r in refs])
    elif config.missing_refs == "len-9999":
        ref_len = MULTI_BLEU_MISSING_LENGTH
    else:
        raise InputError(f"segment {index}: no reference (missing_refs='error')")
    last = None
    if config.smoothing_context == "last-segment" and config.smoothing in (
        "nltk-method5",
        "nltk-method6",
        "nltk-method7",
    ):
        m5, t5 = clipped_matches(hyp, refs, 5)
        last = LastSegment(
            tuple(max(0, len(hyp) - n + 1) for n in range(1, max(order, 5) + 1)), (m5, max(1, t5))
        )
    return BleuStats(counts, totals, len(hyp), ref_len, 1, last)
