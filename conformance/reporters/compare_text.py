"""Render a comparison from its log as text, Markdown or JSON: the answer first (do they
differ, how much, why), the rows after, largest first (:mod:`.compare_html` draws the page).

Every rendering is produced from the log's records alone, so ``bleu-conformance report
cmp.jsonl --format markdown`` re-renders a saved comparison. The terminal table fits
``width`` columns and shows the ten largest material differences (``verbose``: every row,
with the differing statistics, minimal inputs, errors and skip reasons); Markdown, JSON and
HTML carry every row.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..protocol import jsonable
from ..results.findings import Difference, Findings, PairTally, analyze
from ..results.report import Report
from ..results.vocab import NO_ORIGIN, origin_entries
from . import markdown as md
from .compare_rows import (
    CAUSE_HEADERS,
    DISCREPANCY_HEADERS,
    PAIR_HEADERS,
    cause_legend,
    cause_rows,
    detail_cell,
    difference_rows,
    knob_notes,
    legend,
    no_verdict,
    pair_legend,
    pair_row,
    verdict,
)
from .numbers import short
from .textgrid import glossary, grid, wrap
from .view import View

__all__ = ["SUMMARY_HEADERS", "TOP_ROWS", "render_json", "render_markdown", "render_table"]

#: Material differences shown by the terminal table without ``-v``.
TOP_ROWS = 10

SUMMARY_HEADERS = [
    "pair",
    "compared",
    "identical",
    "within tol",
    "both failed",
    "differing",
    "unexplained",
    "errored",
    "skipped",
    "max |Δ|",
    "max rel Δ",
]


def _summary(f: Findings, t: PairTally) -> dict[str, Any]:
    """A pair's entry in the JSON summary: the pair table's counts, the largest differences
    on 0..1 (as the log stores them)."""
    counts = dict(zip(PAIR_HEADERS, pair_row(f, t)))
    return {
        "pair": f"{t.a} vs {t.b}",
        **{header: counts[header] for header in SUMMARY_HEADERS[1:-2]},
        "max |Δ|": short(t.max_abs),
        "max rel Δ": short(t.max_rel),
        "material": t.material,
        "negligible": t.negligible,
    }


# --- text -------------------------------------------------------------------------------


#: What the score columns of a difference row hold.
ORDER_NOTE = (
    "1st, 2nd: BLEU on 0–100 of the pair's implementations in its order (A–B: A, B); "
    "2nd − 1st: their difference; under each cause (as above) the rows it explains"
)


def _section(title: str, body: str, width: int = 0) -> str:
    """A heading underlined to its length (wrapped to ``width`` when given), then ``body``."""
    heading = wrap(title, width) if width else title
    rule = "─" * max(len(line) for line in heading.splitlines())
    return f"{heading}\n{rule}\n{body}"


#: Pair-table columns kept even when they are 0 for every pair.
_KEEP = {"pair", "compared", "differing", "material", "negligible", "max |Δ|"}


def _pairs_block(f: Findings, width: int) -> str:
    """The pair table, without the columns that are 0 everywhere."""
    rows = [[str(c) for c in pair_row(f, t)] for t in f.tallies]
    keep = [c for c, h in enumerate(PAIR_HEADERS) if h in _KEEP or any(r[c] != "0" for r in rows)]
    headers = [PAIR_HEADERS[c] for c in keep]
    table = grid(
        headers,
        [[r[c] for c in keep] for r in rows],
        width=width,
        align="l" + "r" * (len(keep) - 1),
    )
    return f"{table}\n{glossary(pair_legend(f, headers), width)}"


def _without_pair(
    f: Findings, headers: list[str], rows: list[list[str]], column: str
) -> tuple[list[str], list[list[str]]]:
    """``headers`` and ``rows`` without the pair column when there is one pair: every row
    would repeat it, and its width is the case's."""
    if len(f.tallies) != 1:
        return headers, rows
    c = headers.index(column)
    return headers[:c] + headers[c + 1 :], [r[:c] + r[c + 1 :] for r in rows]


