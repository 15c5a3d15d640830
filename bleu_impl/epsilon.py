"""Smoothing methods that rewrite the precision of every order (knob ``smoothing``).

Each order n gets a value from its sums (m_n, l_n) alone, so no order is ever absent or
zero-matched, and the score is never forced to 0:

* ``coco-eps`` (pycocoevalcap 1.2 ``bleu_scorer.py``, ``compute_score``): ``p_n = (m_n +
  1e-15) / (l_n + 1e-9)`` in floats, the constants ``tiny`` and ``small``;
* ``allennlp-eps`` (AllenNLP 2.10 ``training/metrics/bleu.py``, ``get_metric``): ``ln p_n =
  ln(m_n + 1e-13) - ln(l_n + 1e-13)``;
* ``add-one-fmin`` (CodeXGLUE ``Code-Text/code-to-text/code/bleu.py``, ``score_cooked`` with
  ``smooth=1``): ``ln p_n = ln(m_n + a_n + f) - ln(l_n + a_n + f)`` with ``a_1 = 0``, ``a_n = 1``
  for n >= 2 (Lin & Och 2004) and ``f = sys.float_info.min``; an order with ``l_1 = 0`` gets
  ``f / f = 1``, a unigram order without matches ``f / l_1``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from fractions import Fraction

__all__ = ["EVERY_ORDER", "Number"]

Number = Fraction | float

_FLOAT_MIN = sys.float_info.min


def _coco(n: int, m: int, l: int) -> Number:
    return (float(m) + 1e-15) / (float(l) + 1e-9)


def _allennlp(n: int, m: int, l: int) -> Number:
    return math.exp(math.log(m + 1e-13) - math.log(l + 1e-13))


def _add_one_fmin(n: int, m: int, l: int) -> Number:
    add = 1 if n >= 2 else 0
    if m + add == 0:  # ln(f) - ln(l + f): f / l, or 1 when l = 0 too
        return Fraction(1) if l == 0 else Fraction(_FLOAT_MIN) / l
    return Fraction(m + add, l + add)


#: smoothing knob value -> ``(n, m_n, l_n) -> p_n``.
EVERY_ORDER: dict[str, Callable[[int, int, int], Number]] = {
    "coco-eps": _coco,
    "allennlp-eps": _allennlp,
    "add-one-fmin": _add_one_fmin,
}
