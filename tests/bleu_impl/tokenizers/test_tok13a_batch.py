"""The 13a batch tokenizer gives 13a's tokens, whatever the text (placeholders included)."""

from __future__ import annotations

import itertools
import random

from bleu_impl.tokenizers.tok13a import tokenize_13a
from bleu_impl.tokenizers.tok13a_batch import tokenize_13a_batch, tokenize_13a_line


def test_13a_batch_equals_13a_on_every_short_string() -> None:
    alphabet = ["1", "a", ".", ",", "-", " ", "&quot;", "&amp;", '"', "\n", "<skipped>", "\x00"]
    lines = ["".join(p) for n in range(5) for p in itertools.product(alphabet, repeat=n)]
    expected = [tokenize_13a(line).split() for line in lines]
    assert [g.split() for g in tokenize_13a_batch(lines)] == expected
    assert [tokenize_13a_line(line).split() for line in lines] == expected


def test_13a_batch_random_long_lines_and_placeholders_in_text() -> None:
    rng = random.Random(13)
    pieces = ["1", "2", "a", ".", ",", "..", "-", " ", "\u00a0", "\x00", "\x01", "\ue000"]
    lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    lines.append("".join(["\x00", "\x01", "\x02", "\x03", "\ue000", "\ue001", "\ufdd0", "1.2"]))
    expected = [tokenize_13a(line).split() for line in lines]
    assert [g.split() for g in tokenize_13a_batch(lines)] == expected
    assert [tokenize_13a_line(line).split() for line in lines] == expected
