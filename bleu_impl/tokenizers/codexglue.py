"""CodeXGLUE's ``splitPuncts`` (knob ``tokenize="codexglue"``).

``' '.join(re.findall(r"[\\w]+|[^\\s\\w]", line))`` (microsoft/CodeXGLUE
``Code-Text/code-to-text/code/bleu.py``): runs of word characters (Python's Unicode ``\\w``)
and every other non-space character alone. CodeXGLUE then applies mteval-v11a's
normalisation, which changes no token boundary once punctuation stands alone: its entity
and ``<skipped>`` rules need characters splitPuncts has already separated.
"""

from __future__ import annotations

import re

__all__ = ["tokenize_codexglue"]

_TOKEN = re.compile(r"[\w]+|[^\s\w]")


def tokenize_codexglue(line: str) -> str:
    """The tokens of ``line`` separated by single spaces."""
    return " ".join(_TOKEN.findall(line))
