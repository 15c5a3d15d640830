"""A score shown step by step: per-order matches, totals, precisions, treatments, BP."""

from __future__ import annotations

import math
from fractions import Fraction

from tabulate import tabulate

from bleu_impl import BleuResult

__all__ = ["fraction_text", "render_explanation"]


def fraction_text(value: object) -> str:
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if value is None:
        return "-"
    return repr(value)


def render_explanation(result: BleuResult) -> str:
    """The per-order table, lengths and BP of ``result`` as text."""
    weights = list(result.config.order_weights)
    rows = []
    for order in result.orders:
        weight = weights[order.n - 1] if order.n <= len(weights) else 0.0
        value = order.value
        log_term = (
            f"{weight * math.log(value):.6f}"
            if value is not None and value > 0 and order.treatment not in ("absent-one", "skipped")
            else "-"
        )
        rows.append(
            [
                order.n,
                order.matches,
                order.total,
                fraction_text(value),
                order.treatment,
                weight,
                log_term,
            ]
        )
    parts = []
    if rows:
        parts.append(
            tabulate(
                rows,
                headers=["n", "matches", "total", "precision", "treatment", "weight", "w*ln p"],
            )
        )
    if result.note:
        parts.append(f"note: {result.note}")
    c, r = result.hyp_len, result.ref_len
    bp_rule = "c > r: 1" if c > r else ("c = 0: 0" if c == 0 else "exp(1 - r/c)")
    parts.append(
        f"hyp_len c = {c}, ref_len r = {fraction_text(r) if isinstance(r, Fraction) else r}, "
        f"BP = {result.bp!r} ({bp_rule})"
    )
    parts.append(f"score = {result.score!r} (x{result.config.scale} = {result.scaled_score!r})")
    parts.append(f"signature: {result.signature}")
    return "\n".join(parts)
