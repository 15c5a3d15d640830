"""The cross-pair summary of ``compare --pairs``: one row per pair (systems, implementations
that scored, the largest spread, the ranking flips, the implementations that rank the
systems differently from the baseline), then per implementation the pairs where it does.
A view over the pairs' corpus reports; it computes nothing."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..results.report import Report
from . import markdown as md
from .numbers import EMPTY, fixed
from .textgrid import grid

__all__ = ["pair_row", "render_pairs"]

#: (pair name, its report or why there is none, whether its log was already complete)
Done = tuple[str, "Report | str", bool]

_HEAD = ["pair", "systems", "scored by", "max spread", "flips", "ranking ≠ baseline", "log"]


def _differs(report: Report) -> list[str]:
    """The implementations whose ranks differ from the baseline's on a system both rank."""
    s = report.corpus
    assert s is not None
    base = s.ranks.get(s.baseline, {})
    return [
        impl
        for impl, ranks in s.ranks.items()
        if impl != s.baseline and any(ranks[n] != base[n] for n in ranks if n in base)
    ]


def pair_row(name: str, report: Report | str, resumed: bool) -> dict[str, object]:
    """One pair's summary as data (``error`` when its files could not be compared)."""
    if isinstance(report, str):
        return {"pair": name, "error": report}
    s = report.corpus
    assert s is not None
    widest = max(s.spread.items(), key=lambda kv: kv[1].spread, default=None)
    return {
        "pair": name,
        "systems": len(s.systems),
        "unread": [u.error for u in s.unread],
        "scored_by": len([i for i, row in report.scores().items() if row]),
        "implementations": len(report.names()),
        "max_spread": None if widest is None else widest[1].spread,
        "max_spread_system": None if widest is None else widest[0],
        "flips": len(s.flips),
        "significant_flips": sum(any(f.significant.values()) for f in s.flips),
        "baseline": s.baseline,
        "ranking_differs": _differs(report),
        "resumed": resumed,
    }


def _cells(row: dict[str, object]) -> list[str]:
    if "error" in row:
        return [str(row["pair"]), EMPTY, EMPTY, EMPTY, EMPTY, f"error: {row['error']}", EMPTY]
    spread = row["max_spread"]
    differs, unread = row["ranking_differs"], row["unread"]
    assert isinstance(differs, list) and isinstance(unread, list)
    return [
        str(row["pair"]),
        str(row["systems"]) + (f" (+{len(unread)} unread: see its log)" if unread else ""),
        f"{row['scored_by']} of {row['implementations']}",
        EMPTY if spread is None else f"{fixed(float(str(spread)))} ({row['max_spread_system']})",
        f"{row['flips']} ({row['significant_flips']} significant)",
        ", ".join(differs) or "none",
        "resumed" if row["resumed"] else "computed",
    ]


def render_pairs(done: Sequence[Done], fmt: str) -> str:
    """The summary in ``fmt`` (table, markdown or json)."""
    rows = [pair_row(*d) for d in done]
    by_impl: dict[str, list[str]] = {}
    for row in rows:
        for impl in row.get("ranking_differs") or []:  # type: ignore[attr-defined]
            by_impl.setdefault(impl, []).append(str(row["pair"]))
    if fmt == "json":
        return json.dumps({"pairs": rows, "ranking_differs": by_impl}, indent=1)
    table = md.table if fmt == "markdown" else grid
    lines = [
        f"{len(rows)} pair(s); each pair's report: `bleu-conformance report DIR/PAIR.jsonl`",
        "",
        table(_HEAD, [_cells(r) for r in rows]),
        "",
        "Implementations that rank the systems differently from the baseline, and where:",
    ]
    if by_impl:
        pairs = [[impl, ", ".join(names)] for impl, names in by_impl.items()]
        lines += ["", table(["implementation", "pairs"], pairs)]
    else:
        lines.append("none: every implementation ranks every pair's systems as the baseline")
    return "\n".join(lines)
