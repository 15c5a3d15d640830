"""Shared helpers for the runner tests: the mini fixture file and a one-call runner."""

from __future__ import annotations

import sys
from pathlib import Path

from conformance.adapters.base import Adapter
from conformance.cases import load_fixtures
from conformance.engine import verify_cases
from conformance.results.records import CaseResult

HERE = Path(__file__).parent
MINI = HERE / "data" / "mini.yaml"
FAKES = HERE / "fakes"
PYTHON = sys.executable


def mini():
    loaded = load_fixtures([MINI])
    assert not loaded.problems, loaded.problems
    return loaded


def run(adapter: Adapter, *, expect: tuple[str, ...] = (), known=()) -> dict[str, CaseResult]:
    loaded = mini()
    results = verify_cases(adapter, loaded.cases, loaded.keys, expect=expect, known=known)
    return {r.case_id: r for r in results}
