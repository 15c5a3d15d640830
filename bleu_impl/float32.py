"""Single-precision arithmetic (knob ``arithmetic="float32"``), as torch and keras tensors do.

torchmetrics 1.9 ``_bleu_score_compute`` (and torcheval 0.0.7, torchtext 0.18) keep counts in
float32 tensors: ``p_n = m_n / l_n``, ``w_n * log(p_n)``, their sum, ``exp`` and the brevity
penalty ``exp(1 - r/c)`` are all rounded to float32 after each operation. This module performs
the same operations with numpy float32 scalars; torch's vectorised ``log``/``exp`` may differ
from numpy's by an ulp, so results agree with the libraries to ~1e-7 relative, not bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

__all__ = ["as_float32", "float32_bleu"]

_EXACT_F32 = 2**24  # integers up to this are exact in float32


def as_float32(value: Fraction | float | int) -> float:
    """``value`` rounded to float32 (a Fraction of exact integers: one correctly rounded
    float32 division, as ``tensor(m) / tensor(l)`` does)."""
    import numpy as np

    if isinstance(value, Fraction) and max(value.numerator, value.denominator) <= _EXACT_F32:
        return float(np.float32(value.numerator) / np.float32(value.denominator))
    return float(np.float32(float(value)))


def float32_bleu(
    terms: Sequence[tuple[float, Fraction | float]],
    hyp_len: int,
    ref_len: Fraction | int,
    bp: float | None = None,
) -> float:
    """``BP * exp(sum w_n log p_n)`` in float32; ``terms`` are the (w_n, p_n) in the sum.
    ``bp``: a brevity penalty computed elsewhere (another variant), rounded to float32;
    None: the standard one, in float32."""
    import numpy as np

    f32 = np.float32
    total = f32(0.0)
    for weight, precision in terms:
        single = f32(as_float32(precision))
        if single == 0:  # below float32's range (NLTK's float-min): log 0, the score is 0
            return 0.0
        total = f32(total + f32(weight) * np.log(single))
    geometric_mean = np.exp(total)
    if bp is not None:
        penalty = f32(bp)
    elif hyp_len > ref_len:
        penalty = f32(1.0)
    elif hyp_len == 0:
        penalty = f32(0.0)
    else:
        penalty = np.exp(f32(1.0) - f32(as_float32(ref_len)) / f32(hyp_len))
    return float(f32(penalty * geometric_mean))
