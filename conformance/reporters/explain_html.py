"""A score explained step by step as one self-contained HTML page: per-order precision bars
(clipped matches / n-grams, and the precision used after smoothing), the per-order table,
lengths and brevity penalty, the score and the resolved knobs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from bleu_impl import BleuResult

from . import html, svg
from .explain_text import fraction_text
from .numbers import pretty

__all__ = ["precision_figure", "render_explanation_html"]

RAW, USED = "matches / n-grams", "precision used"


def precision_figure(result: BleuResult) -> str:
    """Per order: the clipped precision and the value the score uses (after smoothing or the
    zero/absent-order policy; none when the order is dropped)."""
    raw = [float(o.matches) / float(o.total) if float(o.total) > 0 else None for o in result.orders]
    used = [o.as_float for o in result.orders]
    return svg.grouped_bars(
        [f"{o.n}-gram" for o in result.orders],
        {RAW: raw, USED: used},
        title="Precision per n-gram order",
        x_label="order",
        y_label="precision",
        y_max=1.0,
        desc="For each order, the clipped matches over the hypothesis n-grams, and the "
        "precision the score uses; a missing bar is an order without n-grams or one the "
        "policy drops.",
    )


def _log_term(weight: float, value: float | Fraction | None, treatment: str) -> float | None:
    if value is None or value <= 0 or treatment in ("absent-one", "skipped"):
        return None
    return weight * math.log(value)


def _orders_table(result: BleuResult) -> str:
    weights = list(result.config.order_weights)
    rows = []
    for order in result.orders:
        weight = weights[order.n - 1] if order.n <= len(weights) else 0.0
        rows.append(
            [
                order.n,
                order.matches,
                order.total,
                fraction_text(order.value),
                order.as_float,
                order.treatment,
                weight,
                _log_term(weight, order.value, order.treatment),
            ]
        )
    return html.table(
        [
            "n",
            "matches",
            "n-grams",
            "precision (exact)",
            "precision",
            "treatment",
            "weight",
            "w·ln p",
        ],
        rows,
        digits=6,
        numeric=[True, True, True, True, True, False, True, True],
    )


def _lengths(result: BleuResult) -> str:
    c, r = result.hyp_len, result.ref_len
    rule = "c > r, so BP = 1" if c > r else ("c = 0, so BP = 0" if c == 0 else "BP = exp(1 − r/c)")
    facts: dict[str, object] = {
        "hypothesis length c": c,
        "reference length r": fraction_text(r) if not isinstance(r, int) else r,
        "ratio c / r": f"{result.ratio:.6g}",
        "brevity penalty": html.Markup(html.text(repr(result.bp)) + html.note(rule)),
        "score": repr(result.score),
    }
    if result.config.scale != 1:
        facts[f"score × {result.config.scale}"] = repr(result.scaled_score)
    return html.key_values(facts)


def render_explanation_html(
    result: BleuResult,
    segments: Sequence[Sequence[object]] = (),
    segment_headers: Sequence[str] = (),
) -> str:
    """The page for ``result``; ``segments`` (with ``segment_headers``) adds the per-segment
    length table of ``explain --segments``."""
    blocks: list[str] = [html.figure(precision_figure(result))] if result.orders else []
    blocks.append(html.section("Per order", _orders_table(result)))
    if result.note:
        blocks.append(html.paragraph(f"note: {result.note}", "muted"))
    blocks.append(html.section("Lengths, brevity penalty, score", _lengths(result)))
    knobs = {k: str(v) for k, v in result.config.as_dict().items()}
    blocks.append(
        html.section("Knobs", html.details("every resolved knob", html.key_values(knobs)))
    )
    if segments:
        blocks.append(
            html.section(
                "Segments",
                html.details(
                    f"{len(segments)} segments", html.table(list(segment_headers), segments)
                ),
            )
        )
    return html.page(
        "bleu-conformance explain",
        *blocks,
        subtitle=f"{result.profile}: BLEU {pretty(result.scaled_score, 6)}",
        meta={"signature": result.signature},
    )
