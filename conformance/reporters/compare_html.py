"""The compare report as one self-contained HTML page: the verdict, two figures (the
implementation × implementation disagreement matrix, A vs B scores), the causes with a bar
each, and every row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..results.findings import Difference, Findings, analyze
from ..results.records import Pair
from ..results.report import Report
from ..results.vocab import DIFFERING
from . import figures, html
from .compare_rows import (
    CAUSE_HEADERS,
    DISCREPANCY_HEADERS,
    PAIR_HEADERS,
    cause_rows,
    detail_cell,
    difference_rows,
    knob_notes,
    legend,
    no_verdict,
    pair_row,
    verdict,
)
from .numbers import exponent_text, short
from .view import View

__all__ = ["render_html"]

MATERIAL, NEGLIGIBLE, AGREE = "material difference", "negligible difference", "agree"
COLORS = {MATERIAL: "#d1495b", NEGLIGIBLE: "#8d99ae", AGREE: "#4e79a7"}


def causes_table(f: Findings) -> str:
    """The causes, each with its cases as a bar: material and negligible stacked."""
    most = max(g.cases for g in f.causes)
    rows = []
    for row, g in zip(cause_rows(f), f.causes):
        negligible = g.cases - g.material
        parts = [
            (MATERIAL, g.material, COLORS[MATERIAL]),
            (NEGLIGIBLE, negligible, COLORS[NEGLIGIBLE]),
        ]
        rows.append([*_cells(row), html.bar(parts, most, f"{g.material} + {negligible}")])
    table = html.table(
        [*CAUSE_HEADERS, "material + negligible"],
        rows,
        numeric=[False, False, True, True, True, False, False],
    )
    return html.Markup(table + html.legend({k: COLORS[k] for k in (MATERIAL, NEGLIGIBLE)}))


def _matrix(f: Findings) -> tuple[list[str], list[list[float | None]], list[list[str]]]:
    names = list(f.letters)
    index = {name: i for i, name in enumerate(names)}
    values: list[list[float | None]] = [[None] * len(names) for _ in names]
    texts = [[""] * len(names) for _ in names]
    for t in f.tallies:
        i, j = index[t.a], index[t.b]
        for x, y in ((i, j), (j, i)):
            values[x][y] = float(t.material)
            texts[x][y] = f"{t.material}/{t.counts[DIFFERING]}"
    labels = [f"{f.letters[n]} {n}" for n in names]
    return labels, values, texts


def matrix_figure(f: Findings) -> str:
    """Material differences per pair of implementations (cell: material / all differing)."""
    labels, values, texts = _matrix(f)
    return html.figure(
        html.heat_table(labels, labels, values, texts, caption="Who disagrees with whom"),
        "Each cell: material / all differing cases of the pair; the darker, the more material "
        "differences; the diagonal is empty.",
    )


def _point(f: Findings, pair: Pair, a: float, b: float, kind: str) -> figures.Point:
    cause = f" — {pair.cause.cause}" if pair.cause else ""
    label = f"{pair.item} ({f.pair_label((pair.a, pair.b))}): A {short(a, 6)}, B {short(b, 6)}"
    return figures.Point(a, b, label + cause, kind)


def scatter_figure(f: Findings, pairs: Sequence[Pair]) -> str:
    """Every pair result with two scores: A's on x, B's on y, log scales."""
    kinds = {(d.item, *d.pair): MATERIAL if d.material else NEGLIGIBLE for d in f.differences}
    points = [
        _point(f, r, 100 * sa, 100 * sb, kinds.get((r.item, r.a, r.b), AGREE))
        for r in pairs
        if (sa := r.side_a.score) is not None and (sb := r.side_b.score) is not None
    ]
    order = {MATERIAL: 2, NEGLIGIBLE: 1, AGREE: 0}
    points.sort(key=lambda p: order[p.series])  # differences drawn last, on top
    svg = figures.scatter(
        points,
        title="First against second score of each pair (BLEU, 0–100, log)",
        x_label="first implementation of the pair",
        y_label="second implementation of the pair",
        decades=6,
        colors=COLORS,
        desc=f"{len(points)} pair results with two scores; points off the dashed diagonal "
        "differ; scores below 10⁻⁴ (such as 0 or NLTK's float-min) sit in the bands along "
        "the axes.",
    )
    present = dict.fromkeys(p.series for p in points)
    return html.figure(svg + html.legend({k: COLORS[k] for k in present}))


def _cause_html(d: Difference) -> html.Markup:
    alternatives = d.alternatives
    extra = html.note(f"equally minimal: {alternatives}") if alternatives else ""
    return html.Markup(html.text(d.cause) + extra)


def _cells(row: Sequence[Any]) -> list[Any]:
    """Numbers printed with ``e`` exponents in the ``×10ⁿ`` form."""
    return [exponent_text(c) if isinstance(c, str) else c for c in row]


def _difference_table(f: Findings, rows: Sequence[Difference], start: int) -> str:
    table = [
        [*_cells(row[:-1]), _cause_html(d), html.mono(detail_cell(d))]
        for row, d in zip(difference_rows(f, rows, start), rows)
    ]
    return html.table(
        [*DISCREPANCY_HEADERS, "differing statistics"],
        table,
        numeric=[True, False, False, True, True, True, False, False],
    )


def _rows_sections(f: Findings) -> list[str]:
    out: list[str] = []
    if f.material:
        out.append(
            html.section(
                f"Material differences ({len(f.material)}), largest first",
                html.paragraph("Scores and differences in BLEU points (0–100).", "muted"),
                _difference_table(f, f.material, 1),
            )
        )
    if f.negligible:
        out.append(
            html.section(
                f"Negligible differences ({len(f.negligible)})",
                html.details(
                    f"every row, largest first (all below {f.threshold:g})",
                    _difference_table(f, f.negligible, len(f.material) + 1),
                ),
            )
        )
    if f.errored:
        rows = [[r.item, f.pair_label((r.a, r.b)), r.side_a.text, r.side_b.text] for r in f.errored]
        out.append(
            html.section(
                f"Errors ({len(f.errored)})",
                html.table(["case", "pair", "first said", "second said"], rows),
            )
        )
    if f.skip_reasons:
        out.append(
            html.section(
                "Skipped: why",
                html.table(["reason", "pairs"], f.skip_reasons, numeric=[False, True]),
            )
        )
    return out


def render_html(comparison: Report, view: View) -> str:
    f = analyze(comparison, view.decimals)
    pairs = html.table(
        PAIR_HEADERS, [_cells(pair_row(f, t)) for t in f.tallies], numeric=[False] + [True] * 11
    )
    blocks: list[str] = [
        html.paragraph(verdict(f)),
        html.figures(matrix_figure(f), scatter_figure(f, comparison.pairs)),
        html.section("Pairs (|Δ| in BLEU points, 0–100)", pairs),
    ]
    blocks[:0] = [html.paragraph(line, "bad") for line in no_verdict(comparison)]
    if f.causes:
        blocks.append(
            html.section(
                "Why: causes, most material first",
                causes_table(f),
                html.key_values(dict(knob_notes(f))),
            )
        )
    blocks += _rows_sections(f)
    created = comparison.header.created
    return html.page(
        "bleu-conformance compare",
        *blocks,
        subtitle=f"{len(f.implementations)} implementations on {f.cases} cases"
        + (f" · {created}" if created else ""),
        meta=dict(legend(f)),
        footer="Rendered from the compare log; re-render with "
        "bleu-conformance report LOG --format html.",
    )
