"""Correctly rounded sums of the same floats taken with many multiplicities, in numpy.

A bootstrap resample of a macro mean sums ``S`` segment scores drawn with repetition:
``sum_s w_s x_s`` with integer multiplicities ``w_s`` (``sum_s w_s = S``). ``math.fsum``
returns the exact sum rounded once (round half to even); so does this module, without a
Python loop over the values: every finite ``x_s >= 0`` is an integer ``V_s`` times ``2**L``
(``L`` the smallest exponent of a last mantissa bit among them), ``V_s`` is cut into limbs
of ``k`` bits, and each limb column's weighted sums are one float64 matrix product, exact
because every product and partial sum is an integer below ``2**52``
(``k = 52 - bit_length(max_i sum_s w_s)``). The limbs are put together as a Python
integer ``T`` and ``T * 2**L`` is rounded once (``int / int`` is correctly rounded).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["Limbs", "limbs_of"]

#: The float64 mantissa: 53 bits.
_MANTISSA = 53


@dataclass(frozen=True)
class Limbs:
    """Values as ``sum_j A[:, j] * 2**(j * bits)`` times ``2**shift`` (``A`` exact
    integers below ``2**bits`` stored as float64)."""

    matrix: NDArray[np.float64]
    bits: int
    shift: int

    def sums(self, weights: NDArray[np.float64]) -> list[float]:
        """Per row of ``weights`` (integer multiplicities as float64, each row summing to
        at most the ``total`` given to :func:`limbs_of`): ``sum_s w_s x_s`` rounded once."""
        import numpy as np

        parts = np.rint(weights @ self.matrix).astype(np.int64).tolist()
        out = []
        for row in parts:
            total = 0
            for j in range(len(row) - 1, -1, -1):
                total = (total << self.bits) + row[j]
            out.append(_scaled(total, self.shift))
        return out


def _scaled(total: int, shift: int) -> float:
    """``total * 2**shift`` rounded once."""
    return total / (1 << -shift) if shift < 0 else float(total << shift)


def limbs_of(values: NDArray[np.float64], total: int) -> Limbs | None:
    """The limbs of ``values`` for weights whose rows sum to at most ``total``; None when
    a value is negative or not finite (sum those with ``math.fsum``)."""
    import numpy as np

    if not len(values) or not np.isfinite(values).all() or (values < 0).any():
        return None
    bits = 52 - max(1, total).bit_length()
    if bits < 1:
        return None
    fraction, exponent = np.frexp(values)
    mantissa = (fraction * float(1 << _MANTISSA)).astype(np.int64).tolist()
    unit = (exponent.astype(np.int64) - _MANTISSA).tolist()
    nonzero = [u for m, u in zip(mantissa, unit) if m]
    if not nonzero:
        return Limbs(np.zeros((len(values), 1)), bits, 0)
    shift = min(nonzero)
    integers = [m << (u - shift) if m else 0 for m, u in zip(mantissa, unit)]
    width = max(integers).bit_length()
    count = max(1, -(-width // bits))
    mask = (1 << bits) - 1
    matrix = np.array(
        [[(v >> (j * bits)) & mask for j in range(count)] for v in integers], dtype=np.float64
    )
    return Limbs(matrix, bits, shift)
