"""Human reports: the summary table and failure details, as plain text or Markdown."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from tabulate import tabulate

from ..results.log import RunLog
from ..results.records import CHANGED, ERROR, FAIL, FIXED, PASS, SKIP, XFAIL, CaseResult
from . import markdown as md
from .summary import columns, number, percent, summarize

MARKDOWN = "github"


def _table(rows: list[list[str]], headers: list[str], tablefmt: str, align: str = "") -> str:
    """A plain-text table, or an escaped GFM table when ``tablefmt`` is Markdown."""
    if tablefmt == MARKDOWN:
        return md.table(headers, rows, align)
    return tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True)


_COLORS = {
    PASS: "32",
    FAIL: "31",
    ERROR: "31;1",
    SKIP: "33",
    XFAIL: "36",
    FIXED: "35",
    CHANGED: "35",
}
DETAILED = (FAIL, ERROR, FIXED, CHANGED)


def use_color(stream: Any) -> bool:
    """Color only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return "NO_COLOR" not in os.environ and bool(getattr(stream, "isatty", lambda: False)())


def _paint(text: str, outcome: str, color: bool) -> str:
    return f"\033[{_COLORS[outcome]}m{text}\033[0m" if color and outcome in _COLORS else text


def summary_table(log: RunLog, tablefmt: str, color: bool = False) -> str:
    summaries = summarize(log)
    outcomes = columns(summaries)
    headers = ["implementation", "version", *outcomes, "conformance"]
    rows = []
    for s in summaries:
        cells = [_paint(str(s.counts[o]), o, color and s.counts[o] > 0) for o in outcomes]
        rows.append([s.implementation, s.version, *cells, percent(s.conformance)])
    return _table(rows, headers, tablefmt, "ll" + "r" * (len(outcomes) + 1))


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    return json.dumps(value) if isinstance(value, list | dict) else str(value)


def mismatch_table(result: CaseResult, tablefmt: str) -> str:
    rows = [
        [
            m.field,
            _fmt(m.expected),
            _fmt(m.got),
            number(m.delta, "+.3g"),
            number(m.tolerance, ".3g"),
        ]
        for m in result.mismatches
    ]
    headers = ["field", "expected", "got", "delta", "tolerance"]
    return _table(rows, headers, tablefmt, "lrrrr")


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
            out.append(f"#### {r.outcome.upper()} `{r.node_id}` ({r.implementation})\n")
        else:
            out.append(f"{label} {r.implementation} {r.node_id}")
        out.extend(_detail_lines(r, more))
        out.extend(_evidence_lines(r, markdown))
        out.append("")
    if markdown:  # indented detail lines become list items
        out = ["- " + line[2:] if line.startswith("  ") else line for line in out]
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
        table = mismatch_table(r, MARKDOWN if markdown else "simple")
        out.extend(["", table] if markdown else [_indent(table)])
    if r.stderr.strip():
        tail = "\n".join(r.stderr.strip().splitlines()[-8:])
        out.append(f"```\n{tail}\n```" if markdown else _indent("stderr:\n" + tail))
    return out


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def _moved_by(m: dict[str, Any]) -> float | None:
    before, after = m.get("before"), m.get("after")
    if m["what"] == "score" and isinstance(before, int | float) and isinstance(after, int | float):
        return float(after) - float(before)
    return None


def _movement_order(m: dict[str, Any]) -> tuple[int, float, str, str]:
    """Moved scores first, largest change first; then other regressions; then the rest."""
    delta = _moved_by(m)
    rank = 0 if delta is not None else 1 if m.get("regression") else 2
    return rank, -abs(delta or 0.0), m["implementation"], m["case"]


def _movements(log: RunLog, markdown: bool) -> list[str]:
    if not log.baseline:
        return []
    rows = []
    for m in sorted(log.baseline, key=_movement_order):
        delta = _moved_by(m)
        rows.append(
            [
                m["implementation"],
                m["case"],
                m["what"],
                _fmt(m["before"]),
                _fmt(m["after"]),
                "" if delta is None else f"{delta:+.3g}",
            ]
        )
    fmt = MARKDOWN if markdown else "simple"
    title = "Changes since the baseline"
    if any(m.get("accepted") for m in log.baseline):
        title += " (accepted: --update-baseline wrote the current state)"
    title = f"### {title}" if markdown else f"{title}:"
    headers = ["implementation", "case", "what", "before", "after", "change"]
    table = _table(rows, headers, fmt)
    return [title, "", table, ""]


def warnings(log: RunLog) -> list[str]:
    """Why this report is not a verdict: an interrupted run, fixture problems."""
    out = []
    if not log.complete:
        out.append(
            f"INCOMPLETE: the run was interrupted after {len(log.results)} results (its log "
            "has no end record); this report covers only those."
        )
    if log.problems:
        out.append(
            f"FIXTURE PROBLEMS: {len(log.problems)} problem(s) in the selected fixtures; the "
            "cases they concern were not checked (`bleu-conformance validate` lists them):"
        )
        for p in log.problems[:_SHOWN_PROBLEMS]:
            where = f"{p.get('file', '')}:{p.get('line', 0)}"
            out.append(
                f"  {where}: {p.get('case', '')}: {p.get('rule', '')}: {p.get('message', '')}"
            )
        if len(log.problems) > _SHOWN_PROBLEMS:
            out.append(f"  ... and {len(log.problems) - _SHOWN_PROBLEMS} more")
    return out


_SHOWN_PROBLEMS = 20


def _sources(log: RunLog) -> str:
    """How many results were checked against recorded outputs and how many against
    bleu_impl's emulation (``run --as``; computed expectations are keyed ``bleu_impl:...``)."""
    checked = [r for r in log.results if r.expect_key]
    computed = sum(r.expect_key.startswith("bleu_impl:") for r in checked)
    return (
        f"expected values: {len(checked) - computed} recorded outputs of the tool, "
        f"{computed} computed by bleu_impl's emulation"
    )


def render(
    log: RunLog, *, markdown: bool = False, color: bool = False, details: bool = True
) -> str:
    """Warnings (incomplete, fixture problems), the summary table (and what was checked
    against, for ``run --as``), then what moved since the baseline, then details of
    everything unexpected."""
    notes = warnings(log)
    if markdown:  # a quoted block; problem lines as inline code (paths, messages unescaped)
        notes = [
            f"> **{n}**" if not n.startswith("  ") else f"> {md.code(n.strip())}" for n in notes
        ]
    parts = [*notes, *([""] if notes else [])]
    parts += [summary_table(log, MARKDOWN if markdown else "simple", color), ""]
    if log.header.get("reference"):
        parts.extend([log.header["reference"], _sources(log), ""])
    parts.extend(_movements(log, markdown))
    unexpected = [r for r in log.results if r.outcome in DETAILED]
    if details and unexpected:
        parts.append("### Unexpected results\n" if markdown else "Unexpected results:\n")
        parts.extend(_details(unexpected, markdown, color))
    return "\n".join(parts).rstrip() + "\n"
