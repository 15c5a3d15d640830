"""A score shown step by step: per-order matches, totals, precisions, treatments, BP, and
(``explain --segments``) the reference length chosen per segment."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction

from bleu_impl import BleuResult

from .numbers import EMPTY, exact, short
from .textgrid import grid

__all__ = ["log_term", "render_explanation", "segment_lines"]

HEADERS = ["n", "matches", "total", "precision", "treatment", "weight", "w*ln p"]


def log_term(weight: float, value: float | Fraction | None, treatment: str) -> float | None:
    """An order's term of the score's logarithm, ``w·ln p`` (None when the order does not
    enter the geometric mean)."""
    if value is None or value <= 0 or treatment in ("absent-one", "skipped"):
        return None
    return weight * math.log(value)


def render_explanation(result: BleuResult) -> str:
    """The per-order table, lengths and BP of ``result`` as text (log terms rounded to six
    decimals)."""
    weights = list(result.config.order_weights)
    rows = []
    for order in result.orders:
        weight = weights[order.n - 1] if order.n <= len(weights) else 0.0
        term = log_term(weight, order.value, order.treatment)
        rows.append(
            [
                order.n,
                order.matches,
                order.total,
                exact(order.value),
                order.treatment,
                short(weight, 6),
                EMPTY if term is None else short(round(term, 6), 6),
            ]
        )
    parts = [grid(HEADERS, rows, align="rrrlldd")] if rows else []
    if result.note:
        parts.append(f"note: {result.note}")
    c, r = result.hyp_len, result.ref_len
    bp_rule = "c > r: 1" if c > r else ("c = 0: 0" if c == 0 else "exp(1 - r/c)")
    parts.append(f"hyp_len c = {c}, ref_len r = {exact(r)}, BP = {result.bp!r} ({bp_rule})")
    parts.append(f"score = {result.score!r} (x{result.config.scale} = {result.scaled_score!r})")
    parts.append(f"signature: {result.signature}")
    return "\n".join(parts)


def segment_lines(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> Iterator[str]:
    """The per-segment table, a line per row as it comes: columns of fixed width, so a
    million segments print in constant memory (a table fitted to its cells would hold them
    all)."""
    line, hyp_len, ref_lens, chosen = headers
    header = f"{line:>8}  {hyp_len:>8}  {ref_lens:<16}  {chosen}"
    yield header
    yield "-" * len(header)
    for number, length, shown, picked in rows:
        yield f"{number:>8}  {length:>8}  {shown:<16}  {picked}"