def _text_tables(f: Findings, width: int, verbose: bool) -> list[str]:
    parts = [_section("Pairs (|Δ| in BLEU points, 0–100)", _pairs_block(f, width))]
    if f.causes:
        rows = [[str(c) for c in r] for r in cause_rows(f)]
        headers, rows = _without_pair(f, list(CAUSE_HEADERS), rows, "pairs")
        # the example (a case id as wide as the cause) goes on a line under its row
        below = {k + 1: f"    {headers[-1]}: {row[-1]}" for k, row in enumerate(rows)}
        table = grid(
            headers[:-1],
            [row[:-1] for row in rows],
            width=width,
            align="l" + "r" * 4,
            headings=below,
        )
        notes = [wrap(f"{knob}: {doc}", width, "    ") for knob, doc in knob_notes(f)]
        table += "\n" + glossary([e for e in cause_legend() if e[0] in headers], width)
        body = "\n".join([table, *(["", "The knobs:"] if notes else []), *notes])
        parts.append(_section("Why: causes, most material first", body))
    shown = f.material if verbose else f.material[:TOP_ROWS]
    if shown:
        title = f"Material differences ({len(f.material)}), largest first, under their cause"
        more = len(f.material) - len(shown)
        tail = f"\n… and {more} more (-v lists every row)" if more else ""
        body = _rows_grid(f, shown, width, verbose) + tail
        parts.append(_section(title, f"{wrap(ORDER_NOTE, width)}\n{body}", width))
    if verbose and f.negligible:
        title = f"Negligible differences ({len(f.negligible)}), largest first, under their cause"
        rows_grid = _rows_grid(f, f.negligible, width, verbose, len(shown) + 1)
        parts.append(_section(title, f"{wrap(ORDER_NOTE, width)}\n{rows_grid}", width))
    return parts


def _rows_grid(
    f: Findings, rows: Sequence[Difference], width: int, verbose: bool, start: int = 1
) -> str:
    """The difference rows (numbered largest first), grouped under their cause: a heading
    line per cause, in the order of its largest difference."""
    numbered = list(zip(difference_rows(f, rows, start), rows))
    groups: dict[str, list[list[str]]] = {}
    for row, d in numbered:
        # the equally minimal alternatives are detail, for -v
        cause, detail = (row[-1], [detail_cell(d)]) if verbose else (d.cause, [])
        groups.setdefault(cause, []).append([*row[:-1], *detail])
    table: list[list[str]] = []
    headings: dict[int, str] = {}
    for cause, members in groups.items():
        headings[len(table)] = "cause: " + " ".join(cause.split())
        table += members
    headers = DISCREPANCY_HEADERS[:-1] + (["differing statistics"] if verbose else [])
    headers, table = _without_pair(f, headers, table, "pair")
    align = "rl" + "l" * (len(headers) - 5 - verbose) + "rrr" + "l" * verbose
    return grid(headers, table, width=width, align=align, weights=(1, 2), headings=headings)


def _text_tail(f: Findings, width: int, verbose: bool) -> list[str]:
    parts = []
    if f.errored:
        if verbose:
            rows = [
                [r.item, f.pair_label((r.a, r.b)), r.side_a.text, r.side_b.text] for r in f.errored
            ]
            table = grid(["case", "pair", "first said", "second said"], rows, width=width)
            parts.append(_section(f"Errors ({len(f.errored)})", table))
        else:
            parts.append(
                f"{len(f.errored)} pair result(s) errored (an implementation gave no "
                "usable answer); -v lists them."
            )
    if verbose and f.skip_reasons:
        rows = [[reason, str(n)] for reason, n in f.skip_reasons]
        parts.append(
            _section("Skipped: why", grid(["reason", "pairs"], rows, width=width, align="lr"))
        )
    hint = "full detail: --format json, or --format html --report compare.html"
    parts.append(wrap(hint if verbose else f"every row: -v · {hint}", width))
    return parts


def render_table(comparison: Report, view: View) -> str:
    f = analyze(comparison, view.decimals)
    width, verbose = view.width, view.verbose
    head = [f"Compared {len(f.implementations)} implementations on {f.cases} cases:"]
    head += [f"  {letter}  {name}" for letter, name in legend(f)]
    parts = [wrap(line, width) for line in no_verdict(comparison)]
    parts += ["\n".join(head), wrap(verdict(f), width)]
    if [kind for kind, _, _ in f.origins] not in ([], [NO_ORIGIN]):
        title = f"What the {f.cases} cases are (by their provenance tags):"
        parts.append(f"{title}\n{glossary(origin_entries(f.origins, 'material'), width)}")
    parts += _text_tables(f, width, verbose)
    parts += _text_tail(f, width, verbose)
    return "\n\n".join(parts)


