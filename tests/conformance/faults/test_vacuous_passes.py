"""A green run means something was checked: an answer holding none of an expectation's
fields is ``unchecked``, never a pass, and an implementation checked on no case (or by
default on a sliver) makes ``run``, ``compare`` and the pytest plugin red (exit 4)."""

from __future__ import annotations

import json

import pytest

from conformance.results.coverage import EXIT_UNCHECKED

from ..plugin.test_pytest_plugin import PLUGIN, ROOT
from .common import GOOD, HOSTILE, cli, run_json

CONSTANT = f"{HOSTILE}:constant"

pytest_plugins = ["pytester"]


def _summary(out: str) -> dict:
    [summary] = json.loads(out)["summary"]
    return summary


def test_a_constant_function_passes_nothing_on_the_bundled_library(capsys):
    status, out, _ = cli(capsys, "run", "--impl", CONSTANT, "--format", "json", "-q")
    summary = _summary(out)
    assert status == EXIT_UNCHECKED
    assert summary["counts"].get("pass", 0) == 0 and summary["counts"]["unchecked"] >= 6
    assert summary["checked"] == 0
    status, out, _ = cli(capsys, "run", "--impl", CONSTANT, "-q")
    assert status == EXIT_UNCHECKED and "TOO LITTLE CHECKED" in out and "--as PROFILE" in out


def test_a_constant_function_checked_as_a_profile_fails_and_passes_nothing(capsys):
    argv = ("run", "--impl", CONSTANT, "--as", "papineni2002", "--format", "json", "-q")
    status, out, _ = cli(capsys, *argv)
    summary = _summary(out)
    assert status == 1 and summary["counts"]["fail"] > 500
    assert summary["counts"].get("pass", 0) == 0 and summary["counts"]["unchecked"] > 0
    unchecked = [r for r in json.loads(out)["results"] if r["outcome"] == "unchecked"]
    assert all(r["reason"].startswith("nothing to compare: ") for r in unchecked)


def test_a_comparison_of_one_implementation_compares_nothing(capsys):
    status, out, _ = cli(capsys, "compare", "--impl", CONSTANT, "-q")
    assert status == EXIT_UNCHECKED and "TOO LITTLE COMPARED" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--impl", f"{HOSTILE}:sentence_only"],  # corpus cases: none it can express
        ["--impl", f"{HOSTILE}:tokenized_only"],  # raw inputs only
        ["--impl", GOOD, "--expect", "multi-bleu", "-k", "nltk-method1"],  # no such record
    ],
    ids=["sentence-level", "tokenized-input", "expectation-not-recorded"],
)
def test_everything_skipped_is_not_green(capsys, argv):
    status, report = run_json(capsys, *argv)
    assert {r["outcome"] for r in report["results"]} == {"skip"}
    assert status == EXIT_UNCHECKED and report["shortfalls"]


def test_the_default_expectation_on_most_cases_is_still_a_verdict(capsys):
    """On the mini fixtures the default expectation covers 3 of 4 cases: green."""
    status, report = run_json(capsys, "--impl", GOOD)
    assert status == 0 and report["summary"][0]["checked"] == 3


@pytest.mark.parametrize("as_name", [None, "papineni2002"])
def test_the_pytest_plugin_is_red_for_a_constant_function(pytester, monkeypatch, as_name):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    argv = [*PLUGIN, f"--bleu-impl={CONSTANT}", "-p", "no:cacheprovider", "-q"]
    if as_name:
        argv.append(f"--bleu-as={as_name}")
    result = pytester.runpytest_subprocess(*argv)
    assert result.ret != 0
    outcomes = result.parseoutcomes()
    assert "passed" not in outcomes
    if as_name is None:
        result.stdout.fnmatch_lines(["*too little checked*", "*constant*checked only*"])
