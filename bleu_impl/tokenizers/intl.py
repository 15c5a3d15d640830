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


def _category_chars(prefix: str) -> str:
    return "".join(
        chr(x) for x in range(sys.maxunicode) if unicodedata.category(chr(x)).startswith(prefix)
    )


@cache
def _t2t_rules() -> tuple[tuple[re.Pattern[str], str], tuple[re.Pattern[str], str], dict[int, str]]:
    """tensor2tensor's patterns, on first use (the classes scan every code point). Its third
    rule, ``([symbols])`` -> `` \\1 ``, spaces out single characters one by one, so it is a
    translation table: as a class, ~7,700 symbols with some above U+FFFF compile to a list of
    ranges that ``re`` scans for every character (25x slower)."""
    punct, symbols = _category_chars("P"), _category_chars("S")
    return (
        (re.compile(r"([^\d])([" + punct + "])"), r"\1 \2 "),
        (re.compile("([" + punct + r"])([^\d])"), r" \1 \2"),
        {ord(char): f" {char} " for char in symbols},
    )


def tokenize_t2t(line: str) -> str:
    """Return ``line`` tokenized as tensor2tensor's ``bleu_tokenize`` does."""
    (first, one), (second, two), symbols = _t2t_rules()
    return second.sub(two, first.sub(one, line)).translate(symbols)


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
