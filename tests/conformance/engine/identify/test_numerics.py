"""Precision read off the answers: float32, float64, printed, and printed read back into a
float32 (texar-pytorch 0.1.4's ``corpus_bleu_moses``: multi-bleu.perl's "BLEU = 60.65"
parsed into ``np.float32``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from conformance.engine.identify.numerics import FLOAT32, FLOAT64, precision_of

#: multi-bleu.perl's printed scores of the paper's candidates and a few edge fixtures.
PRINTED = (60.65, 83.76, 54.75, 95.99, 50.46)


def test_printed_values_are_printed():
    found = precision_of([p / 100 for p in PRINTED])
    assert (found.kind, found.decimals) == ("printed", 4)


@pytest.mark.parametrize(("factor", "decimals"), [(1, 4), (100, 2)])
def test_printed_values_read_back_into_a_float32_are_printed(factor, decimals):
    """On 0-1 (the float32 divided by 100 in float64) and on 0-100 as returned."""
    raw = [float(np.float32(p)) * factor / 100 for p in PRINTED]
    assert any(r * 10**decimals != round(r * 10**decimals) for r in raw)  # 54.75 is exact
    found = precision_of(raw, factor)
    assert (found.kind, found.decimals) == ("printed", decimals)
    assert "read back into a float32" in found.evidence


def test_float32_and_float64_results_are_not_taken_for_printed_ones():
    """3 scores (the fewest precision is decided on) of uniform values, 5,000 times each."""
    rng = random.Random(7)
    for _ in range(5_000):
        single = [float(np.float32(rng.random())) for _ in range(3)]
        double = [rng.random() for _ in range(3)]
        assert precision_of(single).kind == FLOAT32, single
        assert precision_of(double).kind == FLOAT64, double
