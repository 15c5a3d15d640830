"""The run report as one self-contained HTML page: the verdict, outcomes per implementation
(a table with a bar per row), every unexpected result with its evidence, baseline moves, why
cases were skipped, and every result in a collapsed table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..results.records import CaseResult
from ..results.report import Report
from ..results.summary import Summary, columns, summarize
from ..results.vocab import CHANGED, ERROR, FAIL, FIXED, PASS, SKIP, XFAIL
from . import html
from .numbers import exact, percent
from .run_text import DETAILED, warnings
from .view import View

__all__ = ["OUTCOME_COLORS", "outcomes_bar", "render_html"]

#: Outcome colors readable on light and dark pages (green pass, red fail, ...).
OUTCOME_COLORS = {
    PASS: "#3a9d5d",
    FAIL: "#d1495b",
    ERROR: "#8e2c48",
    SKIP: "#c9a227",
    XFAIL: "#5aa9c9",
    FIXED: "#9b6fc0",
    CHANGED: "#e07b39",
}
_TONE = {PASS: "ok", FAIL: "bad", ERROR: "bad", SKIP: "warn", XFAIL: "info"}


def outcomes_bar(summary: Summary, outcomes: Sequence[str], most: int) -> html.Markup:
    """One implementation's cases per outcome, stacked, on the scale of ``most`` cases."""
    return html.bar([(o, summary.counts[o], OUTCOME_COLORS[o]) for o in outcomes], most)


def _verdict(log: Report, summaries: Sequence[Summary]) -> html.Markup:
    unexpected = [r for r in log.results if r.unexpected]
    moved = [m for m in log.baseline if m.regression]
    if not unexpected and not moved:
        ran = sum(s.ran for s in summaries)
        text = (
            f"Nothing unexpected: {ran} results on the cases the implementations can express "
            "are as expected (pass, or a known failure)."
        )
        return html.Markup(html.badge("ok", "ok") + " " + html.text(text))
    per_impl = Counter(r.implementation for r in unexpected)
    who = ", ".join(f"{name} {n}" for name, n in per_impl.most_common())
    text = f"{len(unexpected)} unexpected result(s)" + (f" ({who})" if who else "")
    if moved:
        text += f"; {len(moved)} baseline regression(s)"
    return html.Markup(html.badge("findings", "bad") + " " + html.text(text + "."))


def _summary_table(summaries: Sequence[Summary]) -> str:
    outcomes = columns(summaries)
    most = max((sum(s.counts[o] for o in outcomes) for s in summaries), default=0)
    rows = [
        [
            s.implementation,
            s.version,
            *(s.counts[o] for o in outcomes),
            percent(s.conformance),
            outcomes_bar(s, outcomes, most),
        ]
        for s in summaries
    ]
    table = html.table(
        ["implementation", "version", *outcomes, "conformance", "cases per outcome"],
        rows,
        numeric=[False, False, *([True] * (len(outcomes) + 1)), False],
    )
    return html.Markup(table + html.legend({o: OUTCOME_COLORS[o] for o in outcomes}))


def _mismatches(result: CaseResult) -> str:
    rows = [
        [
            m.field,
            html.mono(exact(m.expected)),
            html.mono(exact(m.got)),
            m.delta,
            m.tolerance,
            m.note,
        ]
        for m in result.mismatches
    ]
    return html.table(
        ["field", "expected", "got", "delta", "tolerance", "note"],
        rows,
        numeric=[False, False, False, True, True, False],
    )


def _unexpected(result: CaseResult) -> str:
    head = html.Markup(
        html.badge(result.outcome.upper(), _TONE.get(result.outcome, "bad"))
        + f" {html.code(result.node_id)} "
        + html.text(f"({result.implementation})")
    )
    facts: dict[str, object] = {}
    if result.expect_key:
        facts["expected by"] = result.expect_key
    if result.reason:
        facts["reason"] = result.reason
    if result.known_failure:
        known = result.known_failure
        facts["known failure"] = f"{known.get('reason', '')} {known.get('link', '')}".strip()
    blocks: list[str] = [html.key_values(facts)] if facts else []
    if result.mismatches:
        blocks.append(_mismatches(result))
    if result.stderr.strip():
        blocks.append(html.pre("\n".join(result.stderr.strip().splitlines()[-12:])))
    return html.Markup(f"<h3>{head}</h3>" + "".join(blocks))


def _skips(log: Report) -> str:
    reasons = Counter((r.implementation, r.reason) for r in log.results if r.outcome == SKIP)
    rows = [[impl, reason, n] for (impl, reason), n in reasons.most_common()]
    return html.table(["implementation", "reason", "cases"], rows, numeric=[False, False, True])


def _all_results(log: Report) -> str:
    rows = [
        [
            r.implementation,
            html.code(r.node_id),
            html.badge(r.outcome, _TONE.get(r.outcome, "bad")),
            r.reason,
        ]
        for r in log.results
    ]
    return html.table(["implementation", "case", "outcome", "reason"], rows)


def _baseline(log: Report) -> str:
    rows = [
        [m.implementation, m.case, m.what, exact(m.before), exact(m.after)] for m in log.baseline
    ]
    return html.table(["implementation", "case", "what", "before", "after"], rows)


def render_html(log: Report, view: View) -> str:
    summaries = summarize(log)
    notes = warnings(log)  # an interrupted run, fixture problems: no verdict
    blocks: list[str] = [
        *(
            html.paragraph(html.Markup(html.badge("no verdict", "bad") + " " + html.text(n)))
            for n in notes[:1]
        ),
        *([html.pre("\n".join(notes[1:]))] if len(notes) > 1 else []),
        html.paragraph(_verdict(log, summaries)),
        html.section("Summary", _summary_table(summaries)),
    ]
    if log.baseline:
        blocks.append(html.section("Changes since the baseline", _baseline(log)))
    unexpected = [r for r in log.results if r.outcome in DETAILED]
    if unexpected:
        blocks.append(
            html.section(
                f"Unexpected results ({len(unexpected)})", *(_unexpected(r) for r in unexpected)
            )
        )
    if any(r.outcome == SKIP for r in log.results):
        blocks.append(html.section("Skipped: why", html.details("reasons", _skips(log))))
    blocks.append(
        html.section("Every result", html.details(f"{len(log.results)} results", _all_results(log)))
    )
    cases = len({r.node_id for r in log.results})
    created = log.header.created
    return html.page(
        "bleu-conformance run",
        *blocks,
        subtitle=f"{len(summaries)} implementation(s) on {cases} cases"
        + (f" · {created}" if created else ""),
        meta={i.name: f"{i.version} (--impl {i.spec})" for i in log.implementations},
        footer="Rendered from the run log; re-render with "
        "bleu-conformance report RUN.jsonl --format html.",
    )
