"""compare-mt's ``bleu`` scorer (``BleuScorer``)."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]

PROFILES: tuple[Profile, ...] = (
    Profile(
        name="compare-mt",
        summary="compare-mt BleuScorer: line.strip().split(' ') tokens, one reference, "
        "max(1, total) per sentence, 0 when no unigram matches, an order without a match "
        "left out of the sum (log taken as 0), 0-100.",
        source="neulab/compare-mt 0.2.10 compare_mt/scorers.py (BleuScorer), "
        "compare_mt/corpus_utils.py (iterate_tokens, lower)",
        releases=("compare-mt", "0.2.10", "0.2.10"),
        defaults={
            "tokenize": "none",
            "split": "strip-space",
            "ref_length": "single",
            "smoothing": "none",
            "denominator_floor": "per-segment",
            "early_zero": "no-unigram-match",
            "zero_match": "skip",
            "absent_order": "zero",
            "lowercase_stage": "after-tokenize",
            "scale": 100,
        },
        options={
            "weights": Option("BleuScorer(weights=...)"),
            "max_order": Option("weights of length N (uniform)"),
            "lowercase": Option("case_insensitive=True", (False, "unicode")),
        },
    ),
)
