"""Fault injection: outputs that cannot be written, baselines that are not baselines, and
standard streams used wrongly. Each is a clear error (exit 2) -- before the work when it
can be known before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import MINI
from .common import GOOD, cli, run_json

ROOT = Path(__file__).parents[3]
TRIPWIRE = "tests.conformance.fakes.hostile:spin"  # would hang: never reached when checked first


def _targets(tmp_path: Path) -> dict[str, str]:
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    return {
        "missing directory": str(tmp_path / "missing" / "out"),
        "a directory": str(tmp_path),
        "under a file": str(a_file / "out"),
    }


@pytest.mark.parametrize("option", ["--output", "--junit-xml", "--baseline"])
@pytest.mark.parametrize("where", ["missing directory", "a directory", "under a file"])
def test_run_checks_its_outputs_before_the_work(capsys, tmp_path, option, where):
    target = _targets(tmp_path)[where]
    extra = ["--update-baseline"] if option == "--baseline" else []
    status, out, err = cli(
        capsys, "run", "--fixtures", str(MINI), "--impl", TRIPWIRE, option, target, *extra
    )
    assert status == 2 and out == ""
    assert option in err and target in err


@pytest.mark.parametrize("option", ["--output", "--report"])
def test_compare_checks_its_outputs_before_the_work(capsys, tmp_path, option):
    target = str(tmp_path / "missing" / "cmp")
    status, out, err = cli(capsys, "compare", "--impl", TRIPWIRE, "--impl", GOOD, option, target)
    assert status == 2 and out == ""
    assert "does not exist" in err


@pytest.mark.parametrize("option", ["--output", "--junit-xml"])
def test_a_full_disk_is_a_clear_error(capsys, option):
    status, _, err = cli(
        capsys, "run", "--fixtures", str(MINI), "--impl", GOOD, option, "/dev/full"
    )
    assert status == 2
    assert "/dev/full" in err and "No space left on device" in err


def test_compare_report_to_a_full_disk_is_a_clear_error(capsys):
    status, _, err = cli(capsys, "compare", "-k", "paper.ex1", "--report", "/dev/full")
    assert status == 2 and "No space left on device" in err


def test_reports_are_written_atomically_with_ordinary_permissions(capsys, tmp_path):
    junit, base = tmp_path / "junit.xml", tmp_path / "base.json"
    junit.write_text("old", encoding="utf-8")
    argv = ["--impl", GOOD, "--junit-xml", str(junit), "--baseline", str(base)]
    status, _ = run_json(capsys, *argv, "--update-baseline")
    assert status == 0
    assert junit.read_text(encoding="utf-8").startswith("<?xml")
    assert json.loads(base.read_text(encoding="utf-8"))["format"] == "bleu-conformance-baseline"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.json", "junit.xml"]  # no temps
    umask = os.umask(0)
    os.umask(umask)
    assert base.stat().st_mode & 0o777 == 0o666 & ~umask


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("[]", "not a bleu-conformance baseline"),
        ("null", "not a bleu-conformance baseline"),
        (
            '{"format": "bleu-conformance-baseline", "version": "1", "implementations": {}}',
            "integer",
        ),
        (
            '{"format": "bleu-conformance-baseline", "version": 1, '
            '"implementations": {"x": {"cases": []}}}',
            "'cases'",
        ),
        (
            '{"format": "bleu-conformance-baseline", "version": 1, "implementations": []}',
            "'implementations'",
        ),
    ],
)
def test_a_baseline_that_is_not_one_is_a_clear_error_before_the_run(
    capsys, tmp_path, content, says
):
    base = tmp_path / "base.json"
    base.write_text(content, encoding="utf-8")
    status, out, err = cli(
        capsys, "run", "--fixtures", str(MINI), "--impl", TRIPWIRE, "--baseline", str(base)
    )
    assert status == 2 and out == ""
    assert says in err


def test_nan_in_a_baseline_never_hides_movement(capsys, tmp_path):
    base = tmp_path / "base.json"
    status, _ = run_json(capsys, "--impl", GOOD, "--baseline", str(base), "--update-baseline")
    document = json.loads(base.read_text(encoding="utf-8"))
    cases = document["implementations"][GOOD]["cases"]
    cases["mini.partial"]["score"] = float("nan")
    base.write_text(json.dumps(document), encoding="utf-8")  # NaN: Python's JSON extension
    status, report = run_json(capsys, "--impl", GOOD, "--baseline", str(base))
    moved = [m for m in report["baseline"] if m["case"] == "mini.partial"]
    assert status == 1
    assert moved and moved[0]["what"] == "score"


def _child(*argv: str, stdin: bytes | None = b"the cat sat\n", **popen) -> tuple[int, str]:
    """``bleu-conformance ARGV`` in a child process: (exit status, stderr)."""
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.cli", *argv],
        cwd=ROOT,
        input=stdin,
        stderr=subprocess.PIPE,
        stdout=popen.pop("stdout", subprocess.PIPE),
        check=False,
        **popen,
    )
    return proc.returncode, proc.stderr.decode()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["score", "-r", "-"], "references cannot be read from standard input"),
        (["score", "-r", "-", "-i", "-"], "references cannot be read from standard input"),
        (["explain", "-r", "-"], "standard input (-) can be read only once"),
    ],
)
def test_score_and_explain_refuse_to_read_stdin_twice(argv, says):
    status, err = _child(*argv)
    assert status == 2 and says in err


def test_score_with_stdin_closed_is_a_clear_error(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat\n", encoding="utf-8")
    status, err = _child("score", "-r", str(ref), stdin=None, preexec_fn=lambda: os.close(0))
    assert status == 2 and "standard input is closed" in err


def test_score_to_a_full_disk_is_a_clear_error(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat\n", encoding="utf-8")
    with open("/dev/full", "wb") as full:
        status, err = _child("score", "-r", str(ref), "-i", str(ref), stdin=None, stdout=full)
    assert status == 2 and "No space left on device" in err
    assert "Traceback" not in err


def test_compare_log_to_a_full_disk_names_the_file(capsys):
    status, _, err = cli(
        capsys, "compare", "--impl", GOOD, "-k", "paper.ex1", "--output", "/dev/full"
    )
    assert status == 2
    assert "--output /dev/full" in err and "No space left on device" in err


def test_a_baseline_on_an_endless_device_is_refused_not_read_forever():
    argv = ["run", "--fixtures", str(MINI), "--impl", TRIPWIRE, "--baseline", "/dev/full"]
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "conformance.cli", *argv, "--update-baseline"],
            cwd=ROOT, capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail("reading /dev/full as a baseline never ended")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "/dev/full" in proc.stderr and "baseline" in proc.stderr
