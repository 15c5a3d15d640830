"""The brevity penalty variants (knob ``brevity_penalty``).

* ``standard`` (Papineni et al. 2002, section 2.2.2): ``1`` if c > r; ``0`` if c = 0; else
  ``exp(1 - r/c)``.
* ``plus-one`` (CodeXGLUE ``bleu.py`` ``score_cooked``): ``exp(min(0, 1 - (r + 1)/(c + 1)))``,
  defined at c = 0 (``exp(-r)``).
* ``coco-eps`` (pycocoevalcap 1.2 ``bleu_scorer.py``): ``ratio = (c + 1e-15)/(r + 1e-9)`` in
  floats, ``exp(1 - 1/ratio)`` when ratio < 1, else 1; so c = r gives slightly less than 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

__all__ = ["BREVITY_PENALTIES", "brevity_penalty", "penalty"]


def brevity_penalty(hyp_len: int, ref_len: int | Fraction) -> float:
    """``1`` if c > r; ``0`` if c = 0; else ``exp(1 - r/c)`` (paper section 2.2.2)."""
    if hyp_len > ref_len:
        return 1.0
    if hyp_len == 0:
        return 0.0
    return math.exp(1 - ref_len / hyp_len)


def plus_one(hyp_len: int, ref_len: int | Fraction) -> float:
    """``exp(min(0, 1 - (r + 1)/(c + 1)))``."""
    return math.exp(min(0.0, 1 - float(ref_len + 1) / (hyp_len + 1)))


def coco_eps(hyp_len: int, ref_len: int | Fraction) -> float:
    """``exp(1 - 1/ratio)`` with ``ratio = (c + 1e-15)/(r + 1e-9)`` below 1, else 1."""
    ratio = (hyp_len + 1e-15) / (float(ref_len) + 1e-9)
    return math.exp(1 - 1 / ratio) if ratio < 1 else 1.0


#: ``brevity_penalty`` knob value -> ``(c, r) -> BP``.
BREVITY_PENALTIES: dict[str, Callable[[int, int | Fraction], float]] = {
    "standard": brevity_penalty,
    "plus-one": plus_one,
    "coco-eps": coco_eps,
}


def penalty(rule: str, empty_ref: str, hyp_len: int, ref_len: int | Fraction) -> float:
    """The brevity penalty under knob ``brevity_penalty`` = ``rule``, except that
    ``empty_ref='bp-one'`` makes it 1 whenever r = 0, c = 0 included (sacrebleu tests
    ``c < r`` first); ``'rule'`` leaves r = 0 to the rule (standard: 0 at c = 0, as NLTK's
    ``brevity_penalty`` tests ``c > r`` and then ``c == 0``)."""
    if ref_len == 0 and empty_ref == "bp-one":
        return 1.0
    if ref_len < 0:  # sacrebleu's -1 per empty hypothesis without a reference: c > r
        return 1.0
    return BREVITY_PENALTIES[rule](hyp_len, ref_len)
