"""Fault injection: fixture paths that are not plain files. A link loop is a problem naming
the file (it was a traceback), a named pipe inside a fixture folder is reported and never
opened (reading it blocked the run forever), and one file named twice -- directly, through a
link, or inside a folder also given -- is one file, not every case a "duplicate" of itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from ..helpers import MINI
from .common import GOOD, cli


def _folder(tmp_path):
    folder = tmp_path / "cases"
    folder.mkdir()
    shutil.copy(MINI, folder / "good.yaml")
    return folder


def test_a_link_loop_in_a_folder_is_a_problem_and_the_rest_runs(capsys, tmp_path):
    folder = _folder(tmp_path)
    (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    status, out, err = cli(capsys, "validate", str(folder))
    assert status == 1 and "loop.yaml" in out and "Too many levels of symbolic links" in out
    status, out, err = cli(capsys, "run", "--fixtures", str(folder), "--impl", GOOD)
    assert status == 2 and "Traceback" not in err
    assert "FIXTURE PROBLEMS" in out and "100.0%" in out  # the good file's cases ran


def test_a_link_loop_named_directly_is_a_problem(capsys, tmp_path):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    status, out, _ = cli(capsys, "validate", str(loop))
    assert status == 1 and "Too many levels of symbolic links" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_in_a_fixture_folder_is_reported_never_opened(tmp_path):
    folder = _folder(tmp_path)
    os.mkfifo(folder / "pipe.yaml")
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "validate", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,  # before the fix: blocked here forever, opening the pipe
        check=False,
    )
    assert proc.returncode == 1
    assert "pipe.yaml" in proc.stdout and "not a regular file (a named pipe)" in proc.stdout


def test_one_file_named_twice_is_one_file(capsys, tmp_path):
    folder = _folder(tmp_path)
    link = tmp_path / "link.yaml"
    link.symlink_to(folder / "good.yaml")
    twice = [str(folder / "good.yaml"), str(link), str(folder)]
    status, out, _ = cli(capsys, "validate", *twice)
    assert status == 0 and "duplicate-id" not in out
    argv = ["run", "--impl", GOOD]
    for path in twice:
        argv += ["--fixtures", path]
    status, out, _ = cli(capsys, *argv)
    assert status == 0 and "FIXTURE PROBLEMS" not in out


def test_a_case_file_without_cases_is_a_problem(capsys, tmp_path):
    """``cases: []`` validated as "OK ... in 0 files": a file meant to hold cases checked
    nothing, silently. It is a schema problem naming the file and line."""
    folder = _folder(tmp_path)
    (folder / "empty.yaml").write_text("suite: x\ndescription: y\ncases: []\n", encoding="utf-8")
    status, out, _ = cli(capsys, "validate", str(folder / "empty.yaml"))
    assert status == 1 and "empty.yaml:3" in out and "should be non-empty" in out
    status, out, _ = cli(capsys, "run", "--fixtures", str(folder), "--impl", GOOD)
    assert status == 2 and "empty.yaml" in out and "100.0%" in out  # the good file ran


@pytest.mark.parametrize(
    ("data", "where", "says"),
    [
        (
            'suite: x\ndescription: "café"\n'.encode("cp1252"),
            "latin.yaml:2",
            "byte 0xe9 at column 18",
        ),
        ("suite: x\n".encode("utf-16"), "latin.yaml:1", "a UTF-16 file"),
    ],
)
def test_a_case_file_not_in_utf8_names_the_line_of_its_first_bad_byte(
    capsys, tmp_path, data, where, says
):
    (tmp_path / "latin.yaml").write_bytes(data)
    status, out, _ = cli(capsys, "validate", str(tmp_path / "latin.yaml"))
    assert status == 1 and where in out and says in out and "iconv" in out


def test_a_case_id_with_a_line_break_or_bidi_override_is_shown_escaped(capsys, tmp_path):
    """The validate table printed such ids raw: a newline broke its row, U+202E reversed
    the rest of the terminal line."""
    text = MINI.read_text(encoding="utf-8")
    first = text.index("id: mini.") + len("id: ")
    end = text.index("\n", first)
    bad = text[:first] + '"mini.evil\\u202e\\nrow"' + text[end:]
    (tmp_path / "ids.yaml").write_text(bad, encoding="utf-8")
    status, out, _ = cli(capsys, "validate", str(tmp_path / "ids.yaml"))
    assert status == 1 and "\u202e" not in out and "mini.evil\\u202e\\nrow" in out
