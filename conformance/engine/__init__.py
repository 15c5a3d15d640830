"""The engine: everything that drives implementations through cases.

:func:`build_request` and :func:`ask` (the one place an adapter is called), then
:func:`verify_cases` (answers against expectations; :func:`verify_as` against one named
reference for ``run --as``), :func:`compare_case` /
:func:`compare_cases` (implementations against each other, with cause attribution) and
:func:`identify` (which profile an implementation matches).
"""

from .asking import Outcome, Reply, ask, build_request
from .compare.batch import WorkerLost, compare_cases
from .compare.pairs import PairRow, compare_case, pair_record
from .identify.identification import Identification, identify
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
from .verify_as import Reference, make_reference, verify_as

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
    "identify",
    "implementation_info",
    "make_reference",
    "open_subjects",
    "pair_record",
    "run_case",
    "startup_failure",
    "unknown_expectations",
    "verify_as",
    "verify_cases",
]
