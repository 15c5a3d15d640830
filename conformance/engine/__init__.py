"""The engine: everything that drives implementations through cases.

:func:`build_request` and :func:`ask` (the one place an adapter is called), then
:func:`verify_cases` (answers against expectations), :func:`compare_case` /
:func:`compare_cases` (implementations against each other, with cause attribution) and
:func:`identify` (which profile an implementation matches).
"""

from .asking import Outcome, Reply, ask, build_request
from .batch import compare_cases
from .differ import PairRow, Subject, compare_case, open_subjects, row_record
from .identification import Identification, identify
from .verify import (
    candidate_keys,
    implementation_info,
    run_case,
    startup_failure,
    unknown_expectations,
    verify_cases,
)

__all__ = [
    "Identification",
    "Outcome",
    "PairRow",
    "Reply",
    "Subject",
    "ask",
    "build_request",
    "candidate_keys",
    "compare_case",
    "compare_cases",
    "identify",
    "implementation_info",
    "open_subjects",
    "row_record",
    "run_case",
    "startup_failure",
    "unknown_expectations",
    "verify_cases",
]
