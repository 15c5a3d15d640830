"""Fault injection: Python implementations that exit, crash, hang, print or lie about
themselves. Each becomes an error state for its cases (or a startup error naming the
field); the run always finishes and its report always lists every case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.adapters import make_adapter
from conformance.results.coverage import EXIT_UNCHECKED

from ..helpers import MINI
from .common import GOOD, HOSTILE, by_implementation, cli, pids, run_json, wait_gone

MINI_CASES = 4
TWO_CASES = ("-k", "mini.exact", "-k", "mini.partial")


@pytest.mark.parametrize(
    ("fake", "says"),
    [
        ("exit_zero", "sys.exit(0)"),
        ("exit_three", "sys.exit(3)"),
        ("os_exit", "exit status 0"),
        ("segfault", "SIGSEGV"),
        ("keyboard_interrupt", "KeyboardInterrupt"),
    ],
)
def test_an_implementation_ending_its_process_is_an_error_and_the_report_is_complete(
    capsys, fake, says
):
    status, report = run_json(capsys, "--impl", f"{HOSTILE}:{fake}", "--impl", GOOD)
    assert status == 1  # never 0: nothing was checked
    rows = by_implementation(report)
    hostile, good = rows[f"{HOSTILE}:{fake}"], rows[GOOD]
    assert len(hostile) == len(good) == MINI_CASES
    answered = [r for r in hostile if r["outcome"] != "skip"]
    assert answered and all(r["outcome"] == "error" for r in answered)
    assert all(says in r["reason"] for r in answered), answered[0]["reason"]
    assert {r["outcome"] for r in good} == {"pass", "skip"}
    assert report["complete"] is True


@pytest.mark.parametrize("fake", ["exit_three", "os_exit", "segfault", "keyboard_interrupt"])
def test_compare_with_an_implementation_ending_its_process_errors_its_pairs(capsys, fake):
    """Its worker dies on every case: each pair is ``errored``, the comparison goes on, and
    as nothing was compared with it, it is no verdict (exit 4, not green)."""
    argv = ["--fixtures", str(MINI), "--impl", GOOD, "--impl", f"{HOSTILE}:{fake}", *TWO_CASES]
    status, out, _ = cli(capsys, "compare", *argv, "--format", "json")
    assert status == EXIT_UNCHECKED
    verdicts = [(p["item"], p["verdict"]) for p in json.loads(out)["pairs"]]
    assert verdicts == [("mini.exact", "errored"), ("mini.partial", "errored")]


def test_exit_at_import_is_a_startup_error_for_every_case(capsys):
    spec = "tests.conformance.fakes.exits_at_import:bleu"
    status, report = run_json(capsys, "--impl", spec, "--impl", GOOD)
    assert status == 1
    rows = by_implementation(report)
    assert len(rows[spec]) == MINI_CASES
    assert all(r["outcome"] == "error" for r in rows[spec])
    assert "sys.exit(3)" in rows[spec][0]["reason"]
    assert {r["outcome"] for r in rows[GOOD]} == {"pass", "skip"}


def test_compare_with_an_implementation_exiting_at_import_is_a_startup_error(capsys):
    spec = "tests.conformance.fakes.exits_at_import:bleu"
    status, out, err = cli(capsys, "compare", "--fixtures", str(MINI), "--impl", GOOD,
                           "--impl", spec)  # fmt: skip
    assert status == 2 and out == ""
    assert "cannot start the implementation" in err and "sys.exit(3)" in err


def test_a_busy_loop_is_killed_at_the_timeout_and_starves_nothing(capsys, tmp_path, monkeypatch):
    """The spinning worker is killed (not abandoned in a thread), so the next
    implementation answers at full speed: no false timeouts."""
    monkeypatch.setenv("BLEU_TEST_PID_FILE", str(tmp_path / "pids"))
    argv = ["--impl", f"{HOSTILE}:spin", "--impl", GOOD, "--timeout", "1", "-k", "mini.exact"]
    status, report = run_json(capsys, *argv)
    rows = by_implementation(report)
    assert [r["outcome"] for r in rows[f"{HOSTILE}:spin"]] == ["error"]
    assert "timeout" in rows[f"{HOSTILE}:spin"][0]["reason"]
    assert [r["outcome"] for r in rows[GOOD]] == ["pass"]
    assert status == 1
    spinners = pids(tmp_path / "pids")
    assert spinners and wait_gone(spinners) == []


def test_a_timeout_kills_what_the_implementation_started(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("BLEU_TEST_PID_FILE", str(tmp_path / "pids"))
    argv = ["--impl", f"{HOSTILE}:spawn_and_hang", "--timeout", "2", "-k", "mini.exact"]
    status, report = run_json(capsys, *argv)
    assert status == 1
    assert [r["outcome"] for r in report["results"]] == ["error"]
    started = pids(tmp_path / "pids")
    assert len(started) == 2  # its child and itself
    assert wait_gone(started) == []


def test_printing_to_stdout_does_not_corrupt_the_json_report(capsys):
    status, out, _ = cli(
        capsys, "run", "--fixtures", str(MINI), "--format", "json", "--impl", f"{HOSTILE}:prints"
    )
    report = json.loads(out)  # the whole of stdout is the report
    assert status == 0
    assert {r["outcome"] for r in report["results"]} == {"pass", "skip"}
    captured = [r["stderr"] for r in report["results"] if r["outcome"] == "pass"]
    assert captured and all("CHATTER" in c and "raw bytes" in c for c in captured)
    argv = ["--fixtures", str(MINI), "--impl", f"{HOSTILE}:prints", "--impl", GOOD, *TWO_CASES]
    status, out, _ = cli(capsys, "compare", *argv, "--format", "json")
    assert status == 0
    assert [p["verdict"] for p in json.loads(out)["pairs"]] == ["identical", "identical"]


def test_reading_stdin_does_not_eat_the_protocol(capsys):
    status, report = run_json(capsys, "--impl", f"{HOSTILE}:reads_stdin")
    assert status == 0
    assert {r["outcome"] for r in report["results"]} == {"pass", "skip"}


@pytest.mark.parametrize(
    ("fake", "says"),
    [
        ("nan", "score: nan is not a finite number"),
        ("inf", "score: inf is not a finite number"),
        ("bp_word", "bp: 'one' is not a number"),
        ("nan_statistics", "hyp_len: nan is not a whole number"),
        ("unpicklable", "bp: <function"),
    ],
)
def test_garbage_answers_are_errors_and_every_report_renders(capsys, tmp_path, fake, says):
    spec = f"{HOSTILE}:{fake}"
    log = tmp_path / "run.jsonl"
    status, report = run_json(capsys, "--impl", spec, "--output", str(log))
    answered = [r for r in report["results"] if r["outcome"] != "skip"]
    assert answered and all(r["outcome"] == "error" for r in answered)
    assert says in answered[0]["reason"]
    assert status == 1
    for fmt in ("table", "markdown", "json", "html"):
        again, out, _ = cli(capsys, "report", str(log), "--format", fmt)
        assert again == 1 and "error" in out.lower()
    again, _, _ = cli(capsys, "report", str(log), "--junit-xml", str(tmp_path / "junit.xml"))
    assert again == 1 and "<error" in (tmp_path / "junit.xml").read_text()


@pytest.mark.parametrize(
    ("fake", "says"),
    [
        ("scale_string", "bleu_scale"),
        ("scale_zero", "bleu_scale"),
        ("precision_word", "bleu_precision"),
        ("levels_string", "bleu_levels"),
        ("misspelled", "did you mean 'bleu_scale'"),
        ("native_unknown", "bleu_native"),
        ("arithmetic_word", "bleu_arithmetic"),
        ("expect_unknown", "no such expectation key"),
    ],
)
def test_a_bad_declaration_is_a_startup_error_never_a_silent_skip(capsys, fake, says):
    spec = f"{HOSTILE}:{fake}"
    status, report = run_json(capsys, "--impl", spec)
    assert status == 1
    assert len(report["results"]) == MINI_CASES
    assert all(r["outcome"] == "error" for r in report["results"])
    assert says in report["results"][0]["reason"]
    assert report["implementations"][0]["startup_error"]


def test_native_native_knobs_and_arithmetic_are_read_from_attributes():
    with make_adapter(f"{HOSTILE}:declares_everything") as adapter:
        caps = adapter.capabilities
    assert caps.native == "sacrebleu"
    assert dict(caps.native_knobs) == {"tokenize": "intl"}
    assert caps.arithmetic == "float32"
    assert caps.expect == ("papineni2002",)


def test_the_same_implementation_twice_gives_two_rows(capsys):
    status, report = run_json(capsys, "--impl", GOOD, "--impl", GOOD)
    names = [s["implementation"] for s in report["summary"]]
    assert len(names) == 2 and len(set(names)) == 2
    for summary in report["summary"]:
        assert sum(summary["counts"].values()) == MINI_CASES  # not doubled
    assert status == 0


def test_an_always_raising_implementation_is_never_explained(capsys):
    spec = f"{HOSTILE}:always_raises"
    argv = ["--impl", spec, "--impl", "bleu_impl", "-k", "paper", "--format", "json"]
    status, out, _ = cli(capsys, "compare", *argv)
    assert status == 0
    pairs = [p for p in json.loads(out)["pairs"] if p["verdict"] == "differing"]
    assert pairs and all(p["cause"]["cause"].startswith("unexplained") for p in pairs)
    assert all(p["cause"]["changes"] == [] for p in pairs)
    assert all("always fails" in p["side_a"]["message"] for p in pairs)
    status, out, _ = cli(capsys, "identify", "--impl", spec, "-k", "paper", "--generate", "3")
    assert status == 0
    assert "0 answers on" in out and "failed without a known kind" in out
    assert "no profile matches" in out


def test_the_worker_is_stopped_when_the_adapter_closes():
    adapter = make_adapter(GOOD)
    pid = adapter.pid
    assert pid is not None
    adapter.close()
    assert wait_gone([pid]) == []


def test_a_dead_jobs_worker_ends_the_comparison_as_incomplete(tmp_path):
    """compare --jobs 2 whose pool worker is killed mid-run: an error naming the lost worker
    and the report of what was compared, exit 2 -- it waited forever before."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    argv = [sys.executable, "-m", "conformance.cli", "compare", "--fixtures", str(MINI)]
    argv += ["--impl", "tests.conformance.fakes.impls:kills_parent", "--impl", "bleu_impl"]
    argv += ["--jobs", "2", "-q", "--output", str(tmp_path / "cmp.jsonl")]
    done = subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=180)
    assert done.returncode == 2, done.stderr
    assert "worker process of --jobs died" in done.stderr
    assert "interrupted" in done.stderr  # the log has no end record: the report says so
    assert (tmp_path / "cmp.jsonl").read_text(encoding="utf-8").startswith("{")
