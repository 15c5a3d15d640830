"""AllenNLP ``allennlp.training.metrics.BLEU``."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="allennlp",
        summary="AllenNLP 2.10 BLEU(ngram_weights, exclude_indices) over token ids: one "
        "reference per prediction, ln p_n = ln(m + 1e-13) - ln(l + 1e-13) on every order, "
        "standard brevity penalty (excluded ids are left out of n-grams and lengths).",
        source="allenai/allennlp v2.10.1 allennlp/training/metrics/bleu.py",
        defaults={
            "tokenize": "none",
            "ref_length": "single",
            "smoothing": "allennlp-eps",
        },
        options={
            "weights": Option("ngram_weights="),
            "max_order": Option("ngram_weights of length N (uniform)"),
        },
    ),
)
