"""NLTK's ``nltk.translate.bleu_score`` across its versions."""

from __future__ import annotations

from ..knobs import NLTK_METHODS
from .model import Option, Profile

__all__ = ["PROFILES"]

_NLTK_COMMON = {
    "tokenize": "none",
    "split": "python",
    "ref_length": "closest",
    "smoothing": "nltk-method0",
    "denominator_floor": "per-segment",
    "early_zero": "no-unigram-match",
    "smoothing_context": "last-segment",
    "absent_order": "zero",
    "empty_hyp": "bp-zero",
    "empty_ref": "rule",
}

_NLTK_OPTIONS = {
    "weights": Option("weights=(w1, ..., wN)"),
    "max_order": Option("weights of length N (uniform)"),
    "smoothing": Option("smoothing_function=SmoothingFunction().methodN", NLTK_METHODS),
    "epsilon": Option("SmoothingFunction(epsilon=...)"),
    "alpha": Option("SmoothingFunction(alpha=...)"),
    "k": Option("SmoothingFunction(k=...)"),
    "auto_reweigh": Option("auto_reweigh=True"),
}

PROFILES: tuple[Profile, ...] = (
    Profile(
        name="nltk",
        summary="NLTK 3.3-3.10.x nltk.translate.bleu_score: per-segment max(1, total) "
        "floor, method0 turns zero matches into sys.float_info.min, int 0 when no "
        "unigram matches, methods 5-7 read the last segment.",
        source="nltk/nltk nltk/translate/bleu_score.py (3.10.4)",
        defaults={**_NLTK_COMMON, "zero_match": "float-min"},
        options=_NLTK_OPTIONS,
        releases=("nltk", "3.6.6", "3.10.4"),  # 3.9 itself cannot import (docs/versions.md)
    ),
    Profile(
        name="nltk-3.2.2",
        summary="NLTK 3.2.2-3.2.5: as nltk, but method0 truncates the precision list "
        "at the first zero-match order while keeping the weights.",
        source="nltk/nltk tag 3.2.2 nltk/translate/bleu_score.py (commit ed04c22a0)",
        defaults={**_NLTK_COMMON, "zero_match": "truncate"},
        options=_NLTK_OPTIONS,
        releases=("nltk", "3.2.2", "3.2.5"),
        unsupported={
            "smoothing": (
                "nltk-method2",
                "nltk-method4",
                "nltk-method5",
                "nltk-method6",
                "nltk-method7",
            )
        },
    ),
)
