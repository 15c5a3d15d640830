"""`bleu-conformance run` and `report`: one command, exit status, one run log for every report."""

from __future__ import annotations

import json
import re
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
    assert "papineni2002" in out  # bleu_impl:papineni2002, its table cell may wrap


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


def test_as_checks_every_case_and_names_the_source_of_each_expected_value(capsys):
    """Live sacrebleu as sacrebleu: its recorded outputs where a case has them, else
    bleu_impl's sacrebleu profile; both agree with the live library on every case."""
    pytest.importorskip("sacrebleu")
    status = main(["run", "--impl", "sacrebleu", "-k", "edge", "--format", "json", "-q"])
    default = json.loads(capsys.readouterr().out)["summary"][0]["counts"]
    assert status == 0
    argv = ["run", "--impl", "sacrebleu", "-k", "edge", "--as", "sacrebleu", "-q"]
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    counts = data["summary"][0]["counts"]
    assert set(counts) <= {"pass", "skip"}  # no fail or error (zero counts are left out)
    assert counts["pass"] > default["pass"]
    sources = {r["expected"]["source"].split(" ")[0] for r in data["results"] if r["expected"]}
    assert sources == {"recorded", "computed"}
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "checked as sacrebleu: recorded outputs of sacrebleu>=2" in out
    assert re.search(r"expected values: \d+ recorded outputs of the tool, \d+ computed", out)


def test_as_shows_where_a_failing_expected_value_comes_from(capsys):
    status, out, _ = run_cli(capsys, "--impl", f"{FAKE}:swap_references", "--as", "papineni2002")
    assert status == 1
    assert "expected: papineni2002 (recorded output of BLEU paper" in out
    argv = ["--impl", f"{FAKE}:good", "--format", "json", "-q"]
    default = json.loads(run_cli(capsys, *argv)[1])["summary"][0]["counts"]
    status, out, _ = run_cli(capsys, *argv, "--as", "papineni2002")
    assert status == 0
    assert default.get("skip", 0) > 0  # some mini cases record no papineni2002 output
    assert json.loads(out)["summary"][0]["counts"] == {"pass": 4}  # --as: all 4 cases


def test_as_needs_a_known_name_and_excludes_expect(capsys):
    status, _, err = run_cli(capsys, "--impl", "nltk", "--as", "no-such-tool")
    assert status == 2 and "not a profile" in err and "sacrebleu" in err
    status, _, err = run_cli(capsys, "--impl", "nltk", "--as", "nltk", "--expect", "nltk>=3.3")
    assert status == 2 and "give one" in err


def test_as_takes_knobs(capsys):
    """Live sacrebleu's default checked as sacrebleu + tokenize=intl fails where the
    tokenizers differ (the knob reaches the reference); --knob needs --as; a knob the
    profile's tool has no option for is bad usage."""
    argv = ["run", "--impl", "sacrebleu", "-k", "sacrebleu", "--format", "json", "-q"]
    assert main([*argv, "--as", "sacrebleu"]) == 0
    capsys.readouterr()
    assert main([*argv, "--as", "sacrebleu", "--knob", "tokenize=intl"]) == 1
    assert json.loads(capsys.readouterr().out)["summary"][0]["counts"]["fail"] > 0
    status, _, err = run_cli(capsys, "--impl", "nltk", "--knob", "tokenize=intl")
    assert status == 2 and "give --as NAME" in err
    status, _, err = run_cli(
        capsys, "--impl", "nltk", "--as", "nltk", "--knob", "arithmetic=float32"
    )
    assert status == 2 and "no option for knob 'arithmetic'" in err


def test_update_baseline_accepts_the_current_state(capsys, tmp_path):
    """A failing implementation: --update-baseline shows what moved and exits 0; the next
    run against the new baseline reports no movement (only its fixture failures)."""
    path = tmp_path / "baseline.json"
    impl = f"{FAKE}:swap_references"
    assert run_cli(capsys, "--impl", impl, "--baseline", str(path), "--update-baseline")[0] == 0
    data = json.loads(path.read_text())
    cases = data["implementations"][impl]["cases"]
    cases["mini.partial"]["score"] = 0.9  # moved by a lot
    cases["mini.exact"]["score"] = 0.99  # moved by a little
    path.write_text(json.dumps(data))
    status, out, _ = run_cli(capsys, "--impl", impl, "--baseline", str(path))
    assert status == 1
    moved = out.index("Changes since the baseline")
    assert moved < out.index("Unexpected results")  # what moved comes first
    table = out[moved:].split("\n\n")[1]
    rows = [line for line in table.splitlines() if " score " in line]
    assert [row.split()[1] for row in rows] == ["mini.partial", "mini.exact"]  # largest first
    status, out, _ = run_cli(capsys, "--impl", impl, "--baseline", str(path), "--update-baseline")
    assert status == 0
    assert "Changes since the baseline (accepted" in out and "mini.partial" in out
    status, out, _ = run_cli(capsys, "--impl", impl, "--baseline", str(path))
    assert status == 1 and "Changes since the baseline" not in out


@pytest.mark.parametrize("spec", ["nltkk", "./no-such-adapter.yaml"])
def test_an_unusable_impl_is_bad_usage_before_any_case(spec, tmp_path, capsys) -> None:
    """A typo or a missing adapter file exits 2 up front (as compare does), with no case
    run and no log written, even after a usable implementation."""
    from conformance.cli import main

    log = tmp_path / "run.jsonl"
    assert (
        main(
            [
                "run",
                "--impl",
                "bleu_impl",
                "--impl",
                spec,
                "-k",
                "paper",
                "-q",
                "--output",
                str(log),
            ]
        )
        == 2
    )
    out, err = capsys.readouterr()
    assert "unknown implementation" in err and out == ""
    assert not log.exists()
