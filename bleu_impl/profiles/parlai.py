"""ParlAI's ``bleu`` metric (``BleuMetric``)."""

from __future__ import annotations

from .model import Profile

__all__ = ["PROFILES"]

PROFILES: tuple[Profile, ...] = (
    Profile(
        name="parlai",
        summary="ParlAI BleuMetric: normalize_answer (lowercase, ASCII punctuation and "
        "a/an/the to spaces), split(' '), NLTK sentence_bleu with method1 epsilon 1e-12 "
        "per example, the mean over examples.",
        source="facebookresearch/ParlAI@a29567f7 parlai/core/metrics.py (BleuMetric.compute, "
        "normalize_answer), nltk 3.10.4",
        defaults={
            "tokenize": "parlai",
            "split": "strip-space",
            "lowercase": "unicode",
            "ref_length": "closest",
            "smoothing": "nltk-method1",
            "epsilon": 1e-12,
            "denominator_floor": "per-segment",
            "early_zero": "no-unigram-match",
            "zero_match": "float-min",
            "absent_order": "zero",
            "aggregation": "macro",
        },
        options={},
    ),
)
