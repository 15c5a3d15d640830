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


def _nltk(name: str, summary: str, source: str, span: tuple[str, str], **knobs: str) -> Profile:
    """An NLTK profile reproducing the releases ``span`` (as measured by the sweep)."""
    defaults = {**_NLTK_COMMON, "zero_match": "float-min", **knobs}
    return Profile(name, summary, source, defaults, options=_NLTK_OPTIONS, releases=("nltk", *span))


PROFILES: tuple[Profile, ...] = (
    _nltk(
        "nltk",
        "NLTK 3.6.6-3.10.x nltk.translate.bleu_score: per-segment max(1, total) "
        "floor, method0 turns zero matches into sys.float_info.min, int 0 when no "
        "unigram matches, methods 5-7 read the last segment.",
        "nltk/nltk nltk/translate/bleu_score.py (3.10.4)",
        ("3.6.6", "3.10.4"),  # 3.9 itself cannot import (docs/versions.md)
    ),
    _nltk(
        "nltk-3.6",
        "NLTK 3.6-3.6.5: as nltk, but a precision that smoothing leaves at 0 "
        "(method4 on a one-token hypothesis) reaches math.log: ValueError.",
        "nltk 3.6.5 nltk/translate/bleu_score.py (pip sdist; corpus_bleu's log-sum "
        "has no p_i > 0 filter before 3.6.6)",
        ("3.6", "3.6.5"),
        nltk_methods="3.6",
    ),
    _nltk(
        "nltk-3.5",
        "NLTK 3.5: as nltk-3.6, but method2 adds one to the unigrams too and "
        "method4 gives (n-1 + K/ln c)/l (ZeroDivisionError when c = 1).",
        "nltk 3.5 nltk/translate/bleu_score.py (pip sdist; SmoothingFunction.method2, "
        "method4: incvnt = i + 1 * self.k / math.log(hyp_len); p_n[i] = incvnt / denominator)",
        ("3.5", "3.5"),
        nltk_methods="3.5",
    ),
    _nltk(
        "nltk-3.3",
        "NLTK 3.3-3.4.5: as nltk-3.5, but method4 gives 1/(n-1 + K/ln c).",
        "nltk 3.4.5 nltk/translate/bleu_score.py (pip sdist; method4: p_n[i] = 1 / incvnt)",
        ("3.3.0", "3.4.5"),
        nltk_methods="3.3",
    ),
    _nltk(
        "nltk-3.2.2",
        "NLTK 3.2.2-3.2.5: as nltk-3.3, but method0 truncates the precision list "
        "at the first zero-match order while keeping the weights, and method4 reads the "
        "last segment's hypothesis length.",
        "nltk/nltk tag 3.2.2 nltk/translate/bleu_score.py (commit ed04c22a0)",
        ("3.2.2", "3.2.5"),
        zero_match="truncate",
        nltk_methods="3.2.2",
    ),
    Profile(
        "nltk-3.1",
        "NLTK 3.1: only bleu(references, hypothesis, weights), the paper's sentence "
        "BLEU on token lists (closest reference length, shorter on a tie; any zero "
        "precision gives 0); no corpus_bleu, no smoothing.",
        "nltk 3.1 nltk/translate/bleu_score.py (pip sdist; math.log(p_n) raising "
        "ValueError returns 0)",
        {"tokenize": "none", "split": "python", "ref_length": "closest", "smoothing": "none"},
        options={k: _NLTK_OPTIONS[k] for k in ("weights", "max_order")},
        releases=("nltk", "3.1", "3.1"),
    ),
)
