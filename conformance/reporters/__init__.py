"""Reporters: every report of a run is rendered from its :class:`~conformance.results.log.RunLog`
(``compare`` and ``disagreements`` render theirs in :mod:`.compare` and
:mod:`.disagreements`)."""

from __future__ import annotations

import sys

from ..results.log import RunLog
from . import json_report, junit, text
from .run_html import render_html

__all__ = ["FORMATS", "emit", "exit_status", "junit", "render"]

FORMATS = ("table", "markdown", "json", "html")


def render(log: RunLog, fmt: str = "table", *, color: bool = False) -> str:
    """Render ``log`` as ``table``, ``markdown``, ``json`` or ``html``."""
    if fmt == "json":
        return json_report.render(log)
    if fmt == "html":
        return render_html(log)
    if fmt in ("table", "markdown"):
        return text.render(log, markdown=fmt == "markdown", color=color)
    raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


def exit_status(log: RunLog) -> int:
    """0 when nothing unexpected happened; 2 when the log is no verdict (an interrupted
    run, or fixture problems: cases that could not be checked); else 1."""
    if not log.complete or log.problems:
        return 2
    if any(r.unexpected for r in log.results):
        return 1
    if any(m.get("regression") and not m.get("accepted") for m in log.baseline):
        return 1
    return 0


def emit(log: RunLog, fmt: str, junit_xml: str | None) -> int:
    """Print the report of ``log`` on stdout, write JUnit XML; return the exit status."""
    color = fmt == "table" and text.use_color(sys.stdout)
    print(render(log, fmt, color=color), end="")
    if junit_xml:
        junit.write(log, junit_xml)
    return exit_status(log)
