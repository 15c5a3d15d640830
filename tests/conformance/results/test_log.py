"""The run log: one JSON object per line, read back into the same results."""

from __future__ import annotations

import io

import pytest

from conformance.results.log import RunLogWriter, read_run_log
from conformance.results.records import CaseResult, ImplementationInfo, Mismatch


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
    log = RunLogWriter(buffer)
    log.header(argv=["run"])
    log.implementation(ImplementationInfo(name="x", version="1", spec="x"))
    log.result(result)
    log.end(status=None)
    text = buffer.getvalue()
    path.write_text(text[:-20] if truncate else text)
    return result


def test_round_trip(tmp_path):
    path = tmp_path / "run.jsonl"
    result = _write(path)
    log = read_run_log(path)
    assert log.results == [result]
    assert log.implementations[0].version == "1"
    assert log.results[0].node_id == "f.yaml::c1"


def test_interrupted_run_is_still_readable(tmp_path):
    path = tmp_path / "run.jsonl"
    _write(path, truncate=True)
    assert len(read_run_log(path).results) == 1


def test_not_a_run_log(tmp_path):
    path = tmp_path / "other.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(ValueError):
        read_run_log(path)
