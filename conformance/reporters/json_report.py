"""Machine-readable report: summary per implementation plus every result."""

from __future__ import annotations

import json
from dataclasses import asdict

from ..results.log import RunLog
from .summary import summarize


def render(log: RunLog) -> str:
    summaries = [
        {
            "implementation": s.implementation,
            "version": s.version,
            "counts": dict(sorted(s.counts.items())),
            "conformance": s.conformance,
        }
        for s in summarize(log)
    ]
    document = {
        "run": log.header,
        "complete": log.complete,
        "problems": log.problems,
        "implementations": [asdict(i) for i in log.implementations],
        "summary": summaries,
        "results": [r.to_json() for r in log.results],
        "baseline": log.baseline,
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
