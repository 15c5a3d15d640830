"""Regression baselines: stable files, and diffs that say what moved."""

from __future__ import annotations

from conformance.results import baseline
from conformance.results.records import CaseResult, ImplementationInfo


def _results(score: float, outcome: str = "pass") -> list[CaseResult]:
    return [
        CaseResult(
            implementation="lib", case_id="b", file="", outcome=outcome, got={"score": score}
        ),
        CaseResult(
            implementation="lib",
            case_id="a",
            file="",
            outcome="pass",
            got={"failure": {"kind": "empty-hypothesis"}},
        ),
    ]


INFO = [ImplementationInfo(name="lib", version="1.0", spec="lib", signature="s")]


def test_file_is_sorted_and_stable(tmp_path):
    doc = baseline.build(INFO, _results(0.5))
    text = baseline.dumps(doc)
    assert text == baseline.dumps(baseline.build(INFO, list(reversed(_results(0.5)))))
    assert text.index('"a"') < text.index('"b"')
    path = tmp_path / "b.json"
    baseline.write(path, doc)
    assert baseline.read(path) == doc


def test_diff_reports_numbers_outcomes_and_versions():
    old = baseline.build(INFO, _results(0.5))
    assert baseline.diff(old, baseline.build(INFO, _results(0.5 + 1e-15))) == []
    moved = baseline.diff(old, baseline.build(INFO, _results(0.6)))
    assert [(m["case"], m["what"], m["regression"]) for m in moved] == [("b", "score", True)]
    upgraded = [ImplementationInfo(name="lib", version="2.0", spec="lib", signature="s")]
    moved = baseline.diff(old, baseline.build(upgraded, _results(0.5, "fail")))
    assert {(m["what"], m["regression"]) for m in moved} == {
        ("version", False),
        ("outcome", True),
    }


def test_subset_runs_neither_lose_nor_report_other_cases():
    old = baseline.build(INFO, _results(0.5))
    partial = baseline.build(INFO, _results(0.5)[:1])
    assert baseline.diff(old, partial, subset=True) == []
    assert baseline.diff(old, partial)[0]["what"] == "case gone"
    assert set(baseline.merge(old, partial)["implementations"]["lib"]["cases"]) == {"a", "b"}
