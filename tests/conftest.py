"""Shared test helpers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def perl_groundtruth() -> list[dict]:
    """The real Perl scripts' outputs (see tests/data/README.md)."""
    return json.loads((DATA / "perl_scripts.json").read_text(encoding="utf-8"))
