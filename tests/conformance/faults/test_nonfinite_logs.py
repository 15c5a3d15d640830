"""Fault injection: logs holding non-finite numbers (a NaN delta, an infinite tolerance,
stored as the strings "nan"/"inf") render in every format; nothing compares them."""

from __future__ import annotations

import json

from conformance.reporters import junit as junit_report
from conformance.reporters import render
from conformance.reporters.compare import FORMATS as COMPARE_FORMATS
from conformance.reporters.compare import render as render_compare
from conformance.results.log import read_compare_log, read_run_log

from .common import cli

RESULT = {
    "record": "result",
    "implementation": "weird",
    "case_id": "c1",
    "file": "f.yaml",
    "outcome": "fail",
    "reason": "score: expected nan",
    "mismatches": [
        {"field": "score", "expected": "nan", "got": 0.5, "delta": "nan", "tolerance": "inf"}
    ],
}


def _lines(*records: dict) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def test_a_run_log_with_non_finite_numbers_renders_in_every_format(capsys, tmp_path):
    log = tmp_path / "run.jsonl"
    header = {"record": "run", "format": "bleu-conformance-run", "version": 1}
    impl = {"record": "implementation", "name": "weird", "version": "1", "spec": "weird"}
    log.write_text(_lines(header, impl, RESULT, {"record": "end"}), encoding="utf-8")
    parsed = read_run_log(log)
    for fmt in ("table", "markdown", "json", "html"):
        assert "nan" in render(parsed, fmt)
    assert "nan" in junit_report.render(parsed)
    status, out, _ = cli(capsys, "report", str(log))
    assert status == 1 and "inf" in out


def test_a_compare_log_with_non_finite_deltas_renders_in_every_format(tmp_path):
    log = tmp_path / "cmp.jsonl"
    pair = {
        "kind": "pair",
        "item": "c1",
        "a": "x",
        "b": "y",
        "value_a": "nan",
        "value_b": "0.5",
        "verdict": "differing",
        "abs_delta": "nan",
        "rel_delta": "inf",
    }
    head = {"kind": "bleu-conformance-compare", "version": 2}
    log.write_text(_lines(head, pair, {"kind": "end"}), encoding="utf-8")
    parsed = read_compare_log(log)
    for fmt in COMPARE_FORMATS:
        assert "nan" in render_compare(parsed, fmt)
