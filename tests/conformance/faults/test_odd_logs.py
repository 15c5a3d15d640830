"""Fault injection: run and compare logs edited by hand or by another tool, and
implementations whose messages hold control characters or lone surrogates. A malformed
record is an error naming the file, line and field (exit 2), never a traceback in a
reporter; what an implementation printed is shown escaped, so it can neither rewrite a
terminal nor make JUnit XML unreadable, nor fail a report's encoding."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from ..helpers import MINI
from .common import GOOD, HOSTILE, cli

FORMATS = ("table", "markdown", "json", "html")


def _log(capsys, tmp_path, command: str, *impls: str) -> list[dict]:
    log = tmp_path / f"{command}.jsonl"
    argv = [command, "--fixtures", str(MINI), "--output", str(log), "-k", "mini.exact"]
    for impl in impls:
        argv += ["--impl", impl]
    cli(capsys, *argv)
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def _write(path, records: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def _first(records: list[dict], key: str, kind: str) -> int:
    return next(i for i, r in enumerate(records) if r.get(key) == kind)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("outcome", []),
        ("outcome", "passed"),
        ("implementation", None),
        ("expected", "x"),
        ("stderr", None),
        ("known_failure", True),
        ("duration", None),
        ("mismatches", [1]),
        ("case_id", None),
    ],
)
def test_a_run_log_result_of_the_wrong_shape_names_its_line(capsys, tmp_path, field, value):
    records = _log(capsys, tmp_path, "run", GOOD)
    index = _first(records, "record", "result")
    records[index][field] = value
    log = _write(tmp_path / "edited.jsonl", records)
    for argv in [["--format", f] for f in FORMATS] + [["--junit-xml", str(tmp_path / "j.xml")]]:
        status, _out, err = cli(capsys, "report", log, *argv)
        assert status == 2 and "Traceback" not in err, argv
        assert f"edited.jsonl:{index + 1}:" in err and f"record: {field}" in err


def test_a_result_or_header_written_twice_names_both_lines(capsys, tmp_path):
    """A result counted twice (an edited log, two runs appending to one file) would turn a
    report's counts wrong while it still said the run was complete."""
    records = _log(capsys, tmp_path, "run", GOOD)
    index = _first(records, "record", "result")
    for extra, where, message in [
        (records[index], index + 2, f"the first is on line {index + 1}"),
        (records[0], 2, "a second header"),
    ]:
        at = where - 1
        log = _write(tmp_path / "twice.jsonl", [*records[:at], extra, *records[at:]])
        status, _out, err = cli(capsys, "report", log)
        assert status == 2 and f"twice.jsonl:{where}:" in err and message in err, err


def test_a_compare_log_pair_written_twice_names_both_lines(capsys, tmp_path):
    """A pair record repeated (an edited log) was counted twice in every replayed report."""
    records = _log(capsys, tmp_path, "compare", "bleu_impl", "bleu_impl:nltk")
    index = _first(records, "record", "pair")
    log = _write(tmp_path / "twice.jsonl", [*records[: index + 1], *records[index:]])
    status, _out, err = cli(capsys, "compare", "--replay", log)
    assert status == 2 and f"twice.jsonl:{index + 2}:" in err
    assert f"the first is on line {index + 1}" in err


@pytest.mark.parametrize(
    ("field", "value"),
    [("item", []), ("verdict", {}), ("side_a", True), ("stats_diff", [1]), ("a", None)],
)
def test_a_compare_log_pair_of_the_wrong_shape_names_its_line(capsys, tmp_path, field, value):
    records = _log(capsys, tmp_path, "compare", "bleu_impl", "bleu_impl:nltk")
    index = _first(records, "record", "pair")
    records[index][field] = value
    log = _write(tmp_path / "edited.jsonl", records)
    for fmt in FORMATS:
        status, _out, err = cli(capsys, "compare", "--replay", log, "--format", fmt)
        assert status == 2 and "Traceback" not in err
        assert f"edited.jsonl:{index + 1}:" in err and f"record: {field}" in err


