"""Fault injection: runs stopped by SIGTERM or Ctrl-C, and logs cut short. The log keeps
what it had, every report of it says INCOMPLETE and exits 2, and no adapter process
survives the harness."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.results.log import read_log as read_compare_log

from ..helpers import MINI
from .common import GOOD, HOSTILE, JSONL, cli, pids, wait_gone

ROOT = Path(__file__).parents[3]


def _harness(*argv: str) -> subprocess.Popen[str]:
    # A shell's background job (`pytest ... &`) starts with SIGINT ignored, and a child
    # inherits that: Ctrl-C is tested as a terminal delivers it, to a default handler.
    return subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", *argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _wait_for(predicate, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "the harness never got there"
        time.sleep(0.1)


@pytest.mark.parametrize(
    ("signum", "status"),
    [
        (signal.SIGTERM, 143),
        (signal.SIGINT, 130),
        # a closed terminal or session; the adapters (each in a session of its own) never
        # see it, and the harness died leaving them spinning
        (signal.SIGHUP, 129),
    ],
)
def test_a_signal_stops_the_run_kills_the_adapters_and_keeps_the_log(
    capsys, tmp_path, monkeypatch, signum, status
):
    pid_file, log = tmp_path / "pids", tmp_path / "run.jsonl"
    monkeypatch.setenv("BLEU_TEST_PID_FILE", str(pid_file))
    busy = f"jsonl:bash -c '{JSONL} grandchild-hang; true'"
    harness = _harness(
        "run", "--fixtures", str(MINI), "--impl", "bleu_impl", "--impl", busy,
        "--output", str(log),
    )  # fmt: skip
    _wait_for(lambda: len(pids(pid_file)) == 2)  # the adapter hangs, its child sleeps
    harness.send_signal(signum)
    _, err = harness.communicate(timeout=60)
    assert harness.returncode == status, err
    assert wait_gone(pids(pid_file)) == []
    again, out, _ = cli(capsys, "report", str(log))
    assert again == 2
    assert out.startswith("INCOMPLETE") and "bleu_impl" in out


def test_an_interrupted_callable_worker_is_killed_too(tmp_path, monkeypatch):
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("BLEU_TEST_PID_FILE", str(pid_file))
    harness = _harness("run", "--fixtures", str(MINI), "--impl", f"{HOSTILE}:spin")
    _wait_for(lambda: len(pids(pid_file)) == 1)
    harness.send_signal(signal.SIGTERM)
    harness.communicate(timeout=60)
    assert harness.returncode == 143
    assert wait_gone(pids(pid_file)) == []


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_an_interrupted_comparison_keeps_a_replayable_log(capsys, tmp_path, signum, status):
    log = tmp_path / "cmp.jsonl"
    harness = _harness(
        "compare", "--impl", "bleu_impl", "--impl", "bleu_impl:nltk", "--generate", "500",
        "--no-shrink", "--output", str(log),
    )  # fmt: skip
    _wait_for(lambda: log.exists() and log.read_text().count('"record": "pair"') >= 3)
    harness.send_signal(signum)
    harness.communicate(timeout=60)
    assert harness.returncode == status
    partial = read_compare_log(log)
    assert partial.pairs and not partial.complete
    status, out, err = cli(capsys, "compare", "--replay", str(log))
    assert status == 2
    assert out.startswith("INCOMPLETE") and "interrupted" in err


def _run_log(tmp_path: Path, capsys) -> Path:
    log = tmp_path / "run.jsonl"
    status, _, _ = cli(capsys, "run", "--fixtures", str(MINI), "--impl", GOOD, "--output", str(log))
    assert status == 0
    return log


@pytest.mark.parametrize("cut", ["no-end", "mid-line"])
def test_report_of_a_cut_log_says_incomplete_in_every_format(capsys, tmp_path, cut):
    log = _run_log(tmp_path, capsys)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    assert json.loads(lines[-1])["record"] == "end"
    kept = lines[:-1] if cut == "no-end" else [*lines[:-2], lines[-2][:40]]
    log.write_text("".join(kept), encoding="utf-8")
    for fmt in ("table", "markdown", "html"):
        status, out, err = cli(capsys, "report", str(log), "--format", fmt)
        assert status == 2 and "INCOMPLETE" in out and "interrupted" in err
        assert "100.0%" in out  # what it had is still shown
    status, out, _ = cli(capsys, "report", str(log), "--format", "json")
    assert status == 2 and json.loads(out)["complete"] is False
    junit = tmp_path / "junit.xml"
    status, _, _ = cli(capsys, "report", str(log), "--junit-xml", str(junit))
    assert status == 2 and "INCOMPLETE" in junit.read_text(encoding="utf-8")


def test_replay_of_a_compare_log_without_pairs_is_incomplete(capsys, tmp_path):
    log = tmp_path / "cmp.jsonl"
    status, _, _ = cli(capsys, "compare", "-k", "paper.ex1", "--output", str(log))
    assert status == 0
    head = [line for line in log.read_text().splitlines() if '"record": "pair"' not in line]
    log.write_text("\n".join(head[:-1]) + "\n", encoding="utf-8")  # header, no pairs, no end
    status, out, _ = cli(capsys, "compare", "--replay", str(log))
    assert status == 2 and out.startswith("INCOMPLETE")


def test_a_run_that_selects_nothing_never_shows_the_previous_report(capsys, tmp_path):
    log = _run_log(tmp_path, capsys)
    before = log.read_text(encoding="utf-8")
    status, out, err = cli(
        capsys, "run", "--fixtures", str(MINI), "--impl", GOOD, "-k", "no-such-case",
        "--output", str(log),
    )  # fmt: skip
    assert status == 2 and out == "" and "no fixture case selected" in err
    assert log.read_text(encoding="utf-8") == before
