"""The ``parlai`` tokenizer: ParlAI's ``normalize_answer`` after its lowercasing.

Source: facebookresearch/ParlAI@a29567f7 parlai/core/metrics.py (``re_punc``, ``re_art``,
``normalize_answer``): every ASCII punctuation character becomes a space, then every word
``a``/``an``/``the`` (Python ``re`` word boundaries, Unicode), then whitespace runs become one
space. ``normalize_answer`` lowercases (``str.lower``) first: the ``lowercase`` knob.
"""

from __future__ import annotations

import re
import string

__all__ = ["tokenize_parlai"]

_PUNCT = re.compile("[" + re.escape(string.punctuation) + "]")
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def tokenize_parlai(line: str) -> str:
    """Return ``line`` with ParlAI's punctuation and articles removed, single-spaced."""
    return " ".join(_ARTICLES.sub(" ", _PUNCT.sub(" ", line)).split())
