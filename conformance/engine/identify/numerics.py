"""Precision and scale, read off the answers themselves.

*Precision*: a float32 result widened to a Python float is a float32 number; a float64
computation of a BLEU that is not 0 or 1 almost never is (the chance is about 2**-29 per
score). A score printed with d decimals is a multiple of 10**-d. So the answers say which
of the three the implementation does, and a float32 profile is named only for answers that
are float32 numbers. *Scale*: an answer that is a constant factor (x100, x0.01) away from
the candidate's value is its own finding, never absorbed into "matches".
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["FLOAT32", "FLOAT64", "Precision", "precision_of", "scale_finding"]

FLOAT32 = "float32"
FLOAT64 = "float64"

#: Non-trivial scores needed before precision is decided (fewer: undecided, "").
_ENOUGH = 3
#: Decimals a printed answer is looked for with.
_MAX_DECIMALS = 6
#: The relative error of a value rounded to float32 and scaled once in float64 (2**-24
#: each, with room), and the decimals looked for within it: a float32 result near 1 is this
#: close to a 4-decimal grid point by chance with probability about 0.5% per score (every
#: non-trivial score must be, at least three), to a 6-decimal one about half the time.
_FLOAT32_ROUNDING = 2.0**-22
_FLOAT32_DECIMALS = 4


class Precision:
    """What the answers say of the implementation's numbers: ``kind`` is ``float32``,
    ``float64``, ``printed`` (``decimals`` digits) or ``""`` (too few non-trivial scores)."""

    def __init__(self, kind: str, decimals: int | None, evidence: str) -> None:
        self.kind, self.decimals, self.evidence = kind, decimals, evidence

    def half_unit(self, scale: int) -> float:
        """Half a unit of the printed digit, on 0..1 (0 unless printed)."""
        return 0.5 * 10.0**-self.decimals / scale if self.decimals is not None else 0.0

    def admits(self, single: bool) -> bool:
        """Whether a candidate computing in float32 (``single``) or float64 may be named."""
        if self.kind == FLOAT64:
            return not single
        if self.kind == FLOAT32:
            return single
        return True


def _decimals(score: float, relative: float = 1e-9, most: int = _MAX_DECIMALS) -> int | None:
    """The fewest decimals (up to ``most``) ``score`` has, to within ``relative`` of its size."""
    for d in range(most + 1):
        scaled = score * 10**d
        if abs(scaled - round(scaled)) <= relative * max(1.0, abs(scaled)):
            return d
    return None


def _printed(
    scores: Sequence[float], how: str, relative: float = 1e-9, most: int = _MAX_DECIMALS
) -> Precision | None:
    decimals = [_decimals(s, relative, most) for s in scores]
    if any(d is None for d in decimals):
        return None
    digits = max(d for d in decimals if d is not None)
    return Precision(
        "printed",
        digits,
        f"every one of {len(scores)} scores other than 0 and 1 has at most {digits} decimals"
        f"{how}: printed values (declare bleu_precision={digits})",
    )


def precision_of(scores: Sequence[float], factor: float = 1) -> Precision:
    """The precision the raw answers (on the implementation's own scale) show; ``factor``:
    the constant factor they may carry (a float32 result times 100 is not a float32 number,
    its quotient by 100 is)."""
    nontrivial = [s for s in scores if s not in (0.0, 1.0, 100.0)]
    if len(nontrivial) < _ENOUGH:
        return Precision("", None, f"only {len(nontrivial)} scores other than 0 and 1")
    printed = _printed(nontrivial, "") or _printed(
        nontrivial,
        " to float32 precision (read back into a float32)",
        _FLOAT32_ROUNDING,
        _FLOAT32_DECIMALS,
    )
    if printed is not None:
        return printed
    import numpy as np  # ~0.2 s: only when the answers are examined, never for --help

    wide = [s for s in nontrivial if float(np.float32(s / factor)) * factor != s]
    if not wide:
        return Precision(
            FLOAT32,
            None,
            f"every one of {len(nontrivial)} scores other than 0 and 1 is a float32 number: "
            "it computes or rounds its result in float32",
        )
    return Precision(
        FLOAT64,
        None,
        f"{len(wide)} of {len(nontrivial)} scores other than 0 and 1 are not float32 numbers "
        f"(e.g. {wide[0]!r}): it computes in float64, so no setting whose result is a "
        "float32 number is named",
    )


def scale_finding(factor: float, declared: int) -> str:
    """The finding of answers ``factor`` times the candidate's value ('' when 1)."""
    if factor == 1:
        return ""
    return (
        f"a constant factor: every answer is {factor:g} x the value on the declared scale "
        f"(0-{declared}); it returns 0-{declared * factor:g} (declare bleu_scale="
        f"{declared * factor:g}, or fix the factor)"
    )
