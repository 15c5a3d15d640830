"""Number formats shared by every reporter: one readable rendering per kind of number.

Plain-text reports use ASCII exponents (``1e-77``, what people paste into a terminal or
issue); the HTML report and the SVG figures use ``1×10⁻⁷⁷``, which never wraps inside a
cell and reads as a number rather than a word.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

__all__ = [
    "EMPTY",
    "count",
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


def _special(value: float) -> str | None:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return None


def count(value: int | None) -> str:
    """An integer count with thousands separators: ``12,345``."""
    return EMPTY if value is None else f"{value:,}"


def fixed(value: Number | None, decimals: int = 2) -> str:
    """A score at the precision people print (two decimals on 0–100 by default)."""
    if value is None:
        return EMPTY
    special = _special(float(value))
    return special if special is not None else f"{float(value):.{decimals}f}"


def percent(share: float | None, decimals: int = 1) -> str:
    """A share in [0, 1] as a percentage: ``0.25`` -> ``25.0%``."""
    return EMPTY if share is None else f"{100 * share:.{decimals}f}%"


def short(value: Number | None, digits: int = 3) -> str:
    """Plain text: ``digits`` significant digits, ASCII exponent for the very small or large
    (``0.595``, ``1e-77``, ``12.3``)."""
    if value is None:
        return EMPTY
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    number = float(value)
    special = _special(number)
    return special if special is not None else f"{number:.{digits}g}"


def pretty(value: Number | None, digits: int = 3) -> str:
    """For HTML and figures: like :func:`short`, with ``×10ⁿ`` exponents and integers grouped
    (``1×10⁻⁷⁷``, ``2.5×10⁶``, ``12,345``)."""
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
