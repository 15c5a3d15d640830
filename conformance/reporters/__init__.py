"""Reporters: pure views of a :class:`~conformance.results.report.Report` (any command's log).

:func:`render` is the one format dispatch: the report's command and the format pick the
function that renders it (:data:`MODULES`). Nothing here runs an implementation or
decides a finding; thresholds come from the log's policy. A command's ``*_text`` module
renders its text, Markdown and JSON, its ``*_html`` module the page; the shared pieces
(:mod:`.numbers`, :mod:`.textgrid`, :mod:`.markdown`, :mod:`.html`, :mod:`.figures`,
:mod:`.view`) import no report module. A reporter is imported when first used, so that a
command imports only its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from .view import View

if TYPE_CHECKING:
    from bleu_impl import BleuResult

    from ..results.report import Report

__all__ = ["FORMATS", "MODULES", "View", "explanation", "render"]

FORMATS = ("table", "markdown", "json", "html")

#: Each command's reporter modules: the text module renders ``render_table``,
#: ``render_markdown`` and ``render_json``, the page module ``render_html``.
MODULES = {
    "run": ("run_text", "run_html"),
    "compare": ("compare_text", "compare_html"),
    "corpus": ("corpus_text", "corpus_html"),
    "identify": ("identify_text", "identify_text"),
    "versions": ("versions_text", "versions_text"),
}


def render(report: Report, fmt: str = "table", view: View | None = None) -> str:
    """``report`` as ``table``, ``markdown``, ``json`` or ``html``. Every format but JSON
    shows what implementations printed and files held with control characters and
    bidirectional overrides escaped (:func:`~conformance.results.printable.shown`): they can
    neither rewrite a terminal nor reorder a page; the JSON keeps them as read."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    from ..results.printable import shown

    text, page = MODULES[report.command]
    module = importlib.import_module(f".{page if fmt == 'html' else text}", __name__)
    renderer: Callable[[Report, View], str] = getattr(module, f"render_{fmt}")
    return renderer(report if fmt == "json" else shown(report), view or View())


def explanation(
    result: BleuResult,
    fmt: str = "text",
    segments: Iterable[Sequence[object]] | None = None,
    headers: Sequence[str] = (),
) -> Iterator[str]:
    """``explain``'s output in ``text`` or ``html``, in pieces ending with a line break: the
    score step by step, then (``segments``, with ``headers``) the reference length chosen
    per segment; text streams the segments as they come, the page holds them all."""
    from . import explain_html, explain_text

    if fmt == "html":
        yield explain_html.render_explanation_html(result, list(segments or ()), headers)
        return
    yield explain_text.render_explanation(result) + "\n"
    if segments is not None:
        yield "\n"
        yield from (line + "\n" for line in explain_text.segment_lines(headers, segments))
