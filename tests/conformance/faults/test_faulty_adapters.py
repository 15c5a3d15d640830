"""Fault injection: protocol programs and command templates that lie in their hello,
answer garbage, hang behind a shell or leave children running, and adapter files with
unknown keys. A violation is a startup error or an error state; every process an adapter
started is gone at the end."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from ..helpers import MINI
from .common import GOOD, JSONL, by_implementation, cli, pids, run_json, wait_gone

MINI_CASES = 4


def jsonl(mode: str, patch: dict | None = None) -> str:
    arg = mode if patch is None else f"{mode}:{json.dumps(patch)}"
    return f"jsonl:{JSONL} {shlex.quote(arg)}"


@pytest.mark.parametrize(
    ("patch", "says"),
    [
        ({"scale": 0}, "scale"),
        ({"scale": "100"}, "scale"),
        ({"precision": "two"}, "precision"),
        ({"levels": "corpus"}, "levels"),
        ({"inputs": ["raw", "xml"]}, "inputs"),
        ({"knobs": {"max_ordr": None}}, "unknown knob 'max_ordr'"),
        ({"knobs": {"max_order": [0]}}, "max_order"),
        ({"native": "sacrebleu2"}, "did you mean 'sacrebleu'"),
        ({"native_knobs": {"tokenize": "13a"}}, "native_knobs needs native"),
        ({"arithmetic": "float16"}, "arithmetic"),
        ({"expect": "papineni2002x"}, "no such expectation key"),
        ({"expect": 7}, "expect"),
        ({"precison": 2}, "did you mean 'precision'"),
        # a name or version that would rewrite the report
        ({"name": "fake\nFAIL 0 of 0"}, "name: 'fake\\nFAIL 0 of 0' is not one line of text"),
        ({"name": "fake \x1b[2J"}, "name: 'fake \\x1b[2J' is not one line of text"),
        ({"name": "fake \u202eliaf"}, "name: 'fake \\u202eliaf' is not one line of text"),
        ({"name": "n" * 10_000}, "name: must be at most 200 characters"),
        ({"version": "1.0\r\npass"}, "version: '1.0\\r\\npass' is not one line of text"),
        ({"version": "1" * 10_000}, "version: must be at most 200 characters"),
    ],
)
def test_a_bad_hello_is_a_startup_error_naming_the_field(capsys, patch, says):
    status, report = run_json(capsys, "--impl", jsonl("hello-with", patch))
    assert status == 1
    assert len(report["results"]) == MINI_CASES
    assert all(r["outcome"] == "error" for r in report["results"])
    assert says in report["results"][0]["reason"]


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("answers-first", "the adapter's first line is not a hello"),
        ("bad-hello", "the adapter speaks protocol 99"),
    ],
)
def test_a_first_line_that_is_no_usable_hello_says_what_it_is(capsys, mode, says):
    status, report = run_json(capsys, "--impl", jsonl(mode))
    assert status == 1 and {r["outcome"] for r in report["results"]} == {"error"}
    assert says in report["results"][0]["reason"]


@pytest.mark.parametrize("where", ["hello", "adapter file"])
def test_a_string_expect_is_one_key_not_letters(capsys, tmp_path, where):
    if where == "hello":
        spec = jsonl("hello-with", {"expect": "papineni2002"})
    else:
        spec = str(tmp_path / "adapter.yaml")
        Path(spec).write_text(f"kind: python\ncallable: {GOOD}\nexpect: papineni2002\n")
    status, report = run_json(capsys, "--impl", spec)
    assert status == 0
    assert {r["outcome"] for r in report["results"]} == {"pass", "skip"}


def test_native_knobs_and_arithmetic_are_read_from_the_hello(capsys):
    patch = {"native": "sacrebleu", "native_knobs": {"tokenize": "intl"}, "arithmetic": "float32"}
    _, report = run_json(capsys, "--impl", jsonl("hello-with", patch))
    caps = report["implementations"][0]["capabilities"]
    assert caps["native"] == "sacrebleu" and caps["native_knobs"] == {"tokenize": "intl"}
    assert caps["arithmetic"] == "float32"


@pytest.mark.parametrize(
    ("patch", "says"),
    [
        ({"bp": "one"}, "bp: 'one' is not a number"),
        ({"score": float("nan")}, "score: nan is not a finite number"),
        ({"score": float("inf")}, "score: inf is not a finite number"),
        ({"hyp_len": float("nan")}, "hyp_len: nan is not a whole number"),
        ({"bp": float("nan")}, "bp: nan is not a finite number"),
        ({"ref_len": float("nan")}, "ref_len: nan is not a finite number"),
        ({"counts": ["1", 2]}, "counts[0]: '1' is not a whole number"),
        ({"failure": "oops"}, "failure: 'oops' is not an object"),
        ({"failure": {"kind": None, "message": "?"}}, "a score or a failure, not both"),
    ],
)
def test_garbage_answers_are_errors(capsys, patch, says):
    status, report = run_json(capsys, "--impl", jsonl("answer-with", patch))
    answered = [r for r in report["results"] if r["outcome"] != "skip"]
    assert answered and all(r["outcome"] == "error" for r in answered)
    assert says in answered[0]["reason"]
    assert status == 1


def test_a_timeout_kills_the_whole_process_group(capsys, tmp_path, monkeypatch):
    """Behind ``bash -c``, the program and the child it started die with the timeout."""
    monkeypatch.setenv("BLEU_TEST_PID_FILE", str(tmp_path / "pids"))
    command = f"{JSONL} grandchild-hang"
    spec = f"jsonl:bash -c {shlex.quote(command + '; true')}"
    status, report = run_json(capsys, "--impl", spec, "--timeout", "2", "-k", "mini.exact")
    assert status == 1
    assert [r["outcome"] for r in report["results"]] == ["error"]
    assert "timeout" in report["results"][0]["reason"]
    started = pids(tmp_path / "pids")
    assert len(started) == 2
    assert wait_gone(started) == []


def test_a_command_template_hang_kills_its_children(capsys, tmp_path):
    pid_file = tmp_path / "pids"
    script = f"sleep 300 & echo $! >> {pid_file}; echo $$ >> {pid_file}; sleep 300"
    adapter = tmp_path / "hang.yaml"
    adapter.write_text(
        f"kind: command\nname: hangs\ntemplate: bash -c {shlex.quote(script)}\ntimeout: 2\n",
        encoding="utf-8",
    )
    status, report = run_json(capsys, "--impl", str(adapter), "--expect", "papineni2002")
    assert status == 1
    errors = [r for r in report["results"] if r["outcome"] == "error"]
    assert errors and "timeout" in errors[0]["reason"]
    started = pids(pid_file)
    assert started and wait_gone(started) == []


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("kind: python\ncallable: tests.conformance.fakes.impls:good\nscael: 100\n", "'scale'"),
        ("kind: python\ncallable: tests.conformance.fakes.impls:good\nscale: '100'\n", "scale"),
        (
            "kind: python\ncallable: tests.conformance.fakes.impls:good\nscale: 0\n",
            "scale: 0 is not",
        ),
        (
            "kind: python\ncallable: tests.conformance.fakes.impls:good\nprecision: two\n",
            "precision: 'two' is not a whole number",
        ),
        (
            "kind: python\ncallable: tests.conformance.fakes.impls:good\nlevels: corpus\n",
            "levels: 'corpus' is not a list",
        ),
        ("kind: command\ntemplate: echo 1\nregex: '(?P<score>\\d+)'\nprecison: 2\n", "precision"),
        ("kind: command\ntemplate: echo 1\nflags: {'lowercas=ascii': -lc}\n", "lowercas"),
        ("kind: jsonl\ncommand: 'true'\ntimeout: -5\n", "timeout"),
        ("kind: jsonl\ncommand: 'true'\nexpect: 7\n", "expect"),
        ("kind: jsonl\ncomand: 'true'\n", "did you mean 'command'"),
        ("kind: pyhton\ncallable: x:y\n", "unknown adapter kind"),
        ("kind: python\n", "needs 'callable'"),
        # a wait that long overflows the platform's clock
        (
            "kind: python\ncallable: tests.conformance.fakes.impls:good\ntimeout: 1.0e+308\n",
            "timeout: 1e+308 is greater than the maximum of 604800",
        ),
        # PyYAML would keep the last 'kind' and complain about 'callable'
        ("kind: python\ncallable: x:y\nkind: jsonl\n", ":3: yaml-duplicate-key: duplicate key"),
    ],
)
def test_adapter_files_reject_unknown_keys_and_bad_values(capsys, tmp_path, text, says):
    adapter = tmp_path / "adapter.yaml"
    adapter.write_text(text, encoding="utf-8")
    argv = ["run", "--fixtures", str(MINI), "--impl", str(adapter), "--format", "json"]
    status, out, err = cli(capsys, *argv)
    if status == 2:  # a file that names nothing usable: bad usage, before any case
        assert out == "" and says in err
    else:  # a file that fails when its implementation starts: every case an error
        report = json.loads(out)
        assert status == 1 and all(r["outcome"] == "error" for r in report["results"])
        assert says in report["results"][0]["reason"]


def test_a_non_utf8_adapter_file_is_a_startup_error(capsys, tmp_path):
    adapter = tmp_path / "adapter.yaml"
    adapter.write_bytes(b"kind: python\ncallable: caf\xe9:x\n")
    status, out, err = cli(capsys, "run", "--fixtures", str(MINI), "--impl", str(adapter))
    assert status == 2 and out == ""  # bad usage, before any case (as compare)
    assert "cannot read adapter file" in err


def test_two_programs_declaring_the_same_name_are_two_rows(capsys):
    spec = jsonl("good")
    other = jsonl("hello-with", {"name": "fake-good"})
    status, report = run_json(capsys, "--impl", spec, "--impl", other)
    rows = by_implementation(report)
    assert len(rows) == 2 and all(len(r) == MINI_CASES for r in rows.values())
    assert status == 0
    status, out, _ = cli(capsys, "compare", "--impl", spec, "--impl", other, "--format", "json")
    pairs = json.loads(out)["pairs"]
    assert pairs and all(p["a"] != p["b"] for p in pairs)
