"""pycocoevalcap (MS-COCO caption evaluation) ``Bleu``."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="coco",
        summary="pycocoevalcap 1.2 Bleu(n).compute_score: corpus BLEU-N with (m + 1e-15)/"
        "(l + 1e-9) precisions on every order, the closest reference (ties to the shorter) "
        "and the brevity ratio (c + 1e-15)/(r + 1e-9); str.split tokens.",
        source="pycocoevalcap 1.2 (PyPI) pycocoevalcap/bleu/bleu_scorer.py compute_score "
        "(tylin/coco-caption bleu_scorer.py)",
        defaults={
            "tokenize": "none",
            "ref_length": "closest",
            "smoothing": "coco-eps",
            "brevity_penalty": "coco-eps",
        },
        # Bleu(n) for n >= 5 raises IndexError: cook_refs/cook_test count only 4 orders
        # (their default n=4), compute_score reads n (checked live, pycocoevalcap 1.2).
        options={"max_order": Option("Bleu(n=N), then score[N-1] (BLEU-N)", (1, 2, 3, 4))},
        failures={
            "missing-reference": "Bleu.compute_score asserts len(ref) >= 1 (AssertionError)",
        },
    ),
)
