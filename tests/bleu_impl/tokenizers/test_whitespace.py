"""Splitting long texts (a 100 MB segment): the same tokens, each distinct token one object."""

from __future__ import annotations

import random

import pytest

from bleu_impl import Pipeline
from bleu_impl.knobs import make_config
from bleu_impl.tokenizers.whitespace import LONG_TEXT, SPLITTERS, UNWINDOWED, split_shared

#: Separators of every splitter and characters only some of them split on.
PIECES = ["a", "b", "cd", "É", "x.y", " ", " ", "  ", "\t", "\n", "\u00a0", "\x1c", "\u2003"]


@pytest.mark.parametrize("name", sorted(set(SPLITTERS) - UNWINDOWED))
@pytest.mark.parametrize("seed", range(20))
def test_split_shared_gives_the_tokens_of_one_split(name: str, seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 300)))
    split = SPLITTERS[name]
    for window in (1, 2, 3, 7, 50, 10_000):
        assert split_shared(split, text, window) == split(text)


def test_equal_tokens_of_a_long_text_are_one_object() -> None:
    text = " ".join(["alpha", "beta", "alpha", "gamma"] * 10_000)
    tokens = split_shared(str.split, text, window=1_000)
    assert tokens == text.split()
    assert len({id(t) for t in tokens}) == 3


@pytest.mark.parametrize(
    "knobs",
    [
        {"tokenize": "none"},
        {"tokenize": "13a", "lowercase": "unicode"},
        {"tokenize": "none", "lowercase": "ascii", "lowercase_stage": "after-tokenize"},
        {"tokenize": "intl", "split": "perl-unicode"},
    ],
)
def test_a_segment_longer_than_long_text_tokenizes_as_its_pieces(knobs: dict) -> None:
    """Above LONG_TEXT the pipeline shares tokens; they are the tokens of the pieces."""
    piece = "The cat, 3.5 sat — ΣΟΦΟΣ on the mat. "
    repeat = LONG_TEXT // len(piece) + 2
    pipeline = Pipeline(make_config(knobs))
    expected = pipeline.segment(piece) * repeat
    long_line = piece * repeat
    assert len(long_line) > LONG_TEXT
    for tokens in (pipeline.segment(long_line), pipeline.batch(["x", long_line])[1]):
        assert tuple(tokens) == expected
        # objects per distinct token, not per token ('The' and 'the' lowercased stay two)
        assert len({id(t) for t in tokens}) <= 2 * len(set(tokens)) < len(tokens) // 1000
