"""Whitespace splitting: the ``tokenize="none"`` tokenizer and the final split of every other.

Which characters separate tokens differs between implementations: Python's ``str.split()``
(sacrebleu; the usual way to feed NLTK) also splits on U+001C-U+001F; Perl's ``\\s`` on
decoded strings (mteval-v13a.pl, multi-bleu-detok.perl) does not; and Perl on undecoded bytes
(multi-bleu.perl) splits on ASCII whitespace only, so a NO-BREAK SPACE stays inside a token.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = [
    "LONG_TEXT",
    "SPLITTERS",
    "UNWINDOWED",
    "split_perl_bytes",
    "split_perl_unicode",
    "split_python",
    "split_shared",
    "split_strip_space",
]

#: Texts longer than this (characters) are split by :func:`split_shared`.
LONG_TEXT = 1 << 20

_PERL_UNICODE_WS = re.compile(r"[^\S\x1c-\x1f]+")
_PERL_BYTES_WS = re.compile(r"[ \t\n\r\f\v]+")


def split_python(text: str) -> list[str]:
    """``str.split()``: every Unicode whitespace character, U+001C-U+001F included."""
    return text.split()


def split_perl_unicode(text: str) -> list[str]:
    """Perl ``split /\\s+/`` on a decoded string: Unicode White_Space, not U+001C-U+001F."""
    return [t for t in _PERL_UNICODE_WS.split(text) if t]


def split_perl_bytes(text: str) -> list[str]:
    """Perl awk-mode ``split`` on undecoded UTF-8 bytes: ASCII whitespace only."""
    return [t for t in _PERL_BYTES_WS.split(text) if t]


def split_strip_space(text: str) -> list[str]:
    """``text.strip().split(" ")``: each single space separates, so two spaces make an empty
    token and an empty line is ``['']``, one token (compare-mt's corpus reader, ParlAI)."""
    return text.strip().split(" ")


SPLITTERS = {
    "python": split_python,
    "perl-unicode": split_perl_unicode,
    "perl-bytes": split_perl_bytes,
    "strip-space": split_strip_space,
}

#: Splitters :func:`split_shared` cannot window (a window's edge would strip a space).
UNWINDOWED = frozenset({"strip-space"})


def split_shared(
    split: Callable[[str], list[str]], text: str, window: int = LONG_TEXT
) -> list[str]:
    """``split(text)``, window by window, every distinct token one object.

    A 100 MB segment holds millions of tokens; as separate ``str`` objects they take about
    ten times the text (43x was measured for a whole score). Windows end at an ASCII
    space, a separator for every splitter here, so the tokens are those of one split.
    """
    shared: dict[str, str] = {}
    tokens: list[str] = []
    start, size = 0, len(text)
    while start < size:
        end = text.find(" ", min(start + window, size))
        end = size if end < 0 else end
        tokens.extend([shared.setdefault(t, t) for t in split(text[start:end])])
        start = end
    return tokens
