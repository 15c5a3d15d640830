"""Lowercasing rules (knob ``lowercase``): ASCII only, as mteval-v13a.pl's ``tr/A-Z/a-z/``
and multi-bleu.perl's ``lc`` on bytes; or full Unicode, as Python's ``str.lower`` (sacrebleu
``lowercase=True``)."""

from __future__ import annotations

__all__ = ["LOWERCASERS", "lower_ascii", "lower_unicode"]

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def lower_ascii(text: str) -> str:
    """Map A-Z to a-z only, like mteval's ``tr/A-Z/a-z/`` and Perl ``lc`` on bytes."""
    return text.translate(_ASCII_LOWER)


def lower_unicode(text: str) -> str:
    """Full Unicode lowercasing (``str.lower()``; Perl ``lc`` on decoded strings)."""
    return text.lower()


LOWERCASERS = {"ascii": lower_ascii, "unicode": lower_unicode}
