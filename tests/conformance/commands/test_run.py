"""`bleu-conformance run` and `report`: one command, exit status, one run log for every report."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from conformance.cli import main

from ..helpers import MINI

FAKE = "tests.conformance.fakes.impls"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["run", "--fixtures", str(MINI), *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_all_pass_exits_zero(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    status, out, _ = run_cli(capsys, "--impl", "nltk", "--impl", "bleu_impl:multi-bleu")
    assert status == 0
    assert "implementation" in out and "conformance" in out
    assert "nltk" in out and "3.10.4" in out
    assert "\033[" not in out


def test_failures_exit_one_and_are_explained(capsys):
    status, out, _ = run_cli(capsys, "--impl", f"{FAKE}:swap_references")
    assert status == 1
    assert "FAIL" in out and "mini.partial" in out
    assert "expected" in out and "delta" in out and "tolerance" in out


def test_errors_do_not_stop_the_run(capsys):
    status, out, _ = run_cli(capsys, "--impl", f"{FAKE}:crash", "--impl", "bleu_impl")
    assert status == 1
    assert "RuntimeError: boom" in out
    assert "bleu_impl:papineni2002" in out


def test_unimportable_function_errors_every_case(capsys):
    status, out, _ = run_cli(capsys, "--impl", "no_such_pkg_xyz:bleu")
    assert status == 1
    assert "cannot import module" in out


def test_known_failures_turn_failures_into_xfail(capsys, tmp_path):
    known = tmp_path / "known.yaml"
    known.write_text(
        f"implementation: '{FAKE}:swap_references'\n"
        "failures:\n  - case: mini.partial\n    reason: rotates references\n"
        "    link: https://example.org/issue/1\n"
    )
    status, out, _ = run_cli(
        capsys,
        "--impl",
        f"{FAKE}:swap_references",
        "--known-failures",
        str(known),
        "--format",
        "json",
    )
    data = json.loads(out)
    assert data["summary"][0]["counts"]["xfail"] == 1
    assert status == 0


def test_output_log_rerenders_identically(capsys, tmp_path):
    log = tmp_path / "run.jsonl"
    junit = tmp_path / "junit.xml"
    status, out, _ = run_cli(
        capsys,
        "--impl",
        "nltk",
        "--impl",
        f"{FAKE}:wrong_scale",
        "--output",
        str(log),
        "--junit-xml",
        str(junit),
    )
    assert status == 1
    assert main(["report", str(log)]) == 1
    again, _ = capsys.readouterr()
    assert again == out
    assert main(["report", str(log), "--format", "markdown", "--impl", "nltk"]) == 0
    markdown, _ = capsys.readouterr()
    assert "| nltk" in markdown and "wrong_scale" not in markdown
    suites = ET.parse(junit).getroot().findall("testsuite")
    assert [s.get("name") for s in suites] == ["nltk", f"{FAKE}:wrong_scale"]


def test_filters(capsys):
    status, out, _ = run_cli(capsys, "--impl", "bleu_impl", "-k", "partial", "--format", "json")
    assert [r["case_id"] for r in json.loads(out)["results"]] == ["mini.partial"]
    status, out, _ = run_cli(
        capsys, "--impl", "bleu_impl", "--tag", "smoothing", "--format", "json"
    )
    assert [r["case_id"] for r in json.loads(out)["results"]] == ["mini.nltk-method1"]
    status, _, err = run_cli(capsys, "--impl", "bleu_impl", "-k", "nothing-matches-this")
    assert status == 2 and "no fixture case" in err


def test_baseline_cycle(capsys, tmp_path):
    path = tmp_path / "baseline.json"
    status, _, err = run_cli(capsys, "--impl", f"{FAKE}:good", "--baseline", str(path))
    assert status == 2 and "--update-baseline" in err
    status, _, _ = run_cli(
        capsys, "--impl", f"{FAKE}:good", "--baseline", str(path), "--update-baseline"
    )
    assert status == 0 and path.exists()
    first = path.read_text()
    # a case without an expectation for it is still answered and recorded (observe only)
    observed = json.loads(first)["implementations"][f"{FAKE}:good"]["cases"]["mini.nltk-method1"]
    assert observed["outcome"] == "skip" and isinstance(observed["score"], float)
    assert run_cli(capsys, "--impl", f"{FAKE}:good", "--baseline", str(path))[0] == 0
    # same implementation name, different numbers: what moved is reported, exit 1
    data = json.loads(first)
    cases = data["implementations"][f"{FAKE}:good"]["cases"]
    cases["mini.partial"]["score"] = 0.4
    path.write_text(json.dumps(data))
    status, out, _ = run_cli(capsys, "--impl", f"{FAKE}:good", "--baseline", str(path))
    assert status == 1
    assert "Changes since the baseline" in out and "mini.partial" in out


def test_help_teaches_with_examples(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out, _ = capsys.readouterr()
    assert "examples:" in out and "--impl" in out and "exit codes:" in out
