"""A run's report for machines: the summary per implementation and every result."""

from __future__ import annotations

import json

from ..protocol import jsonable
from ..results.report import Report
from ..results.summary import summarize

__all__ = ["render_json"]


def render_json(report: Report) -> str:
    summaries = [
        {
            "implementation": s.implementation,
            "version": s.version,
            "counts": dict(sorted(s.counts.items())),
            "conformance": s.conformance,
        }
        for s in summarize(report)
    ]
    document = {
        "run": jsonable(report.header),
        "complete": report.complete,
        "problems": jsonable(report.problems),
        "implementations": jsonable(report.implementations),
        "summary": summaries,
        "results": jsonable(report.results),
        "baseline": jsonable(report.baseline),
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
