"""Every screen fits its terminal: the width is COLUMNS, else the terminal's (on stdout,
stderr or stdin, so piped output fits the window it is read in), else 80; every --help,
``profiles``, ``run`` and ``compare`` keep each line within it (measured at 80)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conformance.cli import SUBCOMMANDS, main
from conformance.commands.options import terminal_width
from conformance.reporters.textgrid import columns

from ..helpers import MINI

WIDTH = 80


def test_terminal_width_follows_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    assert terminal_width() == 120
    monkeypatch.setenv("COLUMNS", "20")
    assert terminal_width() == 60  # a report stays readable in a very narrow window


def test_without_a_terminal_the_width_is_80(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)

    def no_terminal(fd: int) -> os.terminal_size:
        raise OSError("not a terminal")

    monkeypatch.setattr(os, "get_terminal_size", no_terminal)
    assert terminal_width() == 80


def test_piped_output_takes_the_terminal_on_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    """``compare | less``: stdout is a pipe, the window is on stderr."""
    monkeypatch.delenv("COLUMNS", raising=False)

    def only_stderr(fd: int) -> os.terminal_size:
        if fd != 2:
            raise OSError("a pipe")
        return os.terminal_size((132, 40))

    monkeypatch.setattr(os, "get_terminal_size", only_stderr)
    assert terminal_width() == 132


def _widest(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        main(argv)
    except SystemExit as exit_:  # --help
        assert exit_.code == 0
    out = capsys.readouterr().out
    widest = max(out.splitlines(), key=columns)
    return columns(widest), widest


@pytest.mark.parametrize("command", ["", *SUBCOMMANDS])
def test_every_help_fits_80_columns(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    size, line = _widest([command, "--help"] if command else ["--help"], capsys)
    assert size <= WIDTH, line


@pytest.mark.parametrize(
    "argv",
    [
        ["profiles"],
        *(["profiles", "--profile", name] for name in ("sacrebleu", "mteval-v13a", "nltk")),
        ["run", "--impl", "nltk", "--impl", "bleu_impl:sacrebleu", "--fixtures", str(MINI)],
        ["run", "--impl", "tests.conformance.fakes.impls:crash", "--fixtures", str(MINI)],
        ["compare", "-v", "--fixtures", str(MINI)],
        ["identify", "--impl", "tests.conformance.fakes.nmt_like:nmt_like", "--generate", "20"],
    ],
    ids=" ".join,
)
def test_screens_fit_80_columns(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    size, line = _widest([*argv, "-q"] if argv[0] != "profiles" else argv, capsys)
    assert size <= WIDTH, line


def test_the_default_compare_screen_fits_80_columns(
    default_compare_log: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    for argv in (
        ["--replay", str(default_compare_log)],
        ["--replay", str(default_compare_log), "-v"],
    ):
        size, line = _widest(["compare", *argv], capsys)
        assert size <= WIDTH, line
