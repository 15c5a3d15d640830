"""The ``intl`` tokenizer: mteval-v14 ``tokenization_international`` as sacrebleu ports it.

The three regex rules of sacrebleu 2.6.0's ``TokenizerV14International``
(sacrebleu/tokenizers/tokenizer_intl.py), with Unicode classes from the ``regex`` module:
split punctuation (\\p{P}) from a neighbour that is not a number (\\P{N}), and space out every
symbol (\\p{S}). No padding, so a string-final ``2023.`` stays one token; no entity decoding
(sacrebleu #138).
"""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["tokenize_intl"]


@cache
def _rules() -> tuple[tuple[Any, str], ...]:
    """The compiled rules, on first use: importing ``regex`` costs every command ~50 ms."""
    import regex

    return (
        (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
        (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
        (regex.compile(r"(\p{S})"), r" \1 "),
    )


def tokenize_intl(line: str) -> str:
    """Return ``line`` tokenized by the international rules."""
    for pattern, replacement in _rules():
        line = pattern.sub(replacement, line)
    return line
