"""The engine: everything that drives implementations through cases.

:func:`build_request` and :func:`ask` (the one place an adapter is called), then
:func:`verify_cases` (answers against expectations; :func:`.verify_as.verify_as` against
one named reference for ``run --as``: not re-exported, the name is its module's),
:func:`compare_case` / :func:`compare_cases` (implementations against each other, with cause
attribution) and
:func:`.identify.identification.identify` (which profile an implementation matches; not
re-exported: the name is its subpackage's). Each name is imported from its submodule on first
use, so a command loads only the parts of the engine it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .asking import Outcome, Reply, ask, build_request
    from .compare.batch import WorkerLost, compare_cases
    from .compare.pairs import PairRow, compare_case, pair_record
    from .identify.identification import Identification
    from .subjects import Subject, open_subjects
    from .verify import (
        candidate_keys,
        check_expectation,
        expected_by_default,
        implementation_info,
        run_case,
        startup_failure,
        unknown_expectations,
        verify_cases,
    )
    from .verify_as import Reference, make_reference

#: Where each public name lives (imported on first use).
_MODULES = {
    "asking": ("Outcome", "Reply", "ask", "build_request"),
    "compare.batch": ("WorkerLost", "compare_cases"),
    "compare.pairs": ("PairRow", "compare_case", "pair_record"),
    "identify.identification": ("Identification",),
    "subjects": ("Subject", "open_subjects"),
    "verify": (
        "candidate_keys",
        "check_expectation",
        "expected_by_default",
        "implementation_info",
        "run_case",
        "startup_failure",
        "unknown_expectations",
        "verify_cases",
    ),
    "verify_as": ("Reference", "make_reference"),
}

__all__ = [
    "Identification",
    "Outcome",
    "PairRow",
    "Reference",
    "Reply",
    "Subject",
    "WorkerLost",
    "ask",
    "build_request",
    "candidate_keys",
    "check_expectation",
    "compare_case",
    "compare_cases",
    "expected_by_default",
    "implementation_info",
    "make_reference",
    "open_subjects",
    "pair_record",
    "run_case",
    "startup_failure",
    "unknown_expectations",
    "verify_cases",
]

__getattr__ = lazy_names(__name__, _MODULES, __all__)
