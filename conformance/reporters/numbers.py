"""Number formats shared by every reporter: one rendering per kind of number, and one glyph,
:data:`EMPTY`, for a number that is missing.

Plain-text reports write numbers as Python does, with ASCII exponents and signs (``1e-77``,
``-5.95``, ``nan``: what people paste into a terminal or issue); the HTML report and the
SVG figures use ``1×10⁻⁷⁷`` and ``−``, which never wrap inside a cell and read as numbers
rather than words.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from typing import Any

__all__ = [
    "EMPTY",
    "count",
    "exact",
    "exponent_text",
    "fixed",
    "percent",
    "pretty",
    "short",
    "superscript",
]

EMPTY = "–"
_SUPERSCRIPT = str.maketrans("0123456789-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")

Number = int | float | Fraction


def superscript(exponent: int) -> str:
    """``-77`` -> ``⁻⁷⁷``."""
    return str(exponent).translate(_SUPERSCRIPT)


def count(value: int | float | None) -> str:
    """A count with thousands separators: ``12,345`` (a rate rounded to a whole number)."""
    return EMPTY if value is None else f"{value:,.0f}"


def fixed(value: Number | None, decimals: int = 2, sign: bool = False) -> str:
    """At the precision people print (BLEU on 0–100 with two decimals: ``34.57``); ``sign``
    writes ``+`` too. -0.0 (an implementation's answer) is 0; without ``sign``, a negative
    number that rounds to zero prints as zero too, so a score never reads ``-0.00`` (a signed
    difference keeps its direction)."""
    if value is None:
        return EMPTY
    text = f"{float(value) + 0.0:{'+' if sign else ''}.{decimals}f}"
    return text[1:] if not sign and text.startswith("-") and not text.strip("-0.") else text


def percent(share: float | None, decimals: int = 1) -> str:
    """A share in [0, 1] as a percentage: ``0.25`` -> ``25.0%``."""
    return EMPTY if share is None else f"{100 * share:.{decimals}f}%"


def short(value: Number | None, digits: int = 3, sign: bool = False) -> str:
    """Plain text: ``digits`` significant digits, ASCII exponent for the very small or large
    (``0.595``, ``1e-77``, ``12.3``; with ``sign``: ``+0.3``, ``-5.95``); integers whole. The
    size of a difference, which spans 1e-77 to 100, reads best this way."""
    if value is None:
        return EMPTY
    plus = "+" if sign else ""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:{plus}d}"
    return f"{float(value):{plus}.{digits}g}"


def exact(value: Any) -> str:
    """A value with every digit, as recorded or computed: an exact ratio as ``n/d`` (``0/1``
    too), a float as ``repr``, lists and mappings as JSON."""
    if value is None:
        return EMPTY
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        return repr(value)
    return json.dumps(value) if isinstance(value, list | dict) else str(value)


def _special(value: float) -> str | None:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return None


def pretty(value: Number | None, digits: int = 3) -> str:
    """For HTML and figures: like :func:`short`, with ``×10ⁿ`` exponents, ``−`` signs and
    integers grouped (``1×10⁻⁷⁷``, ``2.5×10⁶``, ``12,345``, ``NaN``, ``∞``)."""
    if value is None:
        return EMPTY
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    number = float(value)
    special = _special(number)
    if special is not None:
        return special
    text = f"{number:.{digits}g}"
    if "e" not in text:
        return text.replace("-", "−")
    mantissa, exponent = text.split("e")
    sign = "−" if mantissa.startswith("-") else ""
    mantissa = mantissa.lstrip("-")
    return f"{sign}{mantissa}×10{superscript(int(exponent))}"


_EXPONENT = re.compile(r"([+-]?)(\d+(?:\.\d+)?)e([+-]?\d+)")


def exponent_text(text: str) -> str:
    """A plain-text number with an ``e`` exponent (``+1.2e-75``) in the ``×10ⁿ`` form;
    any other text unchanged."""
    match = _EXPONENT.fullmatch(text.strip())
    if match is None:
        return text
    sign, mantissa, exponent = match.groups()
    sign = {"-": "−", "+": "+"}.get(sign, "")
    return f"{sign}{mantissa}×10{superscript(int(exponent))}"
