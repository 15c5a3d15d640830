"""Render a comparison (summary and discrepancy tables) from its records, in any format.

A comparison is saved as JSON Lines (``--output run.jsonl``): a ``compare`` header, one
``pair`` record per (item, pair of implementations) and the implementations' versions.
Every rendering (table, markdown, json, html) is produced from those records alone, so
``bleu-conformance compare --replay run.jsonl --format markdown`` re-renders a saved run.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabulate import tabulate

from .differ import DIFFERING, ERRORED, IDENTICAL, SKIPPED, WITHIN, PairRow

LOG_KIND = "bleu-conformance-compare"
LOG_VERSION = 1


def _value(side: Any) -> str:
    if side.status != "ok":
        return f"{side.status}: {side.reason}"[:80]
    return side.outcome.describe() if side.outcome else "-"


def row_record(row: PairRow) -> dict[str, Any]:
    """One pair row as a JSON-friendly record (what the run log stores)."""
    attribution = row.attribution
    record: dict[str, Any] = {
        "kind": "pair",
        "item": row.item.id,
        "file": row.item.file,
        "a": row.a.implementation,
        "b": row.b.implementation,
        "value_a": _value(row.a),
        "value_b": _value(row.b),
        "verdict": row.verdict,
        "abs_delta": row.abs_delta,
        "rel_delta": row.rel_delta,
    }
    if attribution is not None:
        record["cause"] = attribution.cause
        record["explained"] = attribution.explained
        record["changes"] = [[c.knob, _plain(c.a), _plain(c.b)] for c in attribution.changes]
        record["stats_diff"] = list(attribution.stats_diff)
    if row.minimal is not None:
        record["minimal"] = {
            "hypotheses": [_plain(h) for h in row.minimal.hypotheses],
            "references": [[_plain(r) for r in refs] for refs in row.minimal.references],
        }
    return record


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass
class Comparison:
    """A comparison read back from records: header, implementations and pair records."""

    header: dict[str, Any] = field(default_factory=dict)
    implementations: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)


def write_log(path: str | Path, comparison: Comparison) -> None:
    with Path(path).open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"kind": LOG_KIND, "version": LOG_VERSION, **comparison.header}))
        handle.write("\n")
        for impl in comparison.implementations:
            handle.write(json.dumps({"kind": "implementation", **impl}) + "\n")
        for pair in comparison.pairs:
            handle.write(json.dumps(pair, ensure_ascii=False) + "\n")


def read_log(path: str | Path) -> Comparison:
    """Read a comparison log; a malformed line is an error naming the file and line."""
    comparison = Comparison()
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not JSON ({exc.msg})") from None
            kind = record.pop("kind", None)
            if kind == LOG_KIND:
                if record.get("version") != LOG_VERSION:
                    raise ValueError(f"{path}:{number}: unsupported log version")
                comparison.header = record
            elif kind == "implementation":
                comparison.implementations.append(record)
            elif kind == "pair":
                comparison.pairs.append({"kind": "pair", **record})
            else:
                raise ValueError(f"{path}:{number}: unknown record kind {kind!r}")
    if not comparison.header:
        raise ValueError(f"{path}: not a bleu-conformance compare log (no header)")
    return comparison


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
        if pair.get("abs_delta") is not None:
            entry["abs"] = max(entry["abs"], pair["abs_delta"])
            entry["rel"] = max(entry["rel"], pair["rel_delta"] or 0.0)
        if pair["verdict"] == DIFFERING and not pair.get("explained", False):
            entry["unexplained"] += 1
    return [
        [
            f"{a} vs {b}",
            e["n"],
            e[IDENTICAL],
            e[WITHIN],
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
    "differing",
    "unexplained",
    "errored",
    "skipped",
    "max |Δ|",
    "max rel Δ",
]
DISCREPANCY_HEADERS = ["case", "A", "B", "|Δ|", "rel Δ", "differing statistics", "cause"]


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
                "-" if pair.get("abs_delta") is None else f"{pair['abs_delta']:.3g}",
                "-" if pair.get("rel_delta") is None else f"{pair['rel_delta']:.3g}",
                stats,
                pair.get("cause", "unexplained"),
            ]
        )
    return rows


def errored_rows(pairs: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
    return [
        [p["item"], p["a"], p["value_a"], p["b"], p["value_b"]]
        for p in pairs
        if p["verdict"] == ERRORED
    ]


def render(comparison: Comparison, fmt: str) -> str:
    """The whole report in ``fmt`` (table, markdown, json or html)."""
    pairs = comparison.pairs
    if fmt == "json":
        return json.dumps(
            {
                **comparison.header,
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
