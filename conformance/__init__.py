"""bleu-conformance: verify and compare BLEU implementations against a fixture library.

The flow: cases (:mod:`conformance.cases`) -> adapters (:mod:`conformance.adapters`) ->
engine (:mod:`conformance.engine`) -> results (:mod:`conformance.results`: typed records, the
one log, the Report read back) -> reporters (:mod:`conformance.reporters`); the command line
(:mod:`conformance.cli`, :mod:`conformance.commands`) is a thin edge over them.

The public names below are imported on first use, so that importing the pytest plugin
(``conformance.pytest_plugin``) loads nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_names

if TYPE_CHECKING:
    from .adapters import Adapter, Capabilities, make_adapter
    from .cases import Case, ExpectationKey, LoadResult, load_fixtures, select_cases
    from .engine import PairRow, Reply, ask, build_request, compare_case, verify_cases
    from .engine.identify.identification import identify
    from .protocol import AdapterError, Answer, Failure, Request
    from .reporters import render
    from .results.log import read_log
    from .results.records import CaseResult, Pair
    from .results.report import Report

#: Where each public name lives (imported on first use).
_MODULES = {
    "adapters": ("Adapter", "Capabilities", "make_adapter"),
    "cases": ("Case", "ExpectationKey", "LoadResult", "load_fixtures", "select_cases"),
    "engine": ("PairRow", "Reply", "ask", "build_request", "compare_case"),
    "engine.identify.identification": ("identify",),
    "engine.verify": ("verify_cases",),
    "protocol": ("AdapterError", "Answer", "Failure", "Request"),
    "reporters": ("render",),
    "results.log": ("read_log",),
    "results.records": ("CaseResult", "Pair"),
    "results.report": ("Report",),
}

__all__ = [
    "Adapter",
    "AdapterError",
    "Answer",
    "Capabilities",
    "Case",
    "CaseResult",
    "ExpectationKey",
    "Failure",
    "LoadResult",
    "Pair",
    "PairRow",
    "Reply",
    "Report",
    "Request",
    "ask",
    "build_request",
    "compare_case",
    "identify",
    "load_fixtures",
    "make_adapter",
    "read_log",
    "render",
    "select_cases",
    "verify_cases",
]


__getattr__ = lazy_names(__name__, _MODULES, __all__)
