"""Random corpora designed to separate BLEU semantics (seeded, reproducible).

Each generated corpus mixes what makes implementations disagree: empty and very short
hypotheses (absent orders, zero matches, the NLTK floor), ties in reference length (closest
vs closest-first vs shortest), repeated n-grams (clipping), several and ragged references,
case and Unicode variants (lowercasing), punctuation (tokenization), NBSP (whitespace
definitions).
"""

from __future__ import annotations

import random

from .model import Case, Input, Level, Segment

__all__ = ["generate_cases"]

WORDS = (
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "a",
    "dog",
    "it",
    "is",
    "ship",
    "The",
    "Cat",
    "École",
    "école",
    "naïve",
    "Straße",
    "of",
    "party",
    "military",
)
PUNCT = ("", "", "", ",", ".", "!", "?", "'s", '"', "(", ")")


def _sentence(rng: random.Random, length: int) -> str:
    words = [rng.choice(WORDS) + rng.choice(PUNCT) for _ in range(length)]
    glue = rng.choice((" ", " ", " ", "  ", "\u00a0"))
    return glue.join(words)


def _length(rng: random.Random) -> int:
    return rng.choice((0, 1, 2, 3, 3, 4, 5, 7, 10, 15))


#: The file name of generated cases (they have no file).
GENERATED = "<generated>"


def generate_cases(count: int, seed: int) -> list[Case]:
    """``count`` corpora of 1-4 segments with 1-4 references each (``seed`` fixes them);
    cases without expectations, tagged ``generated``."""
    rng = random.Random(seed)
    items: list[Case] = []
    for index in range(count):
        segments = rng.randint(1, 4)
        hyps, refs = [], []
        for _ in range(segments):
            n_refs = rng.randint(1, 4)
            ref_list = [_sentence(rng, _length(rng)) for _ in range(n_refs)]
            roll = rng.random()
            if roll < 0.25:
                hyp = rng.choice(ref_list)  # exact match, maybe short
            elif roll < 0.4:
                word = rng.choice(WORDS)
                hyp = " ".join([word] * rng.randint(1, 8))  # repeated n-grams
            elif roll < 0.55 and ref_list[0]:
                tie = len(ref_list[0].split())  # a reference-length tie around the hypothesis
                ref_list.append(_sentence(rng, tie + 2))
                hyp = _sentence(rng, tie + 1)
            else:
                hyp = _sentence(rng, _length(rng))
            hyps.append(hyp)
            refs.append(tuple(ref_list))
        level: Level = "sentence" if segments == 1 and rng.random() < 0.5 else "corpus"
        items.append(
            Case(
                id=f"generated-{seed}-{index}",
                description="a generated corpus designed to separate semantics",
                source=f"generate_cases(seed={seed})",
                tags=("generated",),
                level=level,
                config={},
                input=Input("raw", tuple(Segment(h, r) for h, r in zip(hyps, refs))),
                expected={},
                file=GENERATED,
            )
        )
    return items
