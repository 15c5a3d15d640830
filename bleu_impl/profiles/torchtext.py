"""torchtext ``torchtext.data.metrics.bleu_score``."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="torchtext",
        summary="torchtext 0.14-0.18 data.metrics.bleu_score: token lists, closest reference "
        "(ties to the first listed), 0.0 whenever an order has no match, n-grams joined "
        "with spaces and split again (a token containing a space shifts its n-gram's "
        "order), float32 tensors for the precisions.",
        source="pytorch/text@v0.18.0 (9bed85d) torchtext/data/metrics.py, "
        "torchtext/data/utils.py ngrams_iterator",
        defaults={
            "tokenize": "none",
            "ref_length": "closest-first",
            "smoothing": "none",
            "early_zero": "any-zero-order",
            "absent_order": "zero",
            "zero_match": "zero",
            "ngram_join": "space-resplit",
            "arithmetic": "float32",
        },
        options={
            "max_order": Option("max_n= (with weights of length max_n)"),
            "weights": Option("weights="),
        },
        failures={
            "index-error": "a joined n-gram that splits into more than max_n pieces "
            "(IndexError); a segment without references (refs[0], IndexError)",
        },
    ),
)
