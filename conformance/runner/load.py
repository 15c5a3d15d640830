"""Load fixture cases for a run, finding the ``implementations.yaml`` that goes with them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from conformance.fixtures import LoadResult


def registry_root(path: str | os.PathLike[str]) -> Path | None:
    """The nearest directory at or above ``path`` holding an ``implementations.yaml``."""
    start = Path(path).resolve()
    for directory in (start, *start.parents):
        if (directory / "implementations.yaml").is_file():
            return directory
    return None


def load_fixtures(paths: Sequence[str | os.PathLike[str]] = ()) -> LoadResult:
    """Cases under ``paths`` (default: the bundled library), checked against the registry
    of the first path's fixture library (default: the bundled one)."""
    from conformance.fixtures.loader import load_cases

    if not paths:
        return load_cases(None)
    return load_cases(paths, root=registry_root(paths[0]))
