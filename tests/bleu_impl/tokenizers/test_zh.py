"""The ``zh`` tokenizer against live sacrebleu 2.x's ``TokenizerZh``: its character ranges
code point by code point, and its tokens (reference, per-line and batch forms) on every short
string over an edge alphabet and on random multilingual lines."""

from __future__ import annotations

import itertools
import random

import pytest

tokenizer_zh = pytest.importorskip("sacrebleu.tokenizers.tokenizer_zh")

from bleu_impl.tokenizers.zh import (  # noqa: E402
    is_chinese,
    tokenize_zh,
    tokenize_zh_batch,
    tokenize_zh_line,
)
from tools.fixtures.multilingual import random_line  # noqa: E402


def _theirs(lines: list[str]) -> list[list[str]]:
    sacre = tokenizer_zh.TokenizerZh()
    return [sacre(line).split() for line in lines]


def _check(lines: list[str]) -> None:
    expected = _theirs(lines)
    assert [tokenize_zh(line).split() for line in lines] == expected
    assert [tokenize_zh_line(line).split() for line in lines] == expected
    assert [tokens.split() for tokens in tokenize_zh_batch(lines)] == expected
    # a line with a newline sends the whole batch to the per-line path: check without them
    kept = [i for i, line in enumerate(lines) if "\n" not in line]
    batch = tokenize_zh_batch([lines[i] for i in kept])
    assert [tokens.split() for tokens in batch] == [expected[i] for i in kept]


def test_chinese_characters_are_sacrebleus_on_every_bmp_code_point() -> None:
    # sacrebleu's five-digit escapes ('\u20000') make U+2001..U+2A6D "Chinese" and the
    # supplementary planes not; its function, not its comments, is the reference.
    theirs = tokenizer_zh.TokenizerZh._is_chinese_char
    bmp = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]
    assert [c for c in bmp if is_chinese(c) != theirs(c)] == []
    rng = random.Random(0)
    astral = [chr(rng.randrange(0x10000, 0x110000)) for _ in range(3000)] + ["\U00020000"]
    assert [c for c in astral if is_chinese(c) != theirs(c)] == []
    assert is_chinese("\u2014") and not is_chinese("\u3042") and not is_chinese("\U00020000")


def test_zh_equals_sacrebleu_on_short_strings() -> None:
    # "." / "," next to digits and at the line ends, CJK and full-width neighbours, 13a's
    # punctuation class, entities (not decoded by zh), inner newlines, stripped whitespace
    alphabet = ["1", "a", ".", ",", "-", " ", "中", "。", "&amp;", "\n"]
    lines = ["".join(p) for n in range(5) for p in itertools.product(alphabet, repeat=n)]
    rng = random.Random(5)
    lines += ["".join(rng.choices(alphabet, k=rng.randint(5, 12))) for _ in range(5000)]
    _check(lines)


def test_zh_equals_sacrebleu_on_random_multilingual_lines() -> None:
    rng = random.Random(2024)
    lines = [random_line(rng) for _ in range(3000)]
    lines += ["", " ", "\u3000中文\u3000", "2023.", ".5 中", "中.5", "，。", "<skipped>中"]
    _check(lines)
    _check(lines[:1])
    assert tokenize_zh_batch([]) == []


def test_zh_batch_falls_back_when_placeholders_are_taken() -> None:
    taken = "\x00\x01\x02\x03\ue000\ue001\ufdd0\ufdd1"
    _check([f"{taken}中1.5文", "a.b", taken])
