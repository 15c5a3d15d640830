"""A run's report as plain text or Markdown (the summary table and the details of everything
unexpected), or for machines as JSON (the summary and every result); and why it is no
verdict (:func:`warnings`, which every format shows)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from ..protocol import jsonable
from ..results.records import CaseResult, Movement
from ..results.report import Report
from ..results.summary import columns, summarize
from ..results.vocab import (
    CHANGED,
    ERROR,
    FAIL,
    FIXED,
    NO_ORIGIN,
    PASS,
    SKIP,
    UNCHECKED,
    XFAIL,
    origin,
    origin_entries,
)
from . import markdown as md
from .numbers import exact, percent, short
from .textgrid import glossary, grid, wrap
from .view import View

__all__ = [
    "DETAILED",
    "mismatch_table",
    "render_json",
    "render_markdown",
    "render_table",
    "warnings",
]


def _table(
    rows: list[list[str]], headers: list[str], markdown: bool, align: str = "", width: int = 0
) -> str:
    """A plain-text table (fitting ``width`` when given, else every column left-aligned),
    or an escaped GFM table aligned by ``align``."""
    if markdown:
        return md.table(headers, rows, align)
    return grid(headers, rows, align=align, width=width) if width else grid(headers, rows)


_COLORS = {
    PASS: "32",
    FAIL: "31",
    ERROR: "31;1",
    SKIP: "33",
    UNCHECKED: "33;1",
    XFAIL: "36",
    FIXED: "35",
    CHANGED: "35",
}
#: The outcomes whose results are shown in detail.
DETAILED = (FAIL, ERROR, FIXED, CHANGED)


def _paint(text: str, outcome: str, color: bool) -> str:
    return f"\033[{_COLORS[outcome]}m{text}\033[0m" if color and outcome in _COLORS else text


#: What each column of the summary table counts (one line each under the text table).
COLUMN_MEANINGS = {
    "implementation": "what ran (--impl), and its version",
    PASS: "every field the expectation records matched, within its tolerance",
    FAIL: "a field differed beyond its tolerance (details below)",
    ERROR: "no usable answer: a crash, a hang, garbage, or the implementation raising",
    SKIP: "not checked: no expectation for it on the case, or a knob or level it lacks",
    UNCHECKED: "answered with none of the fields the expectation records: not a pass",
    XFAIL: "a failure listed by --known-failures",
    FIXED: "a listed known failure that now passes",
    CHANGED: "a listed known failure that now fails differently",
    "checked": "cases whose answer was compared with an expectation",
    "conformance": "(pass + fixed) of the cases it was asked (all but skip and unchecked)",
}


def summary_table(report: Report, markdown: bool, color: bool = False, width: int = 0) -> str:
    """The per-implementation counts; in text at ``width``, each column explained below, and
    what kinds of case were run."""
    summaries = summarize(report)
    outcomes = columns(summaries)
    headers = ["implementation", "version", *outcomes, "checked", "conformance"]
    rows = []
    for s in summaries:
        cells = [_paint(str(s.counts[o]), o, color and s.counts[o] > 0) for o in outcomes]
        checked = s.coverage.checked if s.coverage else 0
        rows.append([s.implementation, s.version, *cells, str(checked), percent(s.conformance)])
    table = _table(rows, headers, markdown, "ll" + "r" * (len(outcomes) + 2), width)
    if markdown or not width:
        return table
    legend = [(h, COLUMN_MEANINGS[h]) for h in headers if h in COLUMN_MEANINGS]
    return "\n\n".join([table, glossary(legend, width), *_origins(report, width)])


def _origins(report: Report, width: int) -> list[str]:
    """The cases run, by provenance class, with the unexpected results on each."""
    kinds = {r.case_id: origin(r.tags) for r in report.results}
    unexpected = Counter(kinds[r.case_id] for r in report.results if r.unexpected)
    counts = [(kind, n, unexpected[kind]) for kind, n in Counter(kinds.values()).most_common()]
    if [kind for kind, _, _ in counts] in ([], [NO_ORIGIN]):
        return []
    title = f"What the {len(kinds)} cases are (by their provenance tags):"
    return [f"{title}\n{glossary(origin_entries(counts, 'unexpected'), width)}"]


def mismatch_table(result: CaseResult, markdown: bool = False) -> str:
    """Field by field: expected, got (every digit), their difference and the tolerance."""
    rows = [
        [
            m.field,
            exact(m.expected),
            exact(m.got),
            "" if m.delta is None else short(m.delta, sign=True),
            "" if m.tolerance is None else short(m.tolerance),
        ]
        for m in result.mismatches
    ]
    headers = ["field", "expected", "got", "delta", "tolerance"]
    return _table(rows, headers, markdown, "lrrrr")


def _collapse(results: Iterable[CaseResult]) -> list[tuple[CaseResult, int]]:
    """Results with the same implementation and error reason (no mismatch table) shown once."""
    out: list[tuple[CaseResult, int]] = []
    index: dict[tuple[str, str, str], int] = {}
    for r in results:
        key = (r.implementation, r.outcome, r.reason)
        if not r.mismatches and r.reason and key in index:
            first, n = out[index[key]]
            out[index[key]] = (first, n + 1)
            continue
        index[key] = len(out)
        out.append((r, 0))
    return out


def _details(results: Iterable[CaseResult], markdown: bool, color: bool) -> list[str]:
    out: list[str] = []
    for r, more in _collapse(results):
        label = _paint(r.outcome.upper(), r.outcome, color)
        if markdown:
            title = f"{r.outcome.upper()} {md.code(r.node_id)} ({md.text(r.implementation)})"
            out.append(f"#### {title}\n")
            # detail lines become list items, each quoted on one line (a message's own
            # lines must not start a heading or a table of the report)
            out.extend(f"- {md.text(line[2:])}" for line in _detail_lines(r, more))
        else:
            out.append(f"{label} {r.implementation} {r.node_id}")
            out.extend(_detail_lines(r, more))
        out.extend(_evidence_lines(r, markdown))
        out.append("")
    return out


def _detail_lines(r: CaseResult, more: int) -> list[str]:
    """Expectation key, reason, how many more alike, known failure, notes."""
    out = []
    if r.expect_key:
        source = r.expected.get("source")
        out.append(f"  expected: {r.expect_key}" + (f" ({source})" if source else ""))
    if r.reason and not r.mismatches:
        out.append(f"  {r.reason}")
    if more:
        out.append(f"  (and {more} more cases of {r.implementation} with this same result)")
    if r.known_failure:
        kf = r.known_failure
        link = f" ({kf['link']})" if kf.get("link") else ""
        out.append(f"  known failure: {kf.get('reason', '')}{link}")
    out.extend(f"  note: {m.note}" for m in r.mismatches if m.note)
    return out


def _evidence_lines(r: CaseResult, markdown: bool) -> list[str]:
    """The mismatch table and the tail of stderr."""
    out = []
    if r.mismatches:
        table = mismatch_table(r, markdown)
        out.extend(["", table] if markdown else [_indent(table)])
    if r.stderr.strip():
        tail = "\n".join(r.stderr.strip().splitlines()[-8:])
        out.append(md.fence(tail) if markdown else _indent("stderr:\n" + tail))
    return out


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def _moved_by(m: Movement) -> float | None:
    before, after = m.before, m.after
    if m.what == "score" and isinstance(before, int | float) and isinstance(after, int | float):
        return float(after) - float(before)
    return None


def _movement_order(m: Movement) -> tuple[int, float, str, str]:
    """Moved scores first, largest change first; then other regressions; then the rest."""
    delta = _moved_by(m)
    rank = 0 if delta is not None else 1 if m.regression else 2
    return rank, -abs(delta or 0.0), m.implementation, m.case


def _movements(report: Report, markdown: bool) -> list[str]:
    if not report.baseline:
        return []
    rows = []
    for m in sorted(report.baseline, key=_movement_order):
        delta = _moved_by(m)
        rows.append(
            [
                m.implementation,
                m.case,
                m.what,
                exact(m.before),
                exact(m.after),
                "" if delta is None else short(delta, sign=True),
            ]
        )
    title = "Changes since the baseline"
    if any(m.accepted for m in report.baseline):
        title += " (accepted: --update-baseline wrote the current state)"
    title = f"### {title}" if markdown else f"{title}:"
    headers = ["implementation", "case", "what", "before", "after", "change"]
    table = _table(rows, headers, markdown)
    return [title, "", table, ""]


def warnings(report: Report) -> list[str]:
    """Why this report is not a verdict: an interrupted run, fixture problems, too little
    checked."""
    out = []
    shortfalls = report.shortfalls()
    if shortfalls:
        out.append(
            "TOO LITTLE CHECKED: no verdict on an implementation whose answers were compared "
            "with no expectation, or only with the default one:"
        )
        out.extend(f"  {line}" for line in shortfalls)
    if not report.complete:
        out.append(
            f"INCOMPLETE: the run was interrupted after {len(report.results)} results (its log "
            "has no end record); this report covers only those."
        )
    if report.problems:
        out.append(
            f"FIXTURE PROBLEMS: {len(report.problems)} problem(s) in the selected fixtures; the "
            "cases they concern were not checked (`bleu-conformance validate` lists them):"
        )
        for p in report.problems[:_SHOWN_PROBLEMS]:
            out.append(f"  {p.file}:{p.line}: {p.case}: {p.rule}: {p.message}")
        if len(report.problems) > _SHOWN_PROBLEMS:
            out.append(f"  ... and {len(report.problems) - _SHOWN_PROBLEMS} more")
    return out


_SHOWN_PROBLEMS = 20


def _sources(report: Report) -> str:
    """How many results were checked against recorded outputs and how many against
    bleu_impl's emulation (``run --as``; computed expectations are keyed ``bleu_impl:...``)."""
    checked = [r for r in report.results if r.expect_key]
    computed = sum(r.expect_key.startswith("bleu_impl:") for r in checked)
    return (
        f"expected values: {len(checked) - computed} recorded outputs of the tool, "
        f"{computed} computed by bleu_impl's emulation"
    )


