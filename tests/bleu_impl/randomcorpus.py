"""Seeded random corpora that exercise BLEU's corner cases (short, empty, repeated, ties)."""

from __future__ import annotations

import random

VOCAB = ["the", "a", "cat", "dog", "sat", "on", "mat", "it", "is", "ship", "of", "The", "Ship"]


def sentence(rng: random.Random, max_len: int = 9) -> list[str]:
    """A token list of length 0..max_len, biased to short ones and repeated tokens."""
    length = rng.choice([0, 1, 2, 3, 3, 4, 5, 6, max_len])
    vocab = VOCAB[: rng.randint(2, len(VOCAB))]
    return [rng.choice(vocab) for _ in range(length)]


def corpus(
    rng: random.Random, segments: int, *, max_refs: int = 4, allow_empty: bool = True
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """(hypotheses, per-segment references) with 1..max_refs references per segment."""
    hyps, refs = [], []
    for _ in range(segments):
        ref_list = [sentence(rng) for _ in range(rng.randint(1, max_refs))]
        if rng.random() < 0.3 and ref_list[0]:
            hyp = list(rng.choice(ref_list))  # an exact match of some reference
            if hyp and rng.random() < 0.5:
                hyp[rng.randrange(len(hyp))] = rng.choice(VOCAB)
        else:
            hyp = sentence(rng)
        if not allow_empty:
            hyp = hyp or ["it"]
            ref_list = [r or ["it"] for r in ref_list]
        hyps.append(hyp)
        refs.append(ref_list)
    return hyps, refs
