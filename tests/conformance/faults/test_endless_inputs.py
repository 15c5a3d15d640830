"""Fault injection: input files that never end or expand without a line end (``/dev/zero``
named as a reference, a case file, a log or a known-failures file; a ``.gz`` bomb). Each is
an error naming the file (and line), exit 2 -- never memory filled until the system's
out-of-memory killer ends the command (or, under a memory limit, a MemoryError traceback).

The command runs in a child process whose address space is limited to 1.5 GB, so that a
regression fails this test instead of exhausting the machine's memory.
"""

from __future__ import annotations

import gzip
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import MINI

ROOT = Path(__file__).parents[3]
ZERO = "/dev/zero"
_LIMIT = 1536 * 1024 * 1024

pytestmark = pytest.mark.skipif(not os.path.exists(ZERO), reason="needs /dev/zero")


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (_LIMIT, _LIMIT))


def _cli(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
        preexec_fn=_limited,
    )


def _corpus(tmp_path: Path) -> tuple[str, str]:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\n", encoding="utf-8")
    ref.write_text("the cat is on the mat\n", encoding="utf-8")
    return str(hyp), str(ref)


def _bomb(tmp_path: Path) -> str:
    """A .gz of 2 kB that expands to 2 GiB of NUL bytes without a line end."""
    path = tmp_path / "bomb.gz"
    chunk = b"\0" * (1 << 20)
    with gzip.open(path, "wb", compresslevel=9) as out:
        for _ in range(2048):
            out.write(chunk)
    return str(path)


@pytest.mark.parametrize("command", ["score", "explain", "compare"])
@pytest.mark.parametrize("role", ["-r", "-i"])
def test_an_endless_text_file_is_a_bad_file(tmp_path, command, role):
    hyp, ref = _corpus(tmp_path)
    files = {"-r": ZERO, "-i": hyp} if role == "-r" else {"-r": ref, "-i": ZERO}
    extra = ["--impl", "bleu_impl:sacrebleu", "--impl", "bleu_impl"] if command == "compare" else []
    proc = _cli(command, "-r", files["-r"], "-i", files["-i"], *extra)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"{ZERO}:1: a line longer than 256 MiB" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_a_gz_bomb_is_a_bad_file(tmp_path):
    hyp, _ = _corpus(tmp_path)
    bomb = _bomb(tmp_path)
    proc = _cli("score", "-r", bomb, "-i", hyp)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"{bomb}:1: a line longer than 256 MiB" in proc.stderr


@pytest.mark.parametrize("command", ["report", "compare --replay"])
def test_an_endless_log_is_not_a_log(command):
    proc = _cli(*command.split(), ZERO)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"{ZERO}:1: not a log: a line longer than 256 MiB" in proc.stderr


def test_an_endless_case_file_is_a_fixture_problem():
    proc = _cli("validate", ZERO)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "larger than 64 MiB" in proc.stdout


def test_an_endless_known_failures_file_is_a_usage_error():
    argv = ["run", "--fixtures", str(MINI), "--impl", "bleu_impl", "--known-failures", ZERO]
    proc = _cli(*argv)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"{ZERO}: cannot read known failures: larger than 64 MiB" in proc.stderr


def test_the_line_bound_admits_a_100_mb_segment():
    """One 100 MB line in hyp and ref scores correctly (4.26 GB of memory at first, 2.2 GB
    since the long-text split shares tokens): the bound that stops /dev/zero must not
    refuse it."""
    from conformance.bounded import MAX_LINE

    assert MAX_LINE >= 2 * 100 * 10**6
