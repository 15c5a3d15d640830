"""Render a comparison (summary and discrepancy tables) from its log, in any format.

Every rendering (table, markdown, json, html) is produced from the compare log's records
alone (:class:`~conformance.runlog.CompareLog`), so ``bleu-conformance compare --replay
cmp.jsonl --format markdown`` re-renders a saved run.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tabulate import tabulate

from ..engine.differ import BOTH_FAILED, DIFFERING, ERRORED, IDENTICAL, SKIPPED_PAIR, WITHIN
from ..runlog import CompareLog
from .summary import number

__all__ = ["FORMATS", "render"]

FORMATS = ("table", "markdown", "json", "html")
SKIPPED = SKIPPED_PAIR


def summary_rows(pairs: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """One row per pair of implementations: counts per verdict and the largest deltas."""
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for pair in pairs:
        key = (pair["a"], pair["b"])
        entry = table.setdefault(
            key,
            {
                "n": 0,
                IDENTICAL: 0,
                WITHIN: 0,
                BOTH_FAILED: 0,
                DIFFERING: 0,
                ERRORED: 0,
                SKIPPED: 0,
                "abs": 0.0,
                "rel": 0.0,
                "unexplained": 0,
            },
        )
        entry[pair["verdict"]] += 1
        if pair["verdict"] != SKIPPED:
            entry["n"] += 1
        if _finite(pair.get("abs_delta")):
            entry["abs"] = max(entry["abs"], pair["abs_delta"])
        if _finite(pair.get("rel_delta")):
            entry["rel"] = max(entry["rel"], pair["rel_delta"])
        if pair["verdict"] == DIFFERING and not pair.get("explained", False):
            entry["unexplained"] += 1
    return [
        [
            f"{a} vs {b}",
            e["n"],
            e[IDENTICAL],
            e[WITHIN],
            e[BOTH_FAILED],
            e[DIFFERING],
            e["unexplained"],
            e[ERRORED],
            e[SKIPPED],
            f"{e['abs']:.3g}",
            f"{e['rel']:.3g}",
        ]
        for (a, b), e in table.items()
    ]


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
DISCREPANCY_HEADERS = ["case", "A", "B", "|Δ|", "rel Δ", "differing statistics", "cause"]


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def discrepancy_rows(pairs: Iterable[Mapping[str, Any]], width: int = 0) -> list[list[Any]]:
    rows = []
    for pair in pairs:
        if pair["verdict"] != DIFFERING:
            continue
        stats = "; ".join(pair.get("stats_diff", [])) or "-"
        case = pair["item"]
        if pair.get("minimal"):
            case += "\nminimal: " + json.dumps(pair["minimal"], ensure_ascii=False)
        rows.append(
            [
                case,
                f"{pair['a']}\n{pair['value_a']}" if width else pair["value_a"],
                pair["value_b"],
                number(pair.get("abs_delta"), ".3g", "-"),
                number(pair.get("rel_delta"), ".3g", "-"),
                stats,
                _cause(pair),
            ]
        )
    return rows


def _cause(pair: Mapping[str, Any]) -> str:
    cause = str(pair.get("cause", "unexplained"))
    alternatives = pair.get("alternatives")
    return f"{cause}\n(equally minimal: {alternatives})" if alternatives else cause


def errored_rows(pairs: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
    return [
        [p["item"], p["a"], p["value_a"], p["b"], p["value_b"]]
        for p in pairs
        if p["verdict"] == ERRORED
    ]


def render(comparison: CompareLog, fmt: str) -> str:
    """The whole report in ``fmt`` (table, markdown, json or html)."""
    pairs = comparison.pairs
    if fmt == "json":
        return json.dumps(
            {
                **comparison.header,
                "complete": comparison.complete,
                "implementations": comparison.implementations,
                "summary": [dict(zip(SUMMARY_HEADERS, row)) for row in summary_rows(pairs)],
                "pairs": pairs,
            },
            indent=2,
            ensure_ascii=False,
        )
    tablefmt = {"table": "simple_grid", "markdown": "github", "html": "html"}[fmt]
    maxcol = [40, 24, 24, 8, 8, 40, 50] if fmt == "table" else None
    parts = []
    versions = ", ".join(f"{i['name']} {i['version']}" for i in comparison.implementations)
    title = f"Implementations: {versions}" if versions else ""
    parts.append(_heading("Summary", fmt) + (f"\n{title}\n" if title else ""))
    parts.append(tabulate(summary_rows(pairs), headers=SUMMARY_HEADERS, tablefmt=tablefmt))
    disc = discrepancy_rows(pairs)
    parts.append(_heading(f"Discrepancies ({len(disc)})", fmt))
    if disc:
        parts.append(
            tabulate(disc, headers=DISCREPANCY_HEADERS, tablefmt=tablefmt, maxcolwidths=maxcol)
        )
    else:
        parts.append("none")
    errored = errored_rows(pairs)
    if errored:
        parts.append(_heading(f"Errors ({len(errored)})", fmt))
        parts.append(
            tabulate(errored, headers=["case", "A", "A said", "B", "B said"], tablefmt=tablefmt)
        )
    if not comparison.complete:
        parts.insert(
            0,
            f"INCOMPLETE: the comparison was interrupted after {len(pairs)} pair records; "
            "what follows covers only those.",
        )
    body = "\n\n".join(parts)
    if fmt == "html":
        return (
            f"<!doctype html><meta charset='utf-8'><title>bleu-conformance compare</title>\n{body}"
        )
    return body


def _heading(text: str, fmt: str) -> str:
    if fmt == "markdown":
        return f"## {text}"
    if fmt == "html":
        return f"<h2>{html.escape(text)}</h2>"
    return f"{text}\n{'=' * len(text)}"
