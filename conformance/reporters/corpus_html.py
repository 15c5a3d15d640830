"""The corpus report as one self-contained HTML page (inline CSS and SVG, no network): the
score matrix, ranks as a bump chart, score spread per system, the knob path's steps as
bars, the ranking flips with their p-values, and the segments behind the largest gap."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import html, svg
from .corpus import (
    ORDER_NOTE,
    decomposition_lines,
    error_lines,
    flip_rows,
    header_lines,
    rank_rows,
    score_rows,
    segment_lines,
    significance_line,
)

__all__ = ["bump_figure", "render_html", "spread_figure", "steps_figure"]


def _two(value: float) -> str:
    return f"{value:+.2f}".replace("-", "−")


def bump_figure(report: Mapping[str, Any]) -> str:
    """Each system's rank under every implementation (a line per system)."""
    impls = [i["name"] for i in report["implementations"] if i["name"] in report["ranks"]]
    impls = [i for i in impls if report["ranks"][i]]
    ranks = {
        s["name"]: [report["ranks"][i].get(s["name"]) for i in impls] for s in report["systems"]
    }
    short = [i.removeprefix("bleu_impl:") for i in impls]
    labels = [s if short.count(s) == 1 else i for s, i in zip(short, impls)]
    return svg.bump_chart(
        labels,
        ranks,
        title="Rank of each system under each implementation",
        desc="One line per system; a line that crosses another is a ranking flip.",
    )


def spread_figure(report: Mapping[str, Any]) -> str:
    """Per system: the lowest and highest score over the implementations, the baseline's
    score as the dot."""
    base = report["scores"].get(report["baseline"], {})
    spans = [
        svg.Span(
            f"{name} ({s['min_impl'].removeprefix('bleu_impl:')} … "
            f"{s['max_impl'].removeprefix('bleu_impl:')})",
            s["min"],
            s["max"],
            base.get(name),
        )
        for name, s in report["spread"].items()
    ]
    return svg.range_plot(
        spans,
        title="Score spread per system (BLEU, 0–100)",
        desc="Each row spans the lowest to the highest score the implementations give a "
        f"system; the dot is {report['baseline']}'s score.",
        x_label="BLEU",
        value_text=lambda v: f"{v:.2f}",
    )


def steps_figure(report: Mapping[str, Any]) -> str | None:
    """Every step with an effect: its BLEU change over the systems (range) and mean (dot)."""
    spans = []
    for impl, entry in report["decomposition"].items():
        for step in entry["steps"]:
            values = [v for v in step["delta"].values() if v is not None]
            if values and any(abs(v) >= 5e-3 for v in values):
                label = f"{impl.removeprefix('bleu_impl:')}: {step['change']}"
                spans.append(svg.Span(label, min(values), max(values), sum(values) / len(values)))
    if not spans:
        return None
    return svg.range_plot(
        spans,
        title=f"BLEU change of each knob step from {report['baseline']}",
        desc="Per implementation, each step of the path from the baseline's setting that "
        "moves a score: the range over the systems and the mean (dot).",
        x_label="Δ BLEU",
        reference=0.0,
        value_text=_two,
        width=760,
    )


def _lines_block(lines: list[str]) -> str:
    return html.pre("\n".join(lines)) if lines else ""


def render_html(report: Mapping[str, Any]) -> str:
    head, rows = score_rows(report)
    scores = html.table(head, rows, caption="BLEU (0–100) per implementation and system")
    errors = error_lines(report)
    rhead, rrows = rank_rows(report)
    figures = [html.figure(bump_figure(report)), html.figure(spread_figure(report))]
    steps = steps_figure(report)
    flips_block: list[str]
    if len(report["systems"]) < 2:
        flips_block = [html.paragraph("One system: there is no ranking to flip.")]
    elif not report["flips"]:
        flips_block = [html.paragraph("Every implementation orders every pair the same way.")]
    else:
        flips_block = [
            html.paragraph(significance_line(report)),
            html.table(["pair", "order", "implementations (Δ BLEU, p)"], flip_rows(report, None)),
        ]
    blocks = [
        html.section("Scores", scores, _lines_block(errors)),
        html.section("Ranks", html.table(rhead, rrows), html.figures(*figures)),
        html.section(
            f"Why the scores differ from {report['baseline']}",
            html.paragraph(ORDER_NOTE),
            html.figure(steps) if steps else "",
            _lines_block(decomposition_lines(report)),
        ),
        html.section("Ranking flips", *flips_block),
        html.section("Where the difference comes from", _lines_block(segment_lines(report, 160))),
    ]
    lines = header_lines(report)
    return html.page("BLEU disagreement report", *blocks, subtitle=" · ".join(lines))
