"""Fault injection: options a command would have ignored, a report filter that matches
nothing, outputs of compare's corpus mode, and hand-edited baselines. An option that cannot
apply is an error (exit 2), never silently dropped (an ignored ``--output`` is a log never
written; an ignored ``--knob`` changes every number)."""

from __future__ import annotations

import contextlib
import io
import json
import os

import pytest

from ..helpers import MINI
from .common import GOOD, cli, run_json

MARKER = "tests.conformance.fakes.hostile:marks_its_calls"  # notes each call in the pid file


@pytest.fixture
def calls(tmp_path, monkeypatch):
    """The pid file the marker implementation writes on each call."""
    path = tmp_path / "calls"
    monkeypatch.setenv("BLEU_TEST_PID_FILE", str(path))
    return path


def test_a_baseline_score_beyond_a_float_moves_never_crashes(capsys, tmp_path):
    base = tmp_path / "base.json"
    run_json(capsys, "--impl", GOOD, "--baseline", str(base), "--update-baseline")
    document = json.loads(base.read_text(encoding="utf-8"))
    document["implementations"][GOOD]["cases"]["mini.exact"]["score"] = 10**400
    base.write_text(json.dumps(document), encoding="utf-8")
    status, report = run_json(capsys, "--impl", GOOD, "--baseline", str(base))
    assert status == 1
    assert [m["what"] for m in report["baseline"] if m["case"] == "mini.exact"] == ["score"]


def test_report_of_an_implementation_not_in_the_log_is_an_error(capsys, tmp_path):
    log = tmp_path / "run.jsonl"
    run_json(capsys, "--impl", GOOD, "--output", str(log))
    status, out, err = cli(capsys, "report", str(log), "--impl", "tests.conformance.fakes.goood")
    assert status == 2 and out == ""  # not an empty table with exit 0
    assert "not in this log" in err and GOOD in err


def _corpus(tmp_path) -> list[str]:
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    ref.write_text("the cat sat on the mat\nthe dog ran away\n", encoding="utf-8")
    a.write_text("the cat sat on a mat\nthe dog ran\n", encoding="utf-8")
    b.write_text("a cat sat on the mat\nthe dogs ran away\n", encoding="utf-8")
    return ["-r", str(ref), "-i", str(a), "-i", str(b)]


@pytest.mark.parametrize("option", [["--generate", "5"], ["-k", "paper"], ["-v"]])
def test_a_fixture_mode_option_in_corpus_mode_is_an_error(capsys, tmp_path, calls, option):
    argv = ["compare", *_corpus(tmp_path), "--impl", MARKER, "--impl", GOOD, *option]
    status, out, err = cli(capsys, *argv)
    assert status == 2 and out == "" and not calls.exists()
    assert f"{option[0]}: not an option of corpus mode" in err


@pytest.mark.parametrize("option", [["--knob", "tokenize=char"], ["--baseline", "nltk"]])
def test_a_corpus_mode_option_in_fixture_mode_is_an_error(capsys, calls, option):
    argv = ["compare", "--fixtures", str(MINI), "--impl", MARKER, "--impl", GOOD, *option]
    status, out, err = cli(capsys, *argv)
    assert status == 2 and out == "" and not calls.exists()
    assert f"{option[0]}: not an option of fixture mode" in err


def test_corpus_mode_checks_its_report_before_the_work(capsys, tmp_path, calls):
    target = tmp_path / "missing" / "report.txt"
    argv = ["compare", *_corpus(tmp_path), "--impl", MARKER, "--impl", GOOD]
    status, out, err = cli(capsys, *argv, "--report", str(target))
    assert status == 2 and out == "" and not calls.exists()
    assert f"--report {target}: directory" in err


def test_corpus_mode_writes_its_report_atomically(capsys, tmp_path, monkeypatch):
    target = tmp_path / "report.txt"
    target.write_text("the previous report\n", encoding="utf-8")
    monkeypatch.setattr(os, "replace", _no_space)  # the disk fills at the last step
    argv = ["compare", *_corpus(tmp_path), "--impl", "bleu_impl", "--impl", "bleu_impl:nltk"]
    status, _, err = cli(capsys, *argv, "--report", str(target))
    assert status == 2 and "--report" in err
    assert target.read_text(encoding="utf-8") == "the previous report\n"


def _no_space(*args: object) -> None:
    raise OSError(28, "No space left on device")


def test_corpus_mode_defaults_its_baseline_to_an_implementation_compared(capsys, tmp_path):
    argv = ["compare", *_corpus(tmp_path), "--impl", "bleu_impl", "--impl", "bleu_impl:nltk"]
    status, out, err = cli(capsys, *argv)
    assert status == 0, err
    assert "baseline: bleu_impl:papineni2002" in out
    status, out, err = cli(capsys, *argv, "--baseline", "bleu_impl:nltk")
    assert status == 0 and "baseline: bleu_impl:nltk" in out
    status, out, err = cli(capsys, *argv, "--baseline", "bleu_impl")  # the spec names it
    assert status == 0 and "baseline: bleu_impl:papineni2002" in out


def test_corpus_mode_into_a_closed_pipe_ends_quietly(capsys, tmp_path):
    read, write = os.pipe()
    os.close(read)  # the reader (`| head`) has gone
    stream = io.TextIOWrapper(io.FileIO(write, "w"), encoding="utf-8")
    argv = ["compare", *_corpus(tmp_path), "--impl", "bleu_impl", "--impl", "bleu_impl:nltk"]
    with contextlib.redirect_stdout(stream):
        status, _, err = cli(capsys, *argv, "-q")
    with contextlib.suppress(OSError):
        stream.close()
    assert status == 0 and "Broken pipe" not in err
