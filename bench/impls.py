"""Stand-in implementations for the generated-comparison rows (``python -m bench``).

``constant``: a scorer that always answers 0.5, so every case differs and no knob setting
reproduces it (the worst case for attribution: every search runs to its end).
``ignite_like``: the macro average of per-sentence BLEU over the segments, what
pytorch-ignite's ``Bleu(average="macro")`` computes by default (the paper's sentence BLEU
of whitespace tokens, here through bleu_impl); no corpus-level knob reproduces it on a
corpus of several segments, so those disagreements stay unexplained.
"""

from __future__ import annotations

from collections.abc import Sequence

from bleu_impl import sentence_scores

__all__ = ["constant", "ignite_like"]


def constant(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> float:
    return 0.5


def ignite_like(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> float:
    def tokens(text: str | Sequence[str]) -> list[str]:
        return text.split() if isinstance(text, str) else list(text)

    hyps = [tokens(h) for h in hypotheses]
    refs = [[tokens(r) for r in rs if r is not None] for rs in references]
    scores = sentence_scores(hyps, refs)
    return sum(scores) / len(scores)
