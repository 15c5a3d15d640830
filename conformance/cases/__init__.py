"""Cases: the one case model, the fixture library's loader and checks, selection, generation.

Public API: :func:`load_fixtures` (paths -> :class:`LoadResult` of cases, problems and
expectation keys), :func:`select_cases`, :func:`generate_cases` and the dataclasses of
:mod:`.model`. Each is imported on first use: the case model (``.model``) without the
loader's YAML and JSON Schema, which only the commands that load fixtures need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .generate import generate_cases, tokenized
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

#: Where each public name lives (imported on first use).
_MODULES = {
    "generate": ("generate_cases", "tokenized"),
    "load": ("load_fixtures",),
    "model": (
        "Case",
        "Expectation",
        "ExpectationKey",
        "Input",
        "LoadResult",
        "Problem",
        "Segment",
        "Tolerance",
        "iter_expectations",
    ),
    "select": ("matches_keyword", "select_cases"),
}

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
    "tokenized",
]


__getattr__ = lazy_names(__name__, _MODULES, __all__)
