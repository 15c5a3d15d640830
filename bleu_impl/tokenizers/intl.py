"""The ``intl`` tokenizer: mteval-v14 ``tokenization_international`` as sacrebleu ports it.

The three regex rules of sacrebleu 2.6.0's ``TokenizerV14International``
(sacrebleu/tokenizers/tokenizer_intl.py), with Unicode classes from the ``regex`` module:
split punctuation (\\p{P}) from a neighbour that is not a number (\\P{N}), and space out every
symbol (\\p{S}). No padding, so a string-final ``2023.`` stays one token; no entity decoding
(sacrebleu #138).

``mteval-intl`` is the script's own: ``tokenization_international`` of mteval-v14.pl and
mteval-v13a.pl (moses-smt/mosesdecoder@34452895, ``--international-tokenization``) first
drops ``<skipped>`` and decodes ``&quot; &amp; &lt; &gt; &apos;`` in that order
(:func:`decode_mteval_intl`, case-sensitive: mteval lowercases after it with Perl ``lc``),
then applies the same three rules. Its line joins (``\\p{Zl}``, and v13a's hyphen before
one) never fire: the SGML reader has already turned every whitespace run into one space.

``t2t`` is tensor2tensor's ``bleu_hook.bleu_tokenize`` (texar-pytorch 0.1.4 copies it as
``bleu_transformer_tokenize``): the same three rules in Python ``re``, with ``[^\\d]`` (not
a decimal digit) where intl has ``\\P{N}`` (not a number), so ``5 ½!`` splits to ``5 ½ !``;
the classes are built from ``unicodedata`` categories P* and S* written into brackets
unescaped (so ``@[\\]_`` escapes ``]`` and leaves the backslash out of the punctuation).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable
from functools import cache
from typing import Any

__all__ = [
    "MTEVAL_INTL_ENTITIES",
    "decode_mteval_intl",
    "tokenize_intl",
    "tokenize_mteval_intl",
    "tokenize_t2t",
]


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


def _ranges(chars: Iterable[str]) -> str:
    """``chars`` as a bracket class body of ``\\U`` ranges (``re`` tries the code points
    above U+FFFF of a class one item at a time: as ranges, some hundred instead of 8000)."""
    spans: list[list[int]] = []
    for x in sorted(map(ord, chars)):
        if spans and spans[-1][1] == x - 1:
            spans[-1][1] = x
        else:
            spans.append([x, x])
    return "".join(f"\\U{a:08x}" + (f"-\\U{b:08x}" if b > a else "") for a, b in spans)


@cache
def _t2t_rules() -> tuple[tuple[re.Pattern[str], str], ...]:
    """tensor2tensor's patterns, on first use (the classes scan every code point). Its
    classes write the P* and S* characters into brackets unescaped, which ``re`` reads as
    those characters but the backslash (``\\]`` is an escaped bracket, ``,-.`` a range of
    the same three): the same sets, written as ranges."""
    categories = [unicodedata.category(chr(x))[0] for x in range(sys.maxunicode)]
    punct = _ranges(chr(x) for x, c in enumerate(categories) if c == "P" and x != ord("\\"))
    symbols = _ranges(chr(x) for x, c in enumerate(categories) if c == "S")
    return (
        (re.compile(r"([^\d])([" + punct + "])"), r"\1 \2 "),
        (re.compile("([" + punct + r"])([^\d])"), r" \1 \2"),
        (re.compile("([" + symbols + "])"), r" \1 "),
    )


def tokenize_t2t(line: str) -> str:
    """Return ``line`` tokenized as tensor2tensor's ``bleu_tokenize`` does."""
    for pattern, replacement in _t2t_rules():
        line = pattern.sub(replacement, line)
    return line


#: The entities mteval's international tokenization decodes, in its order.
MTEVAL_INTL_ENTITIES = (
    ("&quot;", '"'),
    ("&amp;", "&"),
    ("&lt;", "<"),
    ("&gt;", ">"),
    ("&apos;", "'"),
)


def decode_mteval_intl(line: str) -> str:
    """mteval's case-sensitive international steps: drop ``<skipped>``, decode 5 entities."""
    line = line.replace("<skipped>", "")
    if "&" in line:
        for entity, char in MTEVAL_INTL_ENTITIES:
            line = line.replace(entity, char)
    return line


def tokenize_mteval_intl(line: str) -> str:
    """Return ``line`` tokenized by mteval's ``tokenization_international`` (no lowercasing)."""
    return tokenize_intl(decode_mteval_intl(line))
