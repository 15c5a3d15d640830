"""N-grams identified by joined strings (knob ``ngram_join``), as fast-bleu and torchtext do.

* ``space`` (fast-bleu 0.0.90 ``cpp_sources/sources/nltk.cpp``, ``get_ngrams``): an n-gram is
  its tokens joined with single spaces, per order; tokens containing spaces can collide
  (``("a b", "c")`` and ``("a", "b c")`` are one bigram).
* ``space-resplit`` (torchtext 0.18 ``data/metrics.py``, ``_compute_ngram_counter``): every
  n-gram of orders 1..N is joined with spaces and split again on ``" "``; the pieces form the
  key, counted in one table for all orders, and a clipped match counts at the order of the
  key's length, which a token containing a space changes (an order above N is torchtext's
  ``IndexError``). Hypothesis totals are the usual ``max(0, |h| - n + 1)``.

Without spaces inside tokens both equal tuple n-grams.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .errors import EmulatedFailure

__all__ = ["joined_counts"]

Tokens = Sequence[str]


def _joined(tokens: Tokens, n: int) -> Counter[str]:
    return Counter(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _space_counts(hyp: Tokens, refs: Sequence[Tokens], max_order: int) -> tuple[int, ...]:
    counts = []
    for n in range(1, max_order + 1):
        hyp_grams = _joined(hyp, n)
        best: Counter[str] = Counter()
        for ref in refs:
            best |= _joined(ref, n)
        counts.append(sum(min(c, best[g]) for g, c in hyp_grams.items()))
    return tuple(counts)


def _resplit_table(tokens: Tokens, max_order: int) -> Counter[tuple[str, ...]]:
    table: Counter[tuple[str, ...]] = Counter()
    for n in range(1, max_order + 1):
        for gram in _joined(tokens, n).elements():
            table[tuple(gram.split(" "))] += 1
    return table


def _resplit_counts(hyp: Tokens, refs: Sequence[Tokens], max_order: int) -> tuple[int, ...]:
    hyp_table = _resplit_table(hyp, max_order)
    best: Counter[tuple[str, ...]] = Counter()
    for ref in refs:
        best |= _resplit_table(ref, max_order)
    counts = [0] * max_order
    for key, count in (hyp_table & best).items():
        if len(key) > max_order:
            raise EmulatedFailure(
                "index-error",
                f"the joined n-gram {' '.join(key)!r} splits into {len(key)} pieces, above "
                f"the highest order {max_order} (torchtext's IndexError)",
            )
        counts[len(key) - 1] += count
    return tuple(counts)


def joined_counts(
    hyp: Tokens, refs: Sequence[Tokens], max_order: int, mode: str
) -> tuple[int, ...]:
    """Clipped matches of orders 1..N with joined n-gram keys (``mode``: space or
    space-resplit)."""
    if mode == "space":
        return _space_counts(hyp, refs, max_order)
    return _resplit_counts(hyp, refs, max_order)
