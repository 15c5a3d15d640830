"""Seeded synthetic MT-like corpora: Zipfian vocabulary, news-like lengths, noisy hypotheses.

References are drawn from a Zipf distribution over ~30k word types (plus punctuation,
numbers, hyphenated words and clitics, so 13a has work to do). A hypothesis is reference 1
with substitutions, deletions, insertions and local reorderings; extra references are
lighter paraphrases of reference 1. The rates give corpus BLEU of about 25-35.

Everything is deterministic in ``seed``: segments are generated in blocks, each block from
its own generator seeded by ``(seed, block)``, so :func:`stream` yields exactly the lines of
:func:`corpus` while holding one block in memory.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

BLOCK = 2_000
VOCAB_TYPES = 30_000
ZIPF_S = 1.07
PUNCT_AFTER = {",", ".", ";", ":", "!", "?", ")", "%", "'s", "n't"}
PUNCT_BEFORE = {"(", "$"}
_SPECIAL = [",", ".", '"', "(", ")", ";", ":", "!", "?", "%", "$", "'s", "n't", "-", "&"]


@dataclass(frozen=True)
class Noise:
    """Per-token probabilities of each edit that turns a reference into a hypothesis."""

    substitute: float = 0.22
    delete: float = 0.06
    insert: float = 0.06
    swap: float = 0.07


HYP_NOISE = Noise()
REF_NOISE = Noise(substitute=0.2, delete=0.05, insert=0.05, swap=0.06)


@lru_cache(maxsize=4)
def vocabulary(seed: int = 0) -> tuple[list[str], NDArray[np.float64]]:
    """The word types (most frequent first) and their cumulative Zipf probabilities."""
    rng = random.Random(f"vocab-{seed}")
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    words: list[str] = list(_SPECIAL)
    seen = set(words)
    while len(words) < VOCAB_TYPES:
        kind = rng.random()
        if kind < 0.03:
            word = f"{rng.randint(1, 999)},{rng.randint(100, 999)}"
        elif kind < 0.06:
            word = f"{rng.randint(0, 99)}.{rng.randint(0, 9)}"
        elif kind < 0.09:
            word = "-".join(_word(rng, letters) for _ in range(2))
        else:
            word = _word(rng, letters)
            if rng.random() < 0.1:
                word = word.capitalize()
        if word not in seen:
            seen.add(word)
            words.append(word)
    ranks = np.arange(1, len(words) + 1, dtype=np.float64)
    cdf = np.cumsum(ranks**-ZIPF_S)
    return words, cdf / cdf[-1]


def _word(rng: random.Random, letters: str) -> str:
    n = min(14, max(1, int(rng.expovariate(1 / 5.5)) + 1))
    return "".join(rng.choices(letters, weights=range(26, 0, -1), k=n))


def _perturb(tokens: list[str], rng: random.Random, words: list[str], noise: Noise) -> list[str]:
    """Substitutions, deletions, insertions and adjacent swaps of ``tokens``."""
    out: list[str] = []
    for tok in tokens:
        r = rng.random()
        if r < noise.delete:
            continue
        if r < noise.delete + noise.substitute:
            tok = words[min(len(words) - 1, int(rng.paretovariate(0.9)) - 1 + rng.randrange(40))]
        out.append(tok)
        if rng.random() < noise.insert:
            out.append(words[rng.randrange(200)])
    for i in range(len(out) - 1):
        if rng.random() < noise.swap:
            out[i], out[i + 1] = out[i + 1], out[i]
    return out


def detokenize(tokens: list[str]) -> str:
    """Join tokens into news-like text (no space before , . etc., none after ( and $)."""
    parts: list[str] = []
    glue = True
    for tok in tokens:
        if parts and not glue and tok not in PUNCT_AFTER:
            parts.append(" ")
        parts.append(tok)
        glue = tok in PUNCT_BEFORE
    return "".join(parts)


@dataclass(frozen=True)
class Segment:
    """One generated segment: hypothesis and references as token lists."""

    hyp: list[str]
    refs: list[list[str]]


def segments(n: int, refs: int = 1, seed: int = 0) -> Iterator[Segment]:
    """Yield ``n`` segments with ``refs`` references each, deterministically in ``seed``."""
    words, cdf = vocabulary(seed)
    for block in range((n + BLOCK - 1) // BLOCK):
        size = min(BLOCK, n - block * BLOCK)
        nrng = np.random.default_rng([seed, block])
        rng = random.Random(f"{seed}-{block}")
        lengths = np.clip(nrng.lognormal(3.05, 0.55, size), 1, 150).astype(np.int64)
        draws = np.searchsorted(cdf, nrng.random(int(lengths.sum())))
        pos = 0
        for length in lengths.tolist():
            ref = [words[i] for i in draws[pos : pos + length].tolist()]
            pos += length
            hyp = _perturb(ref, rng, words, HYP_NOISE)
            others = [_perturb(ref, rng, words, REF_NOISE) for _ in range(refs - 1)]
            yield Segment(hyp, [ref, *others])


@dataclass
class Corpus:
    """Parallel lines: ``hyps[i]`` and ``refs[k][i]`` (sacrebleu's orientation), both ways."""

    hyps: list[str]
    refs: list[list[str]]

    @property
    def nltk_refs(self) -> list[list[str]]:
        """Per-segment reference lists (NLTK's / bleu_impl's orientation)."""
        return [list(r) for r in zip(*self.refs)]


def corpus(n: int, refs: int = 1, seed: int = 0, detok: bool = False) -> Corpus:
    """An in-memory corpus: pre-tokenized (space-joined tokens) or detokenized text."""
    join = detokenize if detok else " ".join
    hyps: list[str] = []
    ref_cols: list[list[str]] = [[] for _ in range(refs)]
    for seg in segments(n, refs, seed):
        hyps.append(join(seg.hyp))
        for col, ref in zip(ref_cols, seg.refs):
            col.append(join(ref))
    return Corpus(hyps, ref_cols)


def stream(
    n: int, refs: int = 1, seed: int = 0, detok: bool = False
) -> Iterator[tuple[str, list[str]]]:
    """``(hypothesis, references)`` pairs one at a time (bounded memory)."""
    join = detokenize if detok else " ".join
    for seg in segments(n, refs, seed):
        yield join(seg.hyp), [join(r) for r in seg.refs]
