"""The failing cases identify shows under "no profile matches"."""

from __future__ import annotations

from conformance.cases import generate_cases
from conformance.engine.identify.confirm import worst_first
from conformance.results.records import CaseResult


def test_wrong_answers_come_before_errors() -> None:
    cases = sorted(generate_cases(6, 0), key=lambda c: len(str(c.input)))
    outcomes = ["error", "pass", "fail", "error", "fail", "skip"]
    results = [CaseResult("x", c.id, "gen", o) for c, o in zip(cases, outcomes, strict=True)]
    shown = [(r.outcome, r.case_id) for r in worst_first(results, cases)]
    assert [o for o, _ in shown] == ["fail", "fail", "error", "error"]
    assert {i for _, i in shown} == {cases[i].id for i in (0, 2, 3, 4)}
