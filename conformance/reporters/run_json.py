"""A run's report for machines: the summary per implementation and every result."""

from __future__ import annotations

import json

from ..results.codec import to_json
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
        "run": to_json(report.header),
        "complete": report.complete,
        "problems": to_json(report.problems),
        "implementations": to_json(report.implementations),
        "summary": summaries,
        "results": to_json(report.results),
        "baseline": to_json(report.baseline),
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