# --- markdown ---------------------------------------------------------------------------


def _names(f: Findings) -> str:
    return "\n".join(
        f"- **{f.letters.get(i.name, '?')}** = {md.code(i.name)} {md.text(i.version)}"
        for i in f.implementations
    )


def _md_differences(f: Findings, title: str, rows: Sequence[Difference], start: int) -> str:
    table = []
    for row, d in zip(difference_rows(f, rows, start), rows):
        number, item, pair, a, b, delta, _ = row
        alternatives = d.alternatives
        cause = md.code(d.cause) + (f" (equally minimal: {alternatives})" if alternatives else "")
        table.append([number, md.code(item), pair, a, b, delta, cause, detail_cell(d)])
    block = md.table([*DISCREPANCY_HEADERS, "differing statistics"], table, "rllrrrll")
    heading = f"{title} ({len(rows)}), largest first; scores on 0–100"
    return (
        md.details(heading, block)
        if title.startswith("Negligible")
        else f"### {heading}\n\n{block}"
    )


def _md_tail(f: Findings) -> list[str]:
    parts = []
    if f.errored:
        rows = [
            [md.code(r.item), f.pair_label((r.a, r.b)), r.side_a.text, r.side_b.text]
            for r in f.errored
        ]
        parts += [
            f"### Errors ({len(f.errored)})",
            md.table(["case", "pair", "first said", "second said"], rows),
        ]
    if f.skip_reasons:
        parts += ["### Skipped: why", md.table(["reason", "pairs"], f.skip_reasons, "lr")]
    return parts


def render_markdown(comparison: Report, view: View) -> str:
    f = analyze(comparison, view.decimals)
    parts = ["## Comparison", *(f"**{md.text(line)}**" for line in no_verdict(comparison))]
    parts += [_names(f), md.text(verdict(f))]
    parts += [
        "### Pairs (|Δ| in BLEU points, 0–100)",
        md.table(PAIR_HEADERS, [pair_row(f, t) for t in f.tallies], "lrrrrrrrrrrr"),
    ]
    if f.causes:
        rows = [[md.code(r[0]), *r[1:5], md.code(r[5])] for r in cause_rows(f)]
        notes = "\n".join(f"- {md.code(knob)}: {doc}" for knob, doc in knob_notes(f))
        parts += ["### Why: causes, most material first", md.table(CAUSE_HEADERS, rows, "llrrrl")]
        parts += [notes] if notes else []
    if f.material:
        parts.append(_md_differences(f, "Material differences", f.material, 1))
    if f.negligible:
        start = len(f.material) + 1
        parts.append(_md_differences(f, "Negligible differences", f.negligible, start))
    return "\n\n".join(parts + _md_tail(f))


# --- json -------------------------------------------------------------------------------


def _cause_records(f: Findings) -> list[dict[str, Any]]:
    return [
        {
            "cause": g.cause,
            "explained": g.explained,
            "pairs": [list(p) for p in g.pairs],
            "cases": g.cases,
            "material": g.material,
            "max_abs_delta": None if g.largest.size == float("inf") else g.largest.size / 100,
            "example": {"item": g.largest.item, "a": g.largest.pair[0], "b": g.largest.pair[1]},
        }
        for g in f.causes
    ]


def render_json(comparison: Report, view: View) -> str:
    f = analyze(comparison, view.decimals)
    summary = [_summary(f, t) for t in f.tallies]

    def keys(rows: Sequence[Difference]) -> list[dict[str, str]]:
        return [{"item": d.item, "a": d.pair[0], "b": d.pair[1]} for d in rows]

    return json.dumps(
        {
            "header": jsonable(comparison.header),
            "complete": comparison.complete,
            "implementations": jsonable(comparison.implementations),
            "letters": f.letters,
            "materiality": {
                "decimals": f.decimals,
                "threshold_0_100": f.threshold,
                "rule": "material when |Δ| on 0–100 is at least half a unit of the last "
                "printed decimal",
            },
            "summary": summary,
            "causes": _cause_records(f),
            "material": keys(f.material),
            "negligible": keys(f.negligible),
            "pairs": jsonable(comparison.pairs),
        },
        indent=2,
        ensure_ascii=False,
    )
