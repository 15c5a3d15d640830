"""Reporters: pure views of a :class:`~conformance.results.report.Report` (any command's log).

:func:`render` is the one format dispatch: the report's command picks the module
(``run_*``, ``compare_*``, ``corpus_*``, ``identify_*``), the format its renderer. Nothing
here runs an implementation or decides a finding; thresholds come from the log's policy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..results.printable import shown
from ..results.report import Report

__all__ = ["FORMATS", "View", "render"]

FORMATS = ("table", "markdown", "json", "html")


@dataclass(frozen=True)
class View:
    """How a person reads the report: terminal ``width`` (the table format fits it),
    ``verbose`` (every row), ``decimals`` (materiality, overriding the log's policy),
    ``color`` (ANSI colors on a terminal)."""

    width: int = 100
    verbose: bool = False
    decimals: int | None = None
    color: bool = False


Renderer = Callable[[Report, str, View], str]


def _renderer(command: str) -> Renderer:
    # imported on use: a command renders one kind of report
    if command == "run":
        from .run_text import render_run

        return render_run
    if command == "compare":
        from .compare_text import render_compare

        return render_compare
    if command == "corpus":
        from .corpus_text import render_corpus

        return render_corpus
    from .identify_text import render_identify

    return render_identify


def render(report: Report, fmt: str = "table", view: View | None = None) -> str:
    """``report`` as ``table``, ``markdown``, ``json`` or ``html``. Every format but JSON
    shows what implementations printed and files held with control characters and
    bidirectional overrides escaped (:func:`~conformance.results.printable.shown`): they can
    neither rewrite a terminal nor reorder a page; the JSON keeps them as read."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    shown_report = report if fmt == "json" else shown(report)
    return _renderer(report.command)(shown_report, fmt, view or View())
