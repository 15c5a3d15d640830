"""Shared helpers for the runner tests: the mini fixture file and a one-call runner."""

from __future__ import annotations

import sys
from pathlib import Path

from conformance.adapters.base import Adapter
from conformance.fixtures.loader import load_cases
from conformance.results import CaseResult
from conformance.runner import run_adapter

HERE = Path(__file__).parent
MINI = HERE / "data" / "mini.yaml"
FAKES = HERE / "fakes"
PYTHON = sys.executable


def mini():
    loaded = load_cases([MINI])
    assert not loaded.problems, loaded.problems
    return loaded


def run(adapter: Adapter, *, expect: tuple[str, ...] = (), known=()) -> dict[str, CaseResult]:
    loaded = mini()
    results = run_adapter(adapter, loaded.cases, loaded.implementations, expect=expect, known=known)
    return {r.case_id: r for r in results}
