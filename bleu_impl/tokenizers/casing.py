"""Lowercasing rules (knob ``lowercase``): ASCII only, as mteval-v13a.pl's ``tr/A-Z/a-z/``
and multi-bleu.perl's ``lc`` on bytes; full Unicode, as Python's ``str.lower`` (sacrebleu
``lowercase=True``); or Perl's ``lc`` on decoded text (multi-bleu-detok.perl ``-lc``)."""

from __future__ import annotations

__all__ = ["CONTEXT_FREE", "LOWERCASERS", "lower_ascii", "lower_perl", "lower_unicode"]

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def lower_ascii(text: str) -> str:
    """Map A-Z to a-z only, like mteval's ``tr/A-Z/a-z/`` and Perl ``lc`` on bytes."""
    return text.translate(_ASCII_LOWER)


def lower_unicode(text: str) -> str:
    """Full Unicode lowercasing with Python's one context rule: a capital sigma at the end
    of a word becomes final sigma ``ς`` (``str.lower()``)."""
    return text.lower()


def lower_perl(text: str) -> str:
    """Perl ``lc`` on a decoded string: every character lowercased on its own (full case
    mapping, ``İ`` -> ``i̇``), with no final-sigma rule (``ΟΔΟΣ`` -> ``οδοσ``).

    ``str.lower`` of each character equals Perl 5.36's ``lc`` on every code point when both
    use Unicode 14.0 (Python 3.11); only capital sigma depends on context in ``str.lower``,
    so it is mapped first.
    """
    if "Σ" in text:
        text = text.replace("Σ", "σ")
    return text.lower()


#: ``lowercase`` knob value -> its rule.
LOWERCASERS = {"ascii": lower_ascii, "unicode": lower_unicode, "perl-lc": lower_perl}

#: The rules that map each character on its own and never produce or remove whitespace,
#: ASCII punctuation or digits: they commute with the tokenizers' space insertion and with
#: the final split (``unicode`` does not: final sigma looks at the neighbours).
CONTEXT_FREE = frozenset({"ascii", "perl-lc"})
