"""Fault injection: an adapter of a package (an entry point, run in a worker) whose answer or
capabilities hold values of the wrong type -- a failure that is text, a stderr that is a
number, a failure kind 7, a scale of 0, 500,000 counts. Nothing an adapter returns is trusted
by its type: each is read again by the protocol schema, so it is an error for that case (or,
for capabilities, a startup error for every case) naming the field, and run, compare and
identify end with a verdict, never an internal error (exit 3)."""

from __future__ import annotations

import pytest

from conformance.adapters import ENTRY_POINT_GROUP
from conformance.results.coverage import EXIT_UNCHECKED

from ..helpers import MINI
from .common import GOOD, by_implementation, cli, run_json

EXACT = ("-k", "mini.exact")


@pytest.fixture
def odd(tmp_path, monkeypatch):
    """The entry point ``odd`` of an installed package (also seen by the worker, which
    gets this sys.path)."""
    info = tmp_path / "odd_adapters-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: odd-adapters\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nodd = tests.conformance.fakes.odd_adapters:Odd\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "odd"


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("failure-text", "garbage: failure: 'boom' is not an object"),
        ("stderr-number", "garbage: stderr: 5 is not text"),
        ("failure-kind-number", "garbage: failure.kind: 7 is not a string"),
        ("many-counts", "garbage: counts: must be at most 100 items (got 500,000)"),
    ],
)
def test_an_answer_of_the_wrong_types_is_an_error_for_its_case(capsys, tmp_path, odd, mode, says):
    log = tmp_path / "run.jsonl"
    status, report = run_json(capsys, "--impl", f"{odd}:{mode}", *EXACT, "--output", str(log))
    [result] = report["results"]
    assert status == 1
    assert result["outcome"] == "error" and result["reason"].startswith(says)
    assert log.stat().st_size < 20_000  # 500,000 counts are neither kept nor logged


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("scale-zero", "scale: 0 is not one of [1, 100]"),
        ("precision-word", "precision: 'two' is not a whole number"),
        ("levels-text", "levels: 'corpus' is not a list"),
    ],
)
def test_capabilities_of_the_wrong_types_are_a_startup_error(capsys, odd, mode, says):
    spec = f"{odd}:{mode}"
    status, report = run_json(capsys, "--impl", spec, "--impl", GOOD)
    rows = by_implementation(report)
    assert status == 1
    assert rows[spec] and all(r["outcome"] == "error" for r in rows[spec])
    assert "cannot start the implementation: its capabilities: " + says in rows[spec][0]["reason"]
    assert {r["outcome"] for r in rows[GOOD]} == {"pass", "skip"}


@pytest.mark.parametrize("command", ["compare", "identify"])
@pytest.mark.parametrize("mode", ["failure-text", "stderr-number", "failure-kind-number"])
def test_compare_and_identify_take_such_answers_for_errors(capsys, odd, command, mode):
    argv = ["--impl", f"{odd}:{mode}", "--fixtures", str(MINI)]
    if command == "compare":
        argv += ["--impl", "bleu_impl"]
    status, out, err = cli(capsys, command, *argv)
    # compared with nothing (every pair errored), a comparison is no verdict
    assert status == (EXIT_UNCHECKED if command == "compare" else 0) and "Traceback" not in err
    assert "errored" in out if command == "compare" else "gave no score on any case" in out


@pytest.mark.parametrize("command", ["compare", "identify"])
def test_compare_and_identify_refuse_such_capabilities_by_name(capsys, odd, command):
    """As for any implementation that cannot start: a usage error (exit 2) naming why."""
    argv = ["--impl", f"{odd}:scale-zero", "--fixtures", str(MINI)]
    if command == "compare":
        argv += ["--impl", "bleu_impl"]
    status, _, err = cli(capsys, command, *argv)
    assert status == 2 and "Traceback" not in err
    assert "its capabilities: scale: 0 is not one of [1, 100]" in err
