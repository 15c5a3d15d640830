"""torcheval ``bleu_score`` / ``BLEUScore``."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="torcheval",
        summary="torcheval 0.0.7 functional bleu_score: str.split tokens, the shortest "
        "reference, ValueError when an order has no hypothesis n-gram, log(0) = -inf for "
        "an order without match (score 0), float32 tensors throughout.",
        source="torcheval 0.0.7 (PyPI) torcheval/metrics/functional/text/bleu.py "
        "(meta-pytorch/torcheval; later sources use the closest reference, #195)",
        defaults={
            "tokenize": "none",
            "ref_length": "shortest",
            "smoothing": "none",
            "absent_order": "error",
            "zero_match": "zero",
            "arithmetic": "float32",
        },
        options={
            "max_order": Option("n_gram=", (1, 2, 3, 4)),
            "weights": Option("weights= (a tensor of length n_gram)"),
        },
        failures={
            "absent-order": "ValueError: the input is too short to find all n-gram matches "
            "with n_gram=N",
        },
    ),
)
