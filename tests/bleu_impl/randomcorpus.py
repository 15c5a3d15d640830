"""Seeded random corpora that exercise BLEU's corner cases (short, empty, repeated, ties).

``corpus``: token lists over a small vocabulary. ``random_corpus``: raw strings with empty
lines, Unicode (final sigma, NBSP, U+001C), entities, numbers and punctuation, up to 6
references per segment and, optionally, missing references.
"""

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


WORDS = [
    "the", "The", "THE", "a", "cat", "sat", "on", "mat", "3.5", "1,000", "U.S.", "don't",
    "well-known", "5-4", "...", ".,", "&amp;", "&quot;hi&quot;", "<skipped>", "(x)", "é",
    "ΣΟΦΟΣ", "σοφος", "İstanbul", "straße", "\u00a0", "a\u00a0b", "x\x1cy", "\t", "日本語",
    "2023.", "-", "--", "10-20", "$5", "50%", "!?", "end.", "a,b", "1.", ".5",
]  # fmt: skip


def random_line(rng: random.Random, vocab: list[str]) -> str:
    """A raw line of 0..30 words of ``vocab`` joined by varied whitespace."""
    n = rng.choice([0, 0, 1, 2, 3, 5, 8, 13, 30])
    return rng.choice([" ", "  ", "\t", ""]).join(rng.choice(vocab) for _ in range(n))


def random_corpus(
    seed: int, segments: int = 60, max_refs: int = 4, missing: bool = False
) -> tuple[list[str], list[list[str | None]]]:
    """Raw-string corpus; ``missing`` adds segments without (or with None) references."""
    rng = random.Random(seed)
    hyps, refs = [], []
    for _ in range(segments):
        vocab = rng.sample(WORDS, rng.randint(2, 12))
        ref_list: list[str | None] = [
            random_line(rng, vocab) for _ in range(rng.randint(1, max_refs))
        ]
        if rng.random() < 0.3 and ref_list[0]:
            words = str(ref_list[0]).split()
            hyp = " ".join(words + words[: rng.randint(0, 4)])  # repeated n-grams
        else:
            hyp = random_line(rng, vocab)
        if missing and rng.random() < 0.2:
            ref_list = rng.choice([[], [None], [None, *ref_list]])
        hyps.append(hyp)
        refs.append(ref_list)
    return hyps, refs
