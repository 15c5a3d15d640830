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
from typing import Any

from .errors import EmulatedFailure

__all__ = ["joined_clipped", "joined_counts", "joined_pool", "raise_to"]

Tokens = Sequence[str]


def _joined(tokens: Tokens, n: int) -> Counter[str]:
    return Counter(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def raise_to(best: Counter[Any], counts: Counter[Any]) -> None:
    """``best |= counts`` in place, in time linear in ``counts`` (``Counter.__ior__`` rescans
    all of ``best``: quadratic over a corpus-wide pool of references)."""
    for key, count in counts.items():
        if count > best[key]:
            best[key] = count


def _space_best(refs: Sequence[Tokens], max_order: int) -> list[Counter[str]]:
    best: list[Counter[str]] = [Counter() for _ in range(max_order)]
    for n in range(1, max_order + 1):
        for ref in refs:
            raise_to(best[n - 1], _joined(ref, n))
    return best


def _space_clipped(hyp: Tokens, best: list[Counter[str]], max_order: int) -> tuple[int, ...]:
    return tuple(
        sum(min(c, best[n - 1][g]) for g, c in _joined(hyp, n).items())
        for n in range(1, max_order + 1)
    )


def _resplit_table(tokens: Tokens, max_order: int) -> Counter[tuple[str, ...]]:
    table: Counter[tuple[str, ...]] = Counter()
    for n in range(1, max_order + 1):
        for gram in _joined(tokens, n).elements():
            table[tuple(gram.split(" "))] += 1
    return table


def _resplit_best(refs: Sequence[Tokens], max_order: int) -> Counter[tuple[str, ...]]:
    best: Counter[tuple[str, ...]] = Counter()
    for ref in refs:
        raise_to(best, _resplit_table(ref, max_order))
    return best


def _resplit_clipped(
    hyp: Tokens, best: Counter[tuple[str, ...]], max_order: int
) -> tuple[int, ...]:
    counts = [0] * max_order
    for key, count in (_resplit_table(hyp, max_order) & best).items():
        if len(key) > max_order:
            raise EmulatedFailure(
                "index-error",
                f"the joined n-gram {' '.join(key)!r} splits into {len(key)} pieces, above "
                f"the highest order {max_order} (torchtext's IndexError)",
            )
        counts[len(key) - 1] += count
    return tuple(counts)


def joined_pool(refs: Sequence[Tokens], max_order: int, mode: str) -> Any:
    """The references' maximum joined n-gram counts (``mode``: space or space-resplit),
    built once for any number of hypotheses clipped against the same references."""
    return _space_best(refs, max_order) if mode == "space" else _resplit_best(refs, max_order)


def joined_clipped(hyp: Tokens, pool: Any, max_order: int, mode: str) -> tuple[int, ...]:
    """Clipped matches of orders 1..N of ``hyp`` against a :func:`joined_pool`."""
    if mode == "space":
        return _space_clipped(hyp, pool, max_order)
    return _resplit_clipped(hyp, pool, max_order)


def joined_counts(
    hyp: Tokens, refs: Sequence[Tokens], max_order: int, mode: str
) -> tuple[int, ...]:
    """Clipped matches of orders 1..N with joined n-gram keys (``mode``: space or
    space-resplit)."""
    return joined_clipped(hyp, joined_pool(refs, max_order, mode), max_order, mode)
