"""Fault injection: Python implementations whose side effects outlive their call (a fork,
closed standard streams). The case they happen in is judged on its answer; the next case
and the next implementation never inherit the damage."""

from __future__ import annotations

import pytest

from .common import GOOD, HOSTILE, run_json

CASES = ("-k", "mini.exact", "-k", "mini.partial")  # a case after the one that forks


def _outcomes(report: dict) -> list[tuple[str, str]]:
    return [(r["case_id"], r["outcome"]) for r in report["results"] if r["outcome"] != "skip"]


@pytest.mark.parametrize("fake", ["forks", "closes_its_output", "closes_all_its_streams"])
def test_a_side_effect_never_reaches_the_next_case(capsys, fake):
    status, report = run_json(capsys, "--impl", f"{HOSTILE}:{fake}", "--impl", GOOD, *CASES)
    reasons = [r["reason"] for r in report["results"] if r["outcome"] == "error"]
    assert reasons == [] and status == 0
    assert _outcomes(report) == [("mini.exact", "pass"), ("mini.partial", "pass")] * 2
