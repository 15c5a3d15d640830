"""The ``13a`` tokenizer of mteval-v13a.pl (sub ``tokenization``), also used by sacrebleu.

Source: sub ``tokenization`` of mteval-v13a.pl (moses-smt/mosesdecoder@34452895,
scripts/generic/mteval-v13a.pl) and sacrebleu's ``Tokenizer13a``
(sacrebleu/tokenizers/tokenizer_13a.py). Steps: drop ``<skipped>``, join ``-`` + newline,
newlines to spaces, decode ``&quot; &amp; &lt; &gt;`` (in that order, nothing else), pad with
a space at both ends, space out the ASCII punctuation set, split ``.``/``,`` unless between
digits, split ``-`` after a digit. Lowercasing is a separate knob; whitespace collapsing is
left to the final split.
"""

from __future__ import annotations

import re

__all__ = ["ENTITIES", "PUNCT", "apply_rules", "tokenize_13a"]

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


def tokenize_13a(line: str) -> str:
    """Return ``line`` tokenized by the 13a rules, tokens separated by whitespace."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in ENTITIES:
            line = line.replace(entity, char)
    return apply_rules(f" {line} ")