def test_control_characters_from_an_implementation_are_shown_escaped(capsys, tmp_path):
    junit = tmp_path / "junit.xml"
    spec = f"{HOSTILE}:raises_control_characters"
    argv = ["--fixtures", str(MINI), "-k", "mini.exact", "--junit-xml", str(junit)]
    status, out, _err = cli(capsys, "run", "--impl", spec, *argv)
    assert status == 1
    assert "\x1b" not in out and "\x00" not in out and "\u202e" not in out
    assert "ESC \\x1b[31m NUL \\x00 BEL \\x07 RLO \\u202e" in out
    ET.parse(junit)  # well-formed: XML 1.0 cannot hold NUL or ESC


def test_a_lone_surrogate_in_a_message_costs_nothing(capsys, tmp_path):
    junit, spec = tmp_path / "junit.xml", f"{HOSTILE}:raises_lone_surrogate"
    argv = ["--fixtures", str(MINI), "-k", "mini.exact", "--junit-xml", str(junit)]
    status, out, err = cli(capsys, "run", "--impl", spec, *argv)
    assert status == 1, err  # the implementation's error, not a failure to write (2)
    assert "model-\\udcff.bin" in out and "model-\\udcff.bin" in junit.read_text("utf-8")
    status, out, err = cli(capsys, "compare", "--impl", spec, "--impl", GOOD, *argv[:4])
    assert status == 0, err


def test_report_and_replay_render_every_kind_of_log(capsys, tmp_path):
    run_log = _write(tmp_path / "run.jsonl", _log(capsys, tmp_path, "run", GOOD))
    compare_log = _write(
        tmp_path / "cmp.jsonl", _log(capsys, tmp_path, "compare", "bleu_impl", "bleu_impl:nltk")
    )
    for log, first in ((run_log, "implementation"), (compare_log, "Compared 2")):
        for argv in (["report", log], ["compare", "--replay", log]):
            status, out, err = cli(capsys, *argv)
            assert status == 0 and out.startswith(first), (argv, err)


@pytest.mark.parametrize("command", ["run", "compare"])
def test_a_gzip_compressed_log_reads_as_the_log(capsys, tmp_path, command):
    """An archived log (``gzip run.jsonl``) renders as the log did; a truncated or corrupt
    one is an error naming the file (it was 'not JSON' at line 1)."""
    import gzip

    impls = (GOOD,) if command == "run" else (GOOD, "bleu_impl")
    _log(capsys, tmp_path, command, *impls)
    plain = tmp_path / f"{command}.jsonl"
    packed = tmp_path / f"{command}.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    render = ["report"] if command == "run" else ["compare", "--replay"]
    for fmt in ("json", "table"):
        want = cli(capsys, *render, str(plain), "--format", fmt)
        got = cli(capsys, *render, str(packed), "--format", fmt)
        assert got[0] == want[0] and got[1].replace(str(packed), str(plain)) == want[1]
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(packed.read_bytes()[:-20])
    status, _out, err = cli(capsys, *render, str(cut))
    assert status == 2 and "Traceback" not in err
    assert "cut.jsonl.gz" in err and "gzip" in err


@pytest.mark.parametrize("edit", ["end-not-last", "result-without-implementation", "score-text"])
def test_a_hand_edited_run_log_is_refused_with_its_line(capsys, tmp_path, edit):
    records = _log(capsys, tmp_path, "run", GOOD)
    result = _first(records, "record", "result")
    end = _first(records, "record", "end")
    if edit == "end-not-last":
        records.insert(result, records.pop(end))
        where = result + 2  # the result after it
        says = "after the end record"
    elif edit == "result-without-implementation":
        del records[_first(records, "record", "implementation")]
        where, says = result, "no implementation record before it announces"
    else:
        records[result]["got"] = {"score": "0.5"}
        where, says = result + 1, "got.score: '0.5' is not a number"
    log = _write(tmp_path / "edited.jsonl", records)
    status, _out, err = cli(capsys, "report", log)
    assert status == 2 and f"edited.jsonl:{where}:" in err and says in err, err
