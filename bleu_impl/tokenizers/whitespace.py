"""Whitespace splitting: the ``tokenize="none"`` tokenizer and the final split of every other.

Which characters separate tokens differs between implementations: Python's ``str.split()``
(sacrebleu; the usual way to feed NLTK) also splits on U+001C-U+001F; Perl's ``\\s`` on
decoded strings (mteval-v13a.pl, multi-bleu-detok.perl) does not; and Perl on undecoded bytes
(multi-bleu.perl) splits on ASCII whitespace only, so a NO-BREAK SPACE stays inside a token.
"""

from __future__ import annotations

import re

__all__ = ["SPLITTERS", "split_perl_bytes", "split_perl_unicode", "split_python"]

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


SPLITTERS = {
    "python": split_python,
    "perl-unicode": split_perl_unicode,
    "perl-bytes": split_perl_bytes,
}
