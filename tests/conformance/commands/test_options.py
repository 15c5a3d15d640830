"""Progress on long work: a heartbeat on stderr when it is not a terminal, silenced by -q."""

from __future__ import annotations

import io
import re
import sys
import time

from conformance.cli import main
from conformance.commands.options import HEARTBEAT_ENV, ProgressBar

from ..helpers import MINI


def test_heartbeat_lines_report_progress_every_interval(monkeypatch, capsys) -> None:
    monkeypatch.setenv(HEARTBEAT_ENV, "0.02")
    with ProgressBar(10, "run") as bar:
        bar.update(3)
        bar.describe("nltk")
        time.sleep(0.15)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 2
    assert all(re.fullmatch(r"bleu-conformance run: 3/10 \(30%\), \d+ s, nltk", x) for x in lines)


def test_no_heartbeat_when_disabled_or_when_the_work_is_short(monkeypatch, capsys) -> None:
    monkeypatch.setenv(HEARTBEAT_ENV, "0.02")
    with ProgressBar(10, "run", enabled=False):
        time.sleep(0.1)
    monkeypatch.setenv(HEARTBEAT_ENV, "30")
    with ProgressBar(None, "identify"):
        pass  # shorter than one interval: nothing, and the exit does not wait for it
    assert capsys.readouterr().err == ""


def test_commands_beat_in_ci_logs_and_quiet_silences_them(monkeypatch, capsys) -> None:
    monkeypatch.setenv(HEARTBEAT_ENV, "0.001")
    argv = ["run", "--fixtures", str(MINI), "--impl", "nltk", "--impl", "bleu_impl"]
    assert main(argv) == 0
    assert re.search(r"bleu-conformance run: \d+/\d+ \(\d+%\)", capsys.readouterr().err)
    assert main([*argv, "--quiet"]) == 0
    assert "bleu-conformance run:" not in capsys.readouterr().err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_a_bar_and_a_clock_that_moves(monkeypatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with ProgressBar(None, "identify") as bar:
        bar.describe("8 cases on nltk")
        time.sleep(1.3)  # the bar is refreshed every second without any update
    with ProgressBar(4, "run") as bar:
        time.sleep(0.2)  # tqdm redraws at most every 0.1 s
        bar.update(2)
    shown = terminal.getvalue()
    assert "identify: 8 cases on nltk: 00:01" in shown
    assert "run:  50%" in shown and "2/4" in shown
    assert "bleu-conformance" not in shown  # no heartbeat lines on a terminal
