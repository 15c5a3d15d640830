"""Random corpora designed to separate BLEU semantics (seeded, reproducible).

Each generated corpus mixes what makes implementations disagree: empty and very short
hypotheses (absent orders, zero matches, the NLTK floor), ties in reference length (closest
vs closest-first vs shortest), repeated n-grams (clipping), several, ragged and missing
references, case variants (lowercasing, final sigma), and the Unicode on which tokenizers
disagree: non-decimal numerals (``\\p{N}`` but not ``\\d``: ``5 ½!`` splits under Python
``re``, not under sacrebleu's intl), symbols, every punctuation class, CJK punctuation and
fullwidth forms, apostrophes, hyphens and dashes, URLs, entities, combining marks,
zero-width and odd whitespace. A *respaced copy* (a reference with spaces added or removed
around its non-alphanumeric characters) scores 1 exactly under the tokenizers that split
there. Rare corpora reach the extremes: a reference ~10,000 tokens longer than its
hypothesis (multi-bleu's 9999 sentinel, the brevity penalty's underflow).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from .model import Case, Input, Level, Segment

__all__ = ["GENERATED", "UNICODE_PIECES", "generate_cases", "tokenized"]

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

#: Pieces on which real tokenizers disagree, by Unicode category (glued to a word or standing
#: alone): numerals that are not decimal digits (No, Nl) and ones that are (Nd), symbols
#: (Sc, Sm, Sk, So), punctuation Pd, Ps/Pe, Pi/Pf, Po, Pc (CJK and fullwidth forms too),
#: apostrophes, URLs and e-mail, mteval's entities and ``<skipped>``, combining marks (Mn),
#: zero-width characters (Cf) and whitespace str.split, Perl and ASCII disagree on.
UNICODE_PIECES = (
    *("½", "²", "Ⅻ", "٣", "5", "3.14", "1,000", "7-", "½!", "x²,", "Ⅻ.5"),
    *("$", "€", "+", "=", "<", ">", "©", "°", "^", "`", "|", "~", "%", "&"),
    *("-", "‐", "–", "—", "(", ")", "[", "]", "{", "}", "「", "」", "（", "）"),
    *("“", "”", "‘", "’", "«", "»", "!", "?", ";", ":", "…", "、", "。", "，", "！", "·", "¿"),
    *("_", "'", "ʼ", "don’t", "l'homme", "rock’n’roll", "state-of-the-art", "e-mail"),
    *("https://example.com/a-b?x=1", "www.example.org", "a.b@example.org"),
    *("&quot;", "&AMP;", "&lt;", "<skipped>", "<SKIPPED>"),
    *("e\u0301", "n\u0303o", "a\u200bb", "\ufeff", "\u200d"),
    *("我们", "日本語", "한국어", "ＡＢＣ", "１２", "ΟΔΟΣ", "İstanbul", "ǅ"),
)
#: Line ends where Python ``re``'s ``\\d`` and ``\\p{N}`` split punctuation differently.
NUMBER_ENDS = (" ½!", " Ⅻ.", "²?", " 5.")
#: Separators: mostly a space, sometimes what only some whitespace definitions split on.
GLUES = (" ", " ", " ", "  ", "\u00a0", "\u2009", "\u3000", "\t", "\x1c", "\u0085", "\u2028")


def _word(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return rng.choice(UNICODE_PIECES) + rng.choice(("", "", rng.choice(UNICODE_PIECES)))
    return rng.choice(WORDS) + rng.choice(PUNCT)


def _sentence(rng: random.Random, length: int) -> str:
    words = [_word(rng) for _ in range(length)]
    if words and rng.random() < 0.15:
        words[-1] += rng.choice(NUMBER_ENDS)  # how a line ends matters to intl tokenizers
    trail = rng.choice(("", "", "", "", " ", "\u00a0"))  # what rstrip removes, or not
    return rng.choice(GLUES).join(words) + (trail if words else "")


def _length(rng: random.Random) -> int:
    return rng.choice((0, 1, 2, 3, 3, 4, 5, 7, 10, 15))


def _respaced(rng: random.Random, text: str) -> str:
    """``text`` with a space added or removed around some non-alphanumeric characters."""
    out = []
    for char in text:
        if char.isalnum() or rng.random() < 0.4:
            out.append(char)
        elif char.isspace():
            out.append("")
        else:
            out.append(f" {char} ")
    return "".join(out)


#: One segment's references (None: a missing one).
Refs = tuple[str | None, ...]


def _far(rng: random.Random) -> tuple[list[str], list[Refs]]:
    """A one-word hypothesis against a reference 10,000 words long, then (so that the total
    hypothesis length keeps the brevity penalty above 0) a long exact match, or not."""
    word = rng.choice(WORDS)
    hyps: list[str] = [word]
    refs: list[Refs] = [(" ".join([word] * 10_000),)]
    if rng.random() < 0.5:
        match = " ".join(rng.choice(WORDS) for _ in range(2_000))
        hyps.append(match)
        refs.append((match,))
    return hyps, refs


def _segment(rng: random.Random) -> tuple[str, Refs]:
    n_refs = rng.randint(1, 4)
    ref_list = [_sentence(rng, _length(rng)) for _ in range(n_refs)]
    roll = rng.random()
    if roll < 0.2:
        hyp = rng.choice(ref_list)  # exact match, maybe short
    elif roll < 0.3:
        word = rng.choice(WORDS)
        hyp = " ".join([word] * rng.randint(1, 8))  # repeated n-grams
    elif roll < 0.42 and ref_list[0]:
        tie = len(ref_list[0].split())  # a reference-length tie around the hypothesis
        ref_list.append(_sentence(rng, tie + 2))
        hyp = _sentence(rng, tie + 1)
    elif roll < 0.6:
        hyp = _respaced(rng, rng.choice(ref_list))  # equal where the tokenizer splits
    elif roll < 0.67:
        hyp = rng.choice((str.lower, str.upper, str.swapcase))(rng.choice(ref_list))
    else:
        hyp = _sentence(rng, _length(rng))
    refs: Refs = tuple(ref_list)
    if rng.random() < 0.04:
        refs = (None,) * len(refs)  # a segment without reference
    return hyp, refs


def tokenized(case: Case) -> Case:
    """``case`` as token lists, every third pair of neighbouring tokens joined into one
    token with a space inside, from the second token in hypotheses, the first in references
    (so that equal text gives n-grams that differ as tuples and collide as space-joined
    strings: fast-bleu, torchtext)."""

    def tokens(text: Any, phase: int = 0) -> Any:
        if text is None:
            return None
        words, merged, i = text.split(), [], 0
        while i < len(words):
            if i % 3 == phase and i + 1 < len(words):
                merged.append(f"{words[i]} {words[i + 1]}")
                i += 2
            else:
                merged.append(words[i])
                i += 1
        return tuple(merged)

    segments = tuple(
        Segment(tokens(s.hypothesis, 1), tuple(tokens(r) for r in s.references))
        for s in case.input.segments
    )
    return replace(case, id=f"{case.id}-tokenized", input=Input("tokenized", segments))


#: The file name of generated cases (they have no file).
GENERATED = "<generated>"


def generate_cases(count: int, seed: int) -> list[Case]:
    """``count`` corpora of 1-4 segments with 1-4 references each (``seed`` fixes them);
    cases without expectations, tagged ``generated``."""
    rng = random.Random(seed)
    items: list[Case] = []
    for index in range(count):
        if rng.random() < 0.02:
            hyps, refs = _far(rng)
        else:
            pairs = [_segment(rng) for _ in range(rng.randint(1, 4))]
            hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
        level: Level = "sentence" if len(hyps) == 1 and rng.random() < 0.5 else "corpus"
        case = Case(
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
        items.append(tokenized(case) if rng.random() < 0.1 else case)
    return items
