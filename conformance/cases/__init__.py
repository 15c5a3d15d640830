"""Cases: the one case model, the fixture library's loader and checks, selection, generation.

Public API: :func:`load_fixtures` (paths -> :class:`LoadResult` of cases, problems and
expectation keys), :func:`select_cases`, :func:`generate_cases` and the dataclasses of
:mod:`.model`.
"""

from .generate import generate_cases
from .load import load_fixtures
from .model import (
    Case,
    Expectation,
    ExpectationKey,
    Input,
    LoadResult,
    Problem,
    Segment,
    Tolerance,
    iter_expectations,
)
from .select import matches_keyword, select_cases

__all__ = [
    "Case",
    "Expectation",
    "ExpectationKey",
    "Input",
    "LoadResult",
    "Problem",
    "Segment",
    "Tolerance",
    "generate_cases",
    "iter_expectations",
    "load_fixtures",
    "matches_keyword",
    "select_cases",
]
