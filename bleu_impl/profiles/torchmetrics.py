"""torchmetrics ``BLEUScore``."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="torchmetrics",
        summary="torchmetrics 1.9 BLEUScore (float64 semantics): str.split tokens, "
        "closest reference with ties to the first listed, 0 whenever an order has no "
        "match (even with smooth=True, which is add-1 for n >= 2).",
        source="Lightning-AI/torchmetrics@dab0333 src/torchmetrics/functional/text/bleu.py",
        defaults={
            "tokenize": "none",
            "ref_length": "closest-first",
            "smoothing": "none",
            "absent_order": "zero",
            "zero_match": "zero",
            "early_zero": "any-zero-order",
        },
        options={
            "max_order": Option("n_gram="),
            "weights": Option("weights="),
            "smoothing": Option("smooth=True (add-1 on orders >= 2)", ("none", "add-k")),
            "smoothing_value": Option("smooth=True adds exactly 1", (1.0,)),
        },
    ),
)
