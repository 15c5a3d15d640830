"""`report LOG` re-renders any command's log in every format without running anything:
the implementations under test record each call they get, and none is made."""

from __future__ import annotations

import json

import pytest

from conformance.results.log import read_log, records_schema

from ..faults.common import cli

MARKER = "tests.conformance.fakes.hostile:marks_its_calls"  # notes each call in a file
FORMATS = ("table", "markdown", "json", "html")


@pytest.fixture
def calls(tmp_path, monkeypatch):
    """The file the marker implementation appends to on each call."""
    path = tmp_path / "calls"
    monkeypatch.setenv("BLEU_TEST_PID_FILE", str(path))
    return path


def _corpus(tmp_path) -> list[str]:
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    ref.write_text("the cat sat on the mat\nthe dog ran away\n", encoding="utf-8")
    a.write_text("the cat sat on a mat\nthe dog ran\n", encoding="utf-8")
    b.write_text("a cat sat on the mat\nthe dogs ran away\n", encoding="utf-8")
    return ["-r", str(ref), "-i", str(a), "-i", str(b)]


def _logged(capsys, tmp_path, calls, *argv: str) -> tuple[str, dict[str, str]]:
    """Run ``argv`` with ``--output``, rendering every format as it goes; the log, and what
    each format printed."""
    log = str(tmp_path / "log.jsonl")
    shown = {}
    for fmt in FORMATS:
        status, out, err = cli(capsys, *argv, "--output", log, "--format", fmt, "-q")
        assert status == 0, err
        shown[fmt] = out
    assert calls.exists()  # the implementation was asked
    calls.unlink()
    return log, shown


def _same(fmt: str, replayed: str, original: str) -> None:
    if fmt == "json":  # the header records the command line and the time: the rest is equal
        a, b = json.loads(replayed), json.loads(original)
        a.pop("header"), b.pop("header")
        assert a == b
    elif fmt == "html":  # the page carries the log's creation time, equal too
        assert replayed == original
    else:
        assert replayed == original


@pytest.mark.slow
@pytest.mark.parametrize("command", ["corpus", "identify"])
def test_report_renders_a_corpus_and_an_identify_log_in_every_format_running_nothing(
    capsys, tmp_path, calls, command
):
    if command == "corpus":
        argv = ["compare", *_corpus(tmp_path), "--impl", MARKER, "--impl", "bleu_impl"]
    else:
        argv = ["identify", "--impl", MARKER, "-k", "paper", "--generate", "3"]
    log, shown = _logged(capsys, tmp_path, calls, *argv)
    assert read_log(log).command == command and read_log(log).complete
    for fmt in FORMATS:
        for replay in (["report", log], ["compare", "--replay", log]):
            status, out, err = cli(capsys, *replay, "--format", fmt)
            assert status == 0, err
            _same(fmt, out, shown[fmt])
    assert not calls.exists(), "re-rendering a log asked the implementation"


def test_every_record_of_every_log_matches_the_published_schema(capsys, tmp_path, calls):
    """The log of each command validates against conformance/schemas/log.schema.json as
    shipped (the reader and the writer check it too)."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(records_schema())
    commands = {
        "run": ["run", "--impl", MARKER, "-k", "paper.ex1"],
        "compare": ["compare", "--impl", MARKER, "--impl", "bleu_impl", "-k", "paper.ex1"],
        "corpus": ["compare", *_corpus(tmp_path), "--impl", MARKER, "--impl", "nltk"],
        "identify": ["identify", "--impl", MARKER, "-k", "paper", "--generate", "2"],
    }
    for command, argv in commands.items():
        log = tmp_path / f"{command}.jsonl"
        cli(capsys, *argv, "--output", str(log), "-q")
        records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        assert records[0]["record"] == "header" and records[0]["command"] == command
        assert records[-1]["record"] == "end"
        for record in records:
            validator.validate(record)


def test_a_corpus_log_cut_before_its_analysis_is_incomplete(capsys, tmp_path, calls):
    log, _ = _logged(
        capsys, tmp_path, calls, "compare", *_corpus(tmp_path), "--impl", MARKER, "--impl", "nltk"
    )
    path = tmp_path / "log.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if '"record": "corpus"' not in line and '"end"' not in line]
    path.write_text("".join(kept), encoding="utf-8")
    status, out, err = cli(capsys, "report", log)
    assert status == 2 and out.startswith("INCOMPLETE") and "interrupted" in err
