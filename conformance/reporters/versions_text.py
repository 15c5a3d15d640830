"""The sweep's report from its log: each behaviour class of a library's releases (the
releases, the profile reproducing it or "no profile matches", the case separating it from
the previous class with both answers, the release notes' words on the change), as a table,
Markdown, JSON or an HTML page with a timeline of the classes."""

from __future__ import annotations

import json

from ..protocol import jsonable
from ..results.records import Behaviour, Side
from ..results.report import Report
from . import html
from . import markdown as md
from .numbers import short
from .textgrid import grid
from .view import View

__all__ = ["render_html", "render_json", "render_markdown", "render_table"]

HEADERS = [
    "releases",
    "behaviour",
    "separating case (from the previous class)",
    "before",
    "after",
    "release notes on the change",
]
#: The timeline's colors, one per class in turn (a failure to install or import is grey).
_COLORS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1")


def span(b: Behaviour) -> str:
    """``3.2.2–3.2.5 (3)`` or ``3.1``."""
    if len(b.releases) == 1:
        return b.releases[0]
    return f"{b.releases[0]}–{b.releases[-1]} ({len(b.releases)})"


def behaviour(b: Behaviour) -> str:
    """What reproduces the class, in words."""
    if b.error:
        return f"cannot run: {b.error}"[:300]
    reproduced = f"{b.agreed}/{b.compared} answers"
    if b.failed:
        reproduced += f"; {b.failed} raised, not compared"
    if b.profile is not None:
        return f"profile {b.profile} ({reproduced})"
    why = f": {b.why}" if b.why else ""
    if b.nearest:
        return f"no profile matches (nearest {b.nearest}: {reproduced}){why}"
    return f"no profile matches (the library has no profile){why}"


def _side(side: Side | None) -> str:
    if side is None:
        return ""
    return short(side.score, 6) if side.score is not None else side.text


def rows(report: Report) -> list[list[str]]:
    out = []
    for b in report.behaviours:
        case = f"{b.case} (of {b.differing} differing)" if b.case else ""
        notes = "; ".join(b.notes)
        out.append([span(b), behaviour(b), case, _side(b.before), _side(b.after), notes])
    return out


def _title(report: Report) -> str:
    library = report.header.params.get("library", "?")
    found = len(report.behaviours)
    return f"{library}: {len(report.releases)} releases, {found} behaviour classes"


def render_table(report: Report, view: View) -> str:
    table = grid(HEADERS, rows(report), maxwidths=[20, 40, 40, 12, 12, 50])
    return f"{_title(report)}\n\n{table}\n"


def render_markdown(report: Report, view: View) -> str:
    return f"## {_title(report)}\n\n{md.table(HEADERS, rows(report))}\n"


def render_json(report: Report, view: View) -> str:
    document = {
        "header": jsonable(report.header),
        "complete": report.complete,
        "releases": [
            {"release": r.release, "version": r.version, "error": r.error} for r in report.releases
        ],
        "behaviours": [jsonable(b) for b in report.behaviours],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def render_html(report: Report, view: View) -> str:
    colors = {}
    parts = []
    for i, b in enumerate(report.behaviours):
        color = "#bbbbbb" if b.error else _COLORS[i % len(_COLORS)]
        colors[span(b)] = color
        parts.append((span(b), float(len(b.releases)), color))
    timeline = html.figure(
        html.bar(parts, float(len(report.releases)), text=f"{len(report.releases)} releases")
        + html.legend(colors),
        "The releases in order, one segment per behaviour class (grey: cannot run).",
    )
    return html.page(
        "bleu-conformance versions",
        html.paragraph(_title(report)),
        timeline,
        html.section("Behaviour classes", html.table(HEADERS, rows(report))),
        subtitle=report.header.created,
        footer="Rendered from the versions log; re-render with "
        "bleu-conformance report LOG --format html.",
    )
