"""The ``13a`` tokenizer of mteval-v13a.pl (sub ``tokenization``), also used by sacrebleu.

Source: sub ``tokenization`` of mteval-v13a.pl (moses-smt/mosesdecoder@34452895,
scripts/generic/mteval-v13a.pl) and sacrebleu's ``Tokenizer13a``
(sacrebleu/tokenizers/tokenizer_13a.py). Two parts: :func:`decode_13a`, the case-sensitive
steps (drop ``<skipped>``, join ``-`` + newline, newlines to spaces, decode ``&quot; &amp;
&lt; &gt;`` in that order and nothing else), then :func:`rules_13a` (pad with a space at both
ends, space out the ASCII punctuation set, split ``.``/``,`` unless between digits, split
``-`` after a digit). mteval lowercases between the two (knob ``lowercase_stage``); the
rules never look at case. Whitespace collapsing is left to the final split.
"""

from __future__ import annotations

import re

__all__ = ["ENTITIES", "PUNCT", "apply_rules", "decode_13a", "rules_13a", "tokenize_13a"]

#: The four entities 13a decodes, in its order (nothing else is decoded).
ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))

# mteval-v13a.pl: s/([\{-\~\[-\` -\&\(-\+\:-\@\/])/ $1 /g
PUNCT = re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])")
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def apply_rules(line: str) -> str:
    """The four regex rules (sacrebleu's ``TokenizerRegexp``, shared by ``13a`` and ``zh``):
    space out the punctuation class, split ``.``/``,`` unless between digits, split ``-``
    after a digit. No padding: ``zh`` applies them to the bare line."""
    line = PUNCT.sub(r" \1 ", line)
    line = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", line)
    line = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", line)
    return _DASH_AFTER_DIGIT.sub(r"\1 \2 ", line)


def decode_13a(line: str) -> str:
    """13a's case-sensitive steps: ``<skipped>``, line joins, the four entities."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in ENTITIES:
            line = line.replace(entity, char)
    return line


def rules_13a(line: str) -> str:
    """13a's splitting rules on a decoded line; tokens separated by whitespace."""
    return apply_rules(f" {line} ")


def tokenize_13a(line: str) -> str:
    """Return ``line`` tokenized by the 13a rules, tokens separated by whitespace."""
    return rules_13a(decode_13a(line))
