"""CodeXGLUE / CodeBERT smoothed BLEU-4 (code-to-text ``bleu.py``)."""

from __future__ import annotations

from .model import Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="codexglue",
        summary="CodeXGLUE code-to-text smoothed BLEU-4 (computeMaps + bleuFromMaps): "
        "lowercased, \\w+ runs and single punctuation marks as tokens, the shortest "
        "reference, +1 on orders >= 2 with float_info.min inside both logs, brevity penalty "
        "exp(min(0, 1 - (r+1)/(c+1))), the mean of the sentence scores, times 100.",
        source="microsoft/CodeXGLUE@ac74a62 Code-Text/code-to-text/code/bleu.py "
        "(computeMaps, bleuFromMaps, score_cooked smooth=1; from CodeBERT's code2nl)",
        defaults={
            "tokenize": "codexglue",
            "lowercase": "unicode",
            "ref_length": "shortest",
            "smoothing": "add-one-fmin",
            "brevity_penalty": "plus-one",
            "aggregation": "macro",
            "scale": 100,
        },
        options={},
        failures={"empty-corpus": "bleuFromMaps divides by 0 segments (ZeroDivisionError)"},
    ),
)
