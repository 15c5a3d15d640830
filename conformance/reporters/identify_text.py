"""Identify's report from its log: what the implementation answered, the ranked candidates,
the verdict (``matches`` when ``run --as`` passes, else ``no profile matches``), ties, and
the inputs that separate the leaders; as a table, Markdown, JSON or an HTML page."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bleu_impl import PROFILES

from ..protocol import jsonable
from ..results.records import Candidate, Identification
from ..results.report import Report
from . import html
from . import markdown as md
from .numbers import percent
from .textgrid import grid, wrap
from .view import View

__all__ = ["TOP", "render_html", "render_json", "render_markdown", "render_table", "verdict"]

#: Candidates shown.
TOP = 8


def answered_line(found: Identification) -> str:
    used = "fixture cases that set no knob" if found.knob_free_only else "fixture cases"
    return (
        f"{found.implementation} {found.version}: {found.answered} answers on {used} and "
        f"generated corpora ({found.separating} asked to separate the leaders; "
        f"{found.skipped} skipped, {found.errored} errored, {found.failed} failed without a "
        "known kind: none of these is evidence)"
    )


def candidate_rows(found: Identification, top: int) -> list[list[str]]:
    return [
        [f"#{i}", c.label, str(c.scale), f"{c.agreed}/{c.compared}", percent(c.share)]
        for i, c in enumerate(found.candidates[:top], 1)
    ]


CANDIDATE_HEADERS = ["#", "candidate", "scale", "reproduced", "agreement"]


def verdict(found: Identification) -> str:
    """The answer in one sentence (ties, ``run --as``'s outcomes and findings on lines of
    their own)."""
    name = found.implementation
    if not found.candidates:
        return (
            f"no profile matches: {name} gave no score on any case "
            "(failures and errors are not evidence)."
        )
    best = found.candidates[0]
    share = f"{best.agreed}/{best.compared} answers"
    generic = " (a setting no tool has)" if best.generic else _releases(best)
    outcomes = ", ".join(f"{n} {k}" for k, n in sorted(found.checked.items()))
    checked = f"run {found.run_as}: {outcomes or 'no case checked'}"
    lines = []
    if found.verdict == "match":
        lines.append(f"{name} matches {best.label}{generic} ({share}; {checked}).")
    else:
        lines.append(
            f"no profile matches {name}. Nearest: {best.label}{generic}, reproducing {share}; "
            f"{checked}."
        )
    if found.ties:
        lines.append(
            "tied (no input tried separates them): "
            + "; ".join(c.label for c in [best, *found.ties])
        )
    lines += [f"finding: {f}" for f in found.findings]
    return "\n".join(lines)


def failing_lines(found: Identification) -> list[str]:
    """The nearest candidate's smallest failing cases under ``run --as``."""
    if not found.failing:
        return []
    lines = [f"smallest cases `run {found.run_as}` fails:"]
    for row in found.failing:
        lines.append(
            f"  {row['item']}: expected {row['expected']}, got {row['got']} ({row['outcome']})"
        )
    return lines


def _releases(best: Candidate) -> str:
    """`` (as nltk 3.6.6–3.10.4 do)``: the releases the profile was measured to reproduce."""
    profile = PROFILES.get(best.profile)
    if profile is None or profile.releases is None:
        return ""
    package, first, last = profile.releases
    return f" (as {package} {first}–{last} do)"


def evidence_title(found: Identification) -> str:
    if found.verdict == "no-match":
        return "inputs the nearest candidate misses, then inputs that separate the candidates"
    return "evidence (inputs that separate the leading candidates)"


def _evidence_table(found: Identification, top: int) -> tuple[list[str], list[list[str]]]:
    """The separating inputs, one column per candidate: a shown candidate by its number."""
    rows: Sequence[Any] = found.evidence
    keys = list(dict.fromkeys(k for row in rows for k in row))
    number = {c.label: f"#{i}" for i, c in enumerate(found.candidates[:top], 1)}
    return [number.get(k, k) for k in keys], [[str(row.get(k, "")) for k in keys] for row in rows]


#: What every format says of an identification interrupted before its verdict.
INCOMPLETE = "INCOMPLETE: identify was interrupted before its verdict (no identification).\n"

Draw = Callable[[Report, Identification, int], str]


def _identified(draw: Draw) -> Callable[[Report, View], str]:
    """``draw`` (the report, its identification, the candidates to show) as a renderer."""

    def render(report: Report, view: View) -> str:
        found, top = report.identification, int(report.header.params.get("top", TOP))
        return INCOMPLETE if found is None else draw(report, found, top)

    return render


def render_table(report: Report, view: View) -> str:
    """The screen, at the view's width: paragraphs wrap, tables fit (or become records)."""
    found, top = report.identification, int(report.header.params.get("top", TOP))
    if found is None:
        return INCOMPLETE
    width = view.width

    def para(*lines: str) -> list[str]:
        return [
            wrap(line, width, "  ", whole_words=True) for text in lines for line in text.split("\n")
        ]

    parts = [*para(verdict(found), *failing_lines(found)), "", *para(answered_line(found)), ""]
    parts.append(grid(CANDIDATE_HEADERS, candidate_rows(found, top), align="llrrr", width=width))
    if found.evidence:  # every answer with every digit: the evidence may be in the last one
        headers, rows = _evidence_table(found, top)
        parts += [
            "",
            f"{evidence_title(found)}:",
            grid(headers, rows, align="l" + "r" * len(headers), width=width),
        ]
    return "\n".join(parts) + "\n"


@_identified
def render_markdown(report: Report, found: Identification, top: int) -> str:
    parts = [f"## Identify: {md.code(found.implementation)} {found.version}", ""]
    parts += [verdict(found).replace("\n", "  \n"), ""]
    parts += ["  \n".join(failing_lines(found)), "", answered_line(found), ""]
    parts += [md.table(CANDIDATE_HEADERS, candidate_rows(found, top), "llrrr"), ""]
    if found.evidence:
        headers, rows = _evidence_table(found, top)
        parts += [f"### {evidence_title(found).capitalize()}", "", md.table(headers, rows), ""]
    return "\n".join(parts)


def _candidate(c: Candidate) -> dict[str, object]:
    return {
        **jsonable(c),
        "overrides": jsonable(dict(c.overrides)),
        "changes": jsonable(dict(c.changes)),
        "label": c.label,
        "generic": c.generic,
        "share": c.share,
    }


@_identified
def render_json(report: Report, found: Identification, top: int) -> str:
    document = {
        "header": jsonable(report.header),
        "complete": report.complete,
        **{k: v for k, v in jsonable(found).items() if k not in ("candidates", "ties")},
        "candidates": [_candidate(c) for c in found.candidates[:top]],
        "ties": [_candidate(c) for c in found.ties],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


@_identified
def render_html(report: Report, found: Identification, top: int) -> str:
    blocks = [
        html.paragraph(verdict(found)),
        *(html.paragraph(line) for line in failing_lines(found)),
        html.paragraph(answered_line(found), "muted"),
        html.section(
            "Candidates",
            html.table(
                CANDIDATE_HEADERS,
                candidate_rows(found, top),
                numeric=[False, False, True, True, True],
            ),
        ),
    ]
    if found.evidence:
        headers, rows = _evidence_table(found, top)
        blocks.append(html.section(evidence_title(found).capitalize(), html.table(headers, rows)))
    return html.page(
        "bleu-conformance identify",
        *blocks,
        subtitle=f"{found.implementation} {found.version} · {report.header.created}",
        footer="Rendered from the identify log; re-render with "
        "bleu-conformance report LOG --format html.",
    )
