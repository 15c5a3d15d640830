"""Number formats of the reports."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from conformance.reporters import numbers


@pytest.mark.parametrize(
    ("value", "plain", "pretty"),
    [
        (0.0, "0", "0"),
        (1e-77, "1e-77", "1×10⁻⁷⁷"),
        (-2.5e-12, "-2.5e-12", "−2.5×10⁻¹²"),
        (0.59512, "0.595", "0.595"),
        (2.5e6, "2.5e+06", "2.5×10⁶"),
        (12345, "12345", "12,345"),
        (Fraction(1, 3), "0.333", "0.333"),
        (math.nan, "nan", "NaN"),
        (-math.inf, "-inf", "−∞"),
        (None, "–", "–"),
    ],
)
def test_short_and_pretty(value, plain, pretty):
    assert numbers.short(value) == plain
    assert numbers.pretty(value) == pretty


def test_fixed_count_percent():
    assert numbers.fixed(34.5678) == "34.57"
    assert numbers.fixed(Fraction(1, 8), 3) == "0.125"
    assert numbers.count(1234567) == "1,234,567"
    assert numbers.percent(0.25) == "25.0%"
    assert numbers.percent(None) == "–"
    assert numbers.superscript(-77) == "⁻⁷⁷"


def test_a_score_never_prints_minus_zero():
    assert numbers.fixed(-0.0) == "0.00" and numbers.fixed(-0.004) == "0.00"
    assert numbers.fixed(-0.0, sign=True) == "+0.00"
    assert numbers.fixed(-0.004, sign=True) == "-0.00"  # a difference keeps its direction
    assert numbers.fixed(-1.0) == "-1.00" and numbers.fixed(None) == numbers.EMPTY


def test_exact_and_signed():
    assert numbers.exact(Fraction(0, 1)) == "0/1" and numbers.exact(0.1 + 0.2) == repr(0.1 + 0.2)
    assert numbers.exact([1, 2]) == "[1, 2]" and numbers.exact(None) == numbers.EMPTY
    assert numbers.short(-5.954, sign=True) == "-5.95" and numbers.short(3, sign=True) == "+3"


def test_exponent_text():
    assert numbers.exponent_text("1.22e-75") == "1.22×10⁻⁷⁵"
    assert numbers.exponent_text("+2e+06") == "+2×10⁶"
    assert numbers.exponent_text("-1.5e-80") == "−1.5×10⁻⁸⁰"
    assert numbers.exponent_text("edge.1e5-case") == "edge.1e5-case"
    assert numbers.exponent_text("59.5") == "59.5"
