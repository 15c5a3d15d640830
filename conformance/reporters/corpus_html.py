"""The corpus report as one self-contained HTML page (inline CSS and SVG, no network): the
score matrix, ranks as a bump chart, score spread per system, the knob path's steps as
bars, the ranking flips with their p-values, and the segments behind the largest gap."""

from __future__ import annotations

from ..results.report import Report
from . import figures, html
from .corpus_text import (
    ORDER_NOTE,
    VERSUS_HEAD,
    decomposition_lines,
    error_lines,
    feeding_lines,
    flip_rows,
    flip_verdicts,
    header_lines,
    incomplete,
    no_flips_line,
    rank_rows,
    readable,
    score_rows,
    segment_lines,
    significance_line,
    summary,
    versus_lines,
    versus_rows,
)
from .numbers import fixed
from .view import View

__all__ = ["bump_figure", "rank_groups", "render_html", "spread_figure", "steps_figure"]


def rank_groups(report: Report) -> list[tuple[str, list[str]]]:
    """Implementations that rank every system alike, grouped (the baseline's group first,
    then in report order), each with a column label: its first member's short name and how
    many others share it."""
    s = summary(report)
    impls = [name for name in report.names() if s.ranks.get(name)]
    systems = [system.name for system in s.systems]
    baseline = s.baseline
    if baseline in impls:
        impls.remove(baseline)
        impls.insert(0, baseline)
    groups: dict[tuple[int | None, ...], list[str]] = {}
    for impl in impls:
        key = tuple(s.ranks[impl].get(system) for system in systems)
        groups.setdefault(key, []).append(impl)
    out = []
    for members in groups.values():
        head = members[0].removeprefix("bleu_impl:")
        out.append((head + (f" +{len(members) - 1}" if len(members) > 1 else ""), members))
    return out


def bump_figure(report: Report) -> str:
    """Each system's rank under every distinct ranking the implementations give (a line per
    system; implementations that rank alike share a column)."""
    groups = rank_groups(report)
    s = summary(report)
    ranks = {
        system.name: [s.ranks[members[0]].get(system.name) for _, members in groups]
        for system in s.systems
    }
    return figures.bump_chart(
        [label for label, _ in groups],
        ranks,
        title="Rank of each system under each distinct ranking",
        desc="One line per system, one column per ranking the implementations give (those "
        "that rank alike share a column); a line that crosses another is a ranking flip.",
    )


def _groups_caption(report: Report) -> str:
    return "Columns: " + "; ".join(
        f"{label} = {', '.join(members)}"
        for label, members in rank_groups(report)
        if len(members) > 1
    )


def spread_figure(report: Report) -> str:
    """Per system: the lowest and highest score over the implementations, the baseline's
    score as the dot."""
    baseline = summary(report).baseline
    base = report.scores().get(baseline, {})
    spans = [
        figures.Span(
            f"{name} ({s.min_impl.removeprefix('bleu_impl:')} … "
            f"{s.max_impl.removeprefix('bleu_impl:')})",
            s.min,
            s.max,
            base.get(name),
        )
        for name, s in summary(report).spread.items()
    ]
    return figures.range_plot(
        spans,
        title="Score spread per system (BLEU, 0–100)",
        desc="Each row spans the lowest to the highest score the implementations give a "
        f"system; the dot is {baseline}'s score.",
        x_label="BLEU",
        value_text=fixed,
    )


def steps_figure(report: Report) -> str | None:
    """Every step with an effect: its BLEU change over the systems (range) and mean (dot)."""
    spans = []
    for impl, entry in summary(report).decomposition.items():
        for step in entry.steps:
            values = [v for v in step.delta.values() if v is not None]
            if values and any(report.policy.material(abs(v)) for v in values):
                label = f"{impl.removeprefix('bleu_impl:')}: {step.change}"
                spans.append(
                    figures.Span(label, min(values), max(values), sum(values) / len(values))
                )
    if not spans:
        return None
    return figures.range_plot(
        spans,
        title=f"BLEU change of each knob step from {summary(report).baseline}",
        desc="Per implementation, each step of the path from the baseline's setting that "
        "moves a score: the range over the systems and the mean (dot).",
        x_label="Δ BLEU",
        reference=0.0,
        value_text=lambda v: fixed(v, sign=True).replace("-", "−"),
        width=760,
    )


def _lines_block(lines: list[str]) -> str:
    return html.pre("\n".join(lines)) if lines else ""


def render_html(report: Report, view: View) -> str:
    if report.corpus is None:
        return incomplete(report)
    report = readable(report)
    head, rows = score_rows(report)
    scores = html.table(head, rows, caption="BLEU (0–100) per implementation and system")
    errors = error_lines(report)
    rhead, rrows = rank_rows(report)
    groups = rank_groups(report)
    caption = _groups_caption(report) if any(len(m) > 1 for _, m in groups) else ""
    figures = [html.figure(bump_figure(report), caption), html.figure(spread_figure(report))]
    steps = steps_figure(report)
    flips_block: list[str]
    if not summary(report).flips:
        flips_block = [html.paragraph(no_flips_line(report))]
    else:
        flips_block = [
            html.paragraph(significance_line(report)),
            html.table(["pair", "order", "implementations (Δ BLEU, p)"], flip_rows(report, None)),
            _lines_block(flip_verdicts(report, None)),
        ]
    segments = segment_lines(report, 160)
    blocks = [
        html.section(
            "Scores",
            scores,
            *(html.paragraph(html.mono(f"input: {e}")) for e in feeding_lines(report)),
            *(html.paragraph(html.mono(e)) for e in errors),
        ),
        html.section("Ranks", html.table(rhead, rrows), html.figures(*figures)),
        html.section(
            f"Why the scores differ from {summary(report).baseline}",
            html.paragraph(ORDER_NOTE),
            html.figure(steps) if steps else "",
            _lines_block(decomposition_lines(report)),
        ),
        html.section(
            f"Significance against {summary(report).systems[0].name}",
            *(html.paragraph(line) for line in versus_lines(report)[:1]),
            html.table(VERSUS_HEAD, versus_rows(report)) if summary(report).versus else "",
            _lines_block(versus_lines(report)[1:]),
        ),
        html.section("Ranking flips", *flips_block),
        html.section(  # the summary wraps as prose; the segments keep their columns
            "Where the difference comes from",
            html.paragraph(segments[0]),
            _lines_block(segments[1:]),
        ),
    ]
    lines = header_lines(report)
    return html.page("BLEU disagreement report", *blocks, subtitle=" · ".join(lines))