def _render(report: Report, markdown: bool, color: bool = False, width: int = 0) -> str:
    """Warnings (incomplete, fixture problems), the summary table (and what was checked
    against, for ``run --as``), then what moved since the baseline, then details of
    everything unexpected."""
    notes = warnings(report)
    if markdown:  # a quoted block; problem lines as inline code, other text escaped
        notes = [
            f"> **{md.text(n)}**" if not n.startswith("  ") else f"> {md.code(n.strip())}"
            for n in notes
        ]
    parts = [*notes, *([""] if notes else [])]
    parts += [summary_table(report, markdown, color, width), ""]
    if report.header.params.get("reference"):
        reference = str(report.header.params["reference"])
        parts.extend([md.text(reference) if markdown else reference, _sources(report), ""])
    parts.extend(_movements(report, markdown))
    unexpected = [r for r in report.results if r.outcome in DETAILED]
    if unexpected:
        parts.append("### Unexpected results\n" if markdown else "Unexpected results:\n")
        parts.extend(_details(unexpected, markdown, color))
    return "\n".join(parts).rstrip() + "\n"


def render_table(report: Report, view: View) -> str:
    """The text report; a line wider than the view (a reason, a source) wrapped under its
    indent, a path in it never broken."""
    lines = _render(report, False, view.color, view.width).splitlines()
    return "\n".join(
        line
        if len(line) <= view.width
        else wrap(line, view.width, _lead(line) + "    ", whole_words=True)
        for line in lines
    )


def _lead(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def render_markdown(report: Report, view: View) -> str:
    return _render(report, True)


def render_json(report: Report, view: View) -> str:
    summaries = [
        {
            "implementation": s.implementation,
            "version": s.version,
            "counts": dict(sorted(s.counts.items())),
            "conformance": s.conformance,
            "checked": s.coverage.checked if s.coverage else 0,
            "checked_against": s.coverage.against if s.coverage else "",
        }
        for s in summarize(report)
    ]
    document = {
        "run": jsonable(report.header),
        "shortfalls": report.shortfalls(),
        "complete": report.complete,
        "problems": jsonable(report.problems),
        "implementations": jsonable(report.implementations),
        "summary": summaries,
        "results": jsonable(report.results),
        "baseline": jsonable(report.baseline),
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
