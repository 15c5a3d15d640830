"""`bleu-conformance validate`: table/json output and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.cli import main

BAD = Path(__file__).parents[1] / "cases" / "bad"


def test_validate_bundled_library_passes(capsys) -> None:
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK:") and "0 problems" in out


def test_validate_bad_file_prints_table_and_fails(capsys) -> None:
    assert main(["validate", str(BAD / "unknown_tag.yaml")]) == 1
    out = capsys.readouterr().out
    assert "file:line" in out and "rule" in out
    assert "unknown_tag.yaml:7" in out
    assert "bad.unknown-tag" in out and "unknown-tag" in out
    assert "FAILED" in out and "1 problems" in out


def test_validate_json_lists_every_problem(capsys) -> None:
    assert main(["validate", "--format", "json", str(BAD)]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is False
    assert payload["summary"]["problems"] == len(payload["problems"]) >= 30
    first = payload["problems"][0]
    assert set(first) == {"file", "line", "case", "rule", "message"}
    rules = {p["rule"] for p in payload["problems"]}
    assert {"yaml-syntax", "schema", "duplicate-id", "score-inconsistent"} <= rules


def test_a_path_that_does_not_exist_is_bad_usage(tmp_path, capsys) -> None:
    """Exit 2 (bad usage, as an unknown --impl), not 1 (a problem in the fixtures)."""
    from conformance.cli import main

    assert main(["validate", str(tmp_path / "nofile.yaml")]) == 2
    assert "no such file or directory" in capsys.readouterr().err
