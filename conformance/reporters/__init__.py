"""Reporters: every report is rendered from a :class:`~conformance.results.RunLog`."""

from __future__ import annotations

from ..results import RunLog
from . import json_report, junit, text

FORMATS = ("table", "markdown", "json")


def render(log: RunLog, fmt: str = "table", *, color: bool = False) -> str:
    """Render ``log`` as ``table``, ``markdown`` or ``json``."""
    if fmt == "json":
        return json_report.render(log)
    if fmt in ("table", "markdown"):
        return text.render(log, markdown=fmt == "markdown", color=color)
    raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


__all__ = ["FORMATS", "junit", "render"]
