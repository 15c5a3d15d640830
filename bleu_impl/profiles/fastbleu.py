"""fast-bleu ``BLEU`` (a C++ port of NLTK's sentence_bleu)."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="fast-bleu",
        summary="fast-bleu 0.0.90 BLEU(references, weights).get_score(hypotheses): NLTK "
        "sentence BLEU of each hypothesis against the whole reference set (clipping and "
        "closest length over every reference given), space-joined n-grams, max(1, l) per "
        "segment, method1 (0.1 / l) by default, weights stored as C float; a corpus score "
        "is the mean of the per-hypothesis scores.",
        source="fast-bleu 0.0.90 (PyPI) = Danial-Alh/fast-bleu@182584a "
        "fast_bleu/cpp_sources/sources/nltk.cpp, bleu.cpp",
        defaults={
            "tokenize": "none",
            "ref_length": "closest",
            "ref_scope": "corpus",
            "aggregation": "macro",
            "denominator_floor": "per-segment",
            "smoothing": "nltk-method1",
            "early_zero": "no-unigram-match",
            "zero_match": "zero",
            "absent_order": "zero",
            "ngram_join": "space",
            "arithmetic": "float32-weights",
        },
        options={
            "weights": Option("weights={key: (w1, ..., wN)} (N >= 2, summing to 1)"),
            "max_order": Option("weights of length N (uniform)"),
            "smoothing": Option(
                "smoothing_func= (1: nltk-method1, 0: none)", ("nltk-method1", "none")
            ),
        },
        unsupported={"max_order": (1,)},
        failures={
            "assertion": "BLEU() asserts 2 <= N and weights summing to 1 within 1e-15",
        },
    ),
)
