"""Fault injection: an output that names a file the command reads, or another output. The
command refuses before any work (exit 2) and the input is left as it was: a typo in CI
never destroys a fixture, a baseline or the log being rendered."""

from __future__ import annotations

import shutil

import pytest

from conformance.cli import main
from conformance.outputs import open_log
from conformance.results.log import read_run_log

from ..helpers import MINI
from .common import cli

RUN = ("run", "--impl", "bleu_impl:papineni2002", "-q")


def test_an_output_onto_a_fixture_file_is_refused_and_the_fixture_kept(capsys, tmp_path):
    fixture = tmp_path / "cases.yaml"
    shutil.copy(MINI, fixture)
    status, _, err = cli(capsys, *RUN, "--fixtures", str(fixture), "--output", str(fixture))
    assert status == 2 and "would overwrite the fixture" in err
    assert fixture.read_bytes() == MINI.read_bytes()


def test_an_output_that_would_be_read_as_a_case_file_is_refused(capsys, tmp_path):
    shutil.copy(MINI, tmp_path / "cases.yaml")
    log = tmp_path / "log.yaml"
    status, _, err = cli(capsys, *RUN, "--fixtures", str(tmp_path), "--output", str(log))
    assert status == 2 and "read as a case file" in err and not log.exists()


def test_two_outputs_naming_one_file_are_refused(capsys, tmp_path):
    out = tmp_path / "out"
    status, _, err = cli(
        capsys,
        *RUN,
        "--fixtures",
        str(MINI),
        "--output",
        str(out),
        "--junit-xml",
        f"{tmp_path}/./out",
    )
    assert status == 2 and "the same file as --output" in err and not out.exists()


def test_a_baseline_only_read_is_never_the_output(capsys, tmp_path):
    base = tmp_path / "base.json"
    assert (
        cli(capsys, *RUN, "--fixtures", str(MINI), "--baseline", str(base), "--update-baseline")[0]
        == 0
    )
    before = base.read_bytes()
    status, _, err = cli(
        capsys, *RUN, "--fixtures", str(MINI), "--baseline", str(base), "--output", str(base)
    )
    assert status == 2 and "would overwrite the baseline" in err and base.read_bytes() == before


def test_report_and_replay_never_overwrite_their_log(capsys, tmp_path):
    log = tmp_path / "run.jsonl"
    assert cli(capsys, *RUN, "--fixtures", str(MINI), "--output", str(log))[0] == 0
    before = log.read_bytes()
    status, _, err = cli(capsys, "report", str(log), "--junit-xml", str(log))
    assert status == 2 and "would overwrite the log" in err and log.read_bytes() == before
    status, _, err = cli(capsys, "compare", "--replay", str(log), "--report", str(log))
    assert status == 2 and "would overwrite the log" in err and log.read_bytes() == before


def test_a_file_option_given_twice_with_two_paths_is_refused(capsys, tmp_path):
    """Last-one-wins would silently drop the first log or report asked for."""
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    report = tmp_path / "r.txt"
    for argv in (
        [*RUN, "--fixtures", str(MINI), "--output", str(first), "-o", str(second)],
        ["compare", "--report", str(report), "--report", str(first)],
    ):
        with pytest.raises(SystemExit) as exit_:  # an argparse usage error
            main(argv)
        option = "--output" if "run" in argv else "--report"
        assert exit_.value.code == 2 and f"{option} given twice" in capsys.readouterr().err
    assert not first.exists() and not second.exists() and not report.exists()
    # the same path twice is one request
    status, _, _ = cli(
        capsys, *RUN, "--fixtures", str(MINI), "--output", str(first), "--output", str(first)
    )
    assert status == 0 and first.exists()


def test_a_log_another_command_is_writing_is_refused_and_kept(capsys, tmp_path):
    """Two runs with one --output interleaved their records into a log neither could read;
    the log is locked while written, so the second is refused before it empties it."""
    log = tmp_path / "run.jsonl"
    with open_log(log) as first:
        first.write('{"record": "run"}\n')
        first.flush()
        for argv in (
            [*RUN, "--fixtures", str(MINI), "--output", str(log)],
            ["compare", "--fixtures", str(MINI), "-k", "mini.exact", "--output", str(log)],
        ):
            status, _, err = cli(capsys, *argv)
            assert status == 2 and "another process is writing it" in err, err
            assert log.read_text(encoding="utf-8") == '{"record": "run"}\n'
    status, _, _ = cli(capsys, *RUN, "--fixtures", str(MINI), "--output", str(log))
    assert status == 0 and read_run_log(log).complete  # once free, written afresh


@pytest.mark.parametrize(
    "argv",
    [
        [*RUN, "--fixtures", str(MINI), "--output", ""],
        [*RUN, "--fixtures", str(MINI), "--junit-xml", " "],
        [*RUN, "--fixtures", str(MINI), "--baseline", ""],
        ["compare", "--fixtures", str(MINI), "--report", ""],
        ["report", "run.jsonl", "--junit-xml", ""],
    ],
)
def test_an_empty_file_option_is_refused(capsys, argv):
    """``--junit-xml "$UNSET"`` wrote no file and said nothing (exit 0): CI then finds no
    results, or an old file."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    option = argv[-2]
    assert exit_.value.code == 2 and f"{option} is empty" in capsys.readouterr().err
