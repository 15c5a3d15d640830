"""fairseq's ``bleu`` scorer (libbleu, C++ via ctypes)."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="fairseq",
        summary="fairseq scoring.bleu.Scorer (libbleu) over token ids: one reference per "
        "segment, precision 0 for an order without n-grams or matches (log 0 = -inf), "
        "ZeroDivisionError when the system is empty, 0-100 scale, at most 4 orders.",
        source="facebookresearch/fairseq@3d262bb fairseq/scoring/bleu.py, "
        "fairseq/clib/libbleu/libbleu.cpp",
        defaults={
            "tokenize": "none",
            "ref_length": "single",
            "smoothing": "none",
            "absent_order": "zero",
            "zero_match": "zero",
            "empty_hyp": "error",
            "scale": 100,
        },
        options={
            "max_order": Option("score(order=N)", (1, 2, 3, 4)),
            "smoothing": Option("reset(one_init=True): +1 on orders 2-4", ("none", "add-k")),
            "smoothing_value": Option("one_init adds exactly 1", (1.0,)),
        },
        failures={
            "empty-hypothesis": "Scorer.brevity divides reflen by predlen = 0 "
            "(ZeroDivisionError); an empty id tensor is undefined behaviour in bleu_rtrim",
        },
    ),
)
