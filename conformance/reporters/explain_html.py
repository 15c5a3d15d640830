"""A score explained step by step as one self-contained HTML page: the per-order table with
precision bars (clipped matches / n-grams, and the precision used after smoothing), lengths
and brevity penalty, the score and the resolved knobs."""

from __future__ import annotations

from collections.abc import Sequence

from bleu_impl import BleuResult

from . import html
from .explain_text import log_term
from .figures import PALETTE
from .numbers import exact, pretty

__all__ = ["precision_bars", "render_explanation_html"]

RAW, USED = "matches / n-grams", "precision used"
COLORS = {RAW: PALETTE[0], USED: PALETTE[1]}


def precision_bars(raw: float | None, used: float | None) -> html.Markup:
    """An order's clipped precision (``raw``) and the value the score uses (after smoothing
    or the zero/absent-order policy), as bars on 0–1; ``–`` for an order without n-grams or
    one the policy drops."""
    return html.Markup(
        "".join(
            html.bar([(name, value or 0.0, COLORS[name])], 1.0, pretty(value))
            for name, value in ((RAW, raw), (USED, used))
        )
    )


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
                exact(order.value),
                order.as_float,
                order.treatment,
                weight,
                log_term(weight, order.value, order.treatment),
                precision_bars(
                    float(order.matches) / float(order.total) if float(order.total) > 0 else None,
                    order.as_float,
                ),
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
            "precision, 0–1",
        ],
        rows,
        digits=6,
        numeric=[True, True, True, True, True, False, True, True, False],
    ) + html.legend(COLORS)


def _lengths(result: BleuResult) -> str:
    c, r = result.hyp_len, result.ref_len
    rule = "c > r, so BP = 1" if c > r else ("c = 0, so BP = 0" if c == 0 else "BP = exp(1 − r/c)")
    facts: dict[str, object] = {
        "hypothesis length c": c,
        "reference length r": r if isinstance(r, int) else exact(r),
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
    blocks: list[str] = [html.section("Per order", _orders_table(result))]
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
