"""The log: one JSON object per line, checked against the published schema, read back into
the same records; logs of the previous release read too."""

from __future__ import annotations

import io
import json

import pytest

from conformance.results.log import LogWriter, read_log, records_schema
from conformance.results.records import (
    CaseResult,
    End,
    Header,
    ImplementationInfo,
    Mismatch,
)
from tools import log_schema


def _write(path, truncate: bool = False) -> CaseResult:
    result = CaseResult(
        implementation="x",
        case_id="c1",
        file="f.yaml",
        outcome="fail",
        reason="r",
        mismatches=(Mismatch("score", 0.5, 0.25, -0.25, 1e-9),),
        got={"score": 0.25},
        tags=("a",),
    )
    buffer = io.StringIO()
    log = LogWriter(buffer, Header("run", argv=("run",)))
    log.write(ImplementationInfo(name="x", version="1", spec="x"))
    log.write(result)
    log.write(End())
    text = buffer.getvalue()
    path.write_text(text[:-20] if truncate else text)
    return result


def test_round_trip(tmp_path):
    path = tmp_path / "run.jsonl"
    result = _write(path)
    log = read_log(path)
    assert log.command == "run" and log.header.argv == ("run",)
    assert log.results == [result]
    assert log.implementations[0].version == "1"
    assert log.results[0].node_id == "f.yaml::c1"
    assert log.complete


def test_interrupted_run_is_still_readable(tmp_path):
    path = tmp_path / "run.jsonl"
    _write(path, truncate=True)
    log = read_log(path)
    assert len(log.results) == 1 and not log.complete


def test_not_a_log(tmp_path):
    path = tmp_path / "other.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(ValueError, match="no header"):
        read_log(path)


def test_the_shipped_schema_is_the_records_schema():
    """conformance/schemas/log.schema.json is what the records' types say (regenerate it with
    `python -m tools.log_schema`)."""
    assert json.dumps(records_schema(), indent=1, ensure_ascii=False) + "\n" == log_schema.text()


def test_a_record_the_schema_refuses_is_never_written():
    log = LogWriter(io.StringIO(), Header("run"))
    bad = CaseResult(implementation="x", case_id="c", file="", outcome="passed")  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="record: outcome"):
        log.write(bad)


def test_a_run_log_of_the_previous_release_reads_as_today(tmp_path):
    """Written by the release before the one log format: a ``run`` header, then today's
    records."""
    lines = [
        {"record": "run", "format": "bleu-conformance-run", "version": 1, "argv": ["run"],
         "impls": ["nltk"], "cases": 1, "fixtures": ["(bundled)"], "reference": ""},
        {"record": "implementation", "name": "nltk", "version": "3.10.4", "spec": "nltk"},
        {"record": "result", "implementation": "nltk", "case_id": "c", "file": "f.yaml",
         "outcome": "pass", "duration": 0.5},
        {"record": "baseline", "implementation": "nltk", "case": "c", "what": "score",
         "before": 0.5, "after": 0.6, "regression": True, "accepted": False},
        {"record": "end", "status": None},
    ]  # fmt: skip
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    log = read_log(path)
    assert log.command == "run" and log.header.params["impls"] == ["nltk"]
    assert [r.outcome for r in log.results] == ["pass"] and log.complete
    assert log.baseline[0].regression and log.exit_status() == 1


def test_a_compare_log_of_the_previous_release_reads_as_today(tmp_path):
    lines = [
        {"kind": "bleu-conformance-compare", "version": 2, "created": "2026-01-01T00:00:00Z",
         "implementations_compared": ["bleu_impl", "nltk"], "items": 2},
        {"kind": "implementation", "name": "bleu_impl", "version": "0.1.0", "spec": "bleu_impl"},
        {"kind": "pair", "item": "c1", "file": "f.yaml", "a": "bleu_impl", "b": "nltk",
         "value_a": "0.0", "value_b": "error:ZeroDivisionError (division by zero)",
         "verdict": "differing", "abs_delta": None, "rel_delta": None, "score_a": 0.0,
         "failure_b": "ZeroDivisionError", "cause": "unexplained", "explained": False,
         "changes": [], "alternatives": "", "stats_diff": ["nltk reports only a score"]},
        {"kind": "pair", "item": "c2", "file": "f.yaml", "a": "bleu_impl", "b": "nltk",
         "value_a": "skip: cannot express smoothing='x'", "value_b": "0.5",
         "verdict": "skipped", "abs_delta": None, "rel_delta": None},
        {"kind": "end", "pairs": "complete", "fixture_problems": 0},
    ]  # fmt: skip
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    log = read_log(path)
    assert log.command == "compare" and log.complete and log.header.created.startswith("2026")
    first, second = log.pairs
    assert first.side_b.failure == "ZeroDivisionError"
    assert first.side_b.message == "division by zero" and first.side_a.score == 0.0
    assert first.cause is not None and not first.cause.explained
    assert second.side_a.status == "skipped" and second.side_b.score == 0.5
    assert log.exit_status() == 0
