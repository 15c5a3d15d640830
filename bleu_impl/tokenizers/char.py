"""The ``char`` tokenizer (sacrebleu ``tok:char``): every character is a token.

Whitespace characters only separate; they never become tokens after the final split.
"""

from __future__ import annotations

__all__ = ["tokenize_char"]


def tokenize_char(line: str) -> str:
    """Return the characters of ``line`` separated by spaces."""
    return " ".join(line)
