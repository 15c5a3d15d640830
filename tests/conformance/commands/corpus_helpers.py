"""A user's implementation that fails on some inputs (for the corpus report's error cells)."""

from __future__ import annotations

from bleu_impl import corpus_bleu


def fragile_bleu(hypotheses: list, references: list) -> float:
    """sacrebleu-like BLEU that raises on any hypothesis containing ``BOOM``."""
    for line, hyp in enumerate(hypotheses, 1):
        if "BOOM" in hyp:
            raise ValueError(f"cannot score line {line}: BOOM")
    return corpus_bleu(hypotheses, references, profile="sacrebleu").score
