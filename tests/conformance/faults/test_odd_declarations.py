"""Fault injection beyond issue 13's list: declarations and options that would corrupt a
report or overflow a wait. A name or version with a line break, an ANSI escape or a
bidirectional override would rewrite the table it is printed in; a timeout of 1e308
seconds overflows the platform's clock; an empty ``--as`` or ``--impl`` (an unset shell
variable) would silently change what is checked."""

from __future__ import annotations

import json
import shlex

import pytest

from .common import GOOD, JSONL, cli, run_json


def jsonl_hello(patch: dict) -> str:
    return f"jsonl:{JSONL} {shlex.quote('hello-with:' + json.dumps(patch))}"


@pytest.mark.parametrize(
    ("patch", "says"),
    [
        ({"name": "fake\nFAIL 0 of 0"}, "name: must be one line of text"),
        ({"name": "fake \x1b[2J"}, "name: must be one line of text"),
        ({"name": "fake \u202eliaf"}, "name: must be one line of text"),
        ({"name": "n" * 10_000}, "name: must be at most 200 characters"),
        ({"version": "1.0\r\npass"}, "version: must be one line of text"),
    ],
)
def test_a_declared_name_that_would_rewrite_the_report_is_a_startup_error(capsys, patch, says):
    status, report = run_json(capsys, "--impl", jsonl_hello(patch))
    assert status == 1
    assert all(r["outcome"] == "error" for r in report["results"])
    assert says in report["results"][0]["reason"]


def test_an_adapter_file_timeout_beyond_a_week_is_a_startup_error(capsys, tmp_path):
    adapter = tmp_path / "adapter.yaml"
    adapter.write_text(f"kind: python\ncallable: {GOOD}\ntimeout: 1.0e+308\n", encoding="utf-8")
    status, report = run_json(capsys, "--impl", str(adapter))
    assert status == 1
    assert all("timeout: must be a number of seconds" in r["reason"] for r in report["results"])


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--timeout", "1e308"], "argument --timeout: must be at most 604,800"),
        (["--as", ""], "argument --as: must not be empty"),
        (["--impl", ""], "argument --impl: must not be empty"),
    ],
)
def test_an_option_that_cannot_mean_anything_is_a_usage_error(capsys, argv, says):
    with pytest.raises(SystemExit) as info:
        cli(capsys, "run", "--impl", GOOD, *argv)
    assert info.value.code == 2
    assert says in capsys.readouterr().err


def test_an_adapter_file_with_a_duplicate_key_is_an_error_naming_it(capsys, tmp_path):
    """PyYAML keeps the last of two equal keys: ``kind: python`` then ``kind: jsonl`` made
    a jsonl adapter that complained about ``callable``."""
    adapter = tmp_path / "adapter.yaml"
    adapter.write_text(f"kind: python\ncallable: {GOOD}\nkind: jsonl\n", encoding="utf-8")
    status, report = run_json(capsys, "--impl", str(adapter))
    assert status == 1
    assert (
        "adapter.yaml:3: yaml-duplicate-key: duplicate key 'kind'" in report["results"][0]["reason"]
    )


def test_an_adapter_file_that_is_a_folder_is_named_as_such(capsys, tmp_path):
    folder = tmp_path / "adapter.yaml"
    folder.mkdir()
    status, report = run_json(capsys, "--impl", str(folder))
    assert status == 1
    assert f"adapter file {folder}: not a regular file" in report["results"][0]["reason"]
