"""The pytest plugin: fixture cases become items; mismatches FAIL, adapter errors ERROR.

Runs pytest in a subprocess, as a user would, loading this checkout's plugin explicitly
(the installed pytest11 entry point, if any, is blocked so it cannot load twice).
"""

from __future__ import annotations

import shutil

import pytest

from ..helpers import MINI

pytest_plugins = ["pytester"]

FAKE = "tests.conformance.fakes.impls"
ROOT = MINI.parents[3]
PLUGIN = ("-p", "no:bleu_conformance", "-p", "conformance.pytest_plugin")


@pytest.fixture
def fixture_dir(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the fakes import as tests.conformance...
    target = pytester.path / "fixtures" / "mini"
    target.mkdir(parents=True)
    shutil.copy(MINI, target / "mini.yaml")
    (pytester.path / "fixtures" / "notes.yaml").write_text("just: data\n")
    return target


def test_ids_and_outcomes(pytester, fixture_dir):
    result = pytester.runpytest_subprocess(
        *PLUGIN, f"--bleu-impl={FAKE}:swap_references", "fixtures", "-v", "-p", "no:cacheprovider"
    )
    result.stdout.fnmatch_lines(
        [
            "*fixtures/mini/mini.yaml::mini.exact PASSED*",
            "*fixtures/mini/mini.yaml::mini.partial FAILED*",
            "*fixtures/mini/mini.yaml::mini.nltk-method1 SKIPPED*",
        ]
    )
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines(["*score*0.4305867649816835*"])


def test_adapter_errors_are_errors(pytester, fixture_dir):
    result = pytester.runpytest_subprocess(
        *PLUGIN, f"--bleu-impl={FAKE}:crash", "fixtures", "-p", "no:cacheprovider"
    )
    result.assert_outcomes(errors=3, skipped=1)
    result.stdout.fnmatch_lines(["*ERROR at setup of*", "*RuntimeError: boom*"])


def test_several_implementations_and_known_failures(pytester, fixture_dir):
    known = pytester.path / "known.yaml"
    known.write_text(
        f"implementation: '{FAKE}:swap_references'\nfailures:\n"
        "  - case: mini.partial\n    reason: rotates references\n"
    )
    result = pytester.runpytest_subprocess(
        *PLUGIN,
        f"--bleu-impl={FAKE}:swap_references",
        "--bleu-impl=nltk",
        f"--bleu-known-failures={known}",
        "fixtures",
        "-v",
        "-p",
        "no:cacheprovider",
    )
    result.stdout.fnmatch_lines([f"*mini.partial[[]{FAKE}:swap_references[]] XFAIL*"])
    result.assert_outcomes(passed=3, xfailed=1, skipped=4)


def test_keyword_selects_by_tag(pytester, fixture_dir):
    result = pytester.runpytest_subprocess(
        *PLUGIN, "--bleu-impl=nltk", "fixtures", "-k", "smoothing", "-p", "no:cacheprovider"
    )
    result.assert_outcomes(passed=1)


def test_without_a_path_the_bundled_library_is_checked(pytester, monkeypatch):
    """`pytest --bleu-impl=X` alone, in a directory without tests: the bundled cases."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result = pytester.runpytest_subprocess(
        *PLUGIN, "--bleu-impl=bleu_impl", "-k", "paper", "-v", "-p", "no:cacheprovider"
    )
    result.stdout.fnmatch_lines(
        [
            "bleu-conformance: bleu_impl on the bundled fixture library*",
            "*fixtures/papineni2002/paper-examples.yaml::paper.* PASSED*",
        ]
    )
    assert result.parseoutcomes()["passed"] >= 5


def test_as_checks_every_case_and_timeouts_are_validated(pytester, fixture_dir):
    result = pytester.runpytest_subprocess(
        *PLUGIN, f"--bleu-impl={FAKE}:good", "--bleu-as=papineni2002", "fixtures"
    )
    result.assert_outcomes(passed=4)  # without --bleu-as the case with no paper value skips
    result = pytester.runpytest_subprocess(
        *PLUGIN, "--bleu-impl=nltk", "--bleu-timeout=-1", "fixtures"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bleu-timeout*must be a finite number > 0*"])


def test_inactive_without_option(pytester, fixture_dir):
    result = pytester.runpytest_subprocess(*PLUGIN, "fixtures", "-p", "no:cacheprovider")
    result.assert_outcomes()
    assert "no tests ran" in result.stdout.str()


def test_entry_point_is_declared():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"]["bleu_conformance"] == "conformance.pytest_plugin"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--bleu-impl="], "*--bleu-impl*empty*"),
        ([f"--bleu-impl={FAKE}:good", "--bleu-expect=nosuch"], "*--bleu-expect nosuch*no such*"),
        ([f"--bleu-impl={FAKE}:good", "--bleu-as=nosuch"], "*--as nosuch*"),
        (
            [f"--bleu-impl={FAKE}:good", "--bleu-known-failures=missing.yaml"],
            "*missing.yaml: cannot read known failures*",
        ),
        ([f"--bleu-impl={FAKE}:good", "--bleu-timeout=1e20"], "*--bleu-timeout*at most*"),
    ],
)
def test_bad_options_are_one_usage_error(pytester, fixture_dir, options, message):
    """An unknown --bleu-expect key skipped every case with exit 0 (nothing checked); a
    missing known-failures file was an INTERNALERROR traceback; an empty --bleu-impl, an
    unknown --bleu-as and a timeout of 1e20 s were an error on every case."""
    result = pytester.runpytest_subprocess(*PLUGIN, *options, "fixtures")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    result.stderr.fnmatch_lines([message])
