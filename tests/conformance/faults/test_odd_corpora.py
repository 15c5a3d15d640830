"""Fault injection on corpus mode (``compare -r REF -i SYS``): outputs that name an input,
files with odd names, implementations that all fail, resampling options at their limits.
Every report stays valid, says what it could not compute, and never destroys an input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .common import cli

IMPLS = ("--impl", "bleu_impl:sacrebleu", "--impl", "bleu_impl:nltk")
REF = "the cat sat on the mat\na dog runs fast\nhello world\n"
SYS_A = "the cat sat on mat\na dog runs\nhello world !\n"
SYS_B = "cat sat on the mat\ndog runs fast\nhello\n"


def _files(tmp_path: Path, **texts: str) -> dict[str, Path]:
    paths = {}
    for name, text in texts.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text(text, encoding="utf-8")
    return paths


@pytest.mark.parametrize("which", ["ref", "a", "link"])
def test_a_report_naming_an_input_is_refused_before_the_work(capsys, tmp_path, which) -> None:
    files = _files(tmp_path, ref=REF, a=SYS_A, b=SYS_B)
    (tmp_path / "link.txt").symlink_to(files["ref"])
    target = tmp_path / f"{which}.txt"
    status, _, err = cli(
        capsys, "compare", "-r", str(files["ref"]), "-i", str(files["a"]), "-i", str(files["b"]),
        *IMPLS, "--format", "json", "--report", str(target),
    )  # fmt: skip
    assert status == 2
    assert f"--report {target}: would overwrite" in err
    assert files["ref"].read_text(encoding="utf-8") == REF
    assert files["a"].read_text(encoding="utf-8") == SYS_A


def hostile_bleu(hypotheses: list, references: list) -> float:
    """An implementation whose message holds an ANSI escape, a bidi override and a line
    break (used as ``--impl tests.conformance.faults.test_odd_corpora:hostile_bleu``)."""
    raise ValueError("no\x1b[2J \u202eevil\nsecond line")


UNSAFE = ("\x1b", "\u202e", "\u2028", "\x07")


@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_odd_file_names_and_messages_are_shown_escaped(capsys, tmp_path, fmt) -> None:
    files = _files(tmp_path, ref=REF)
    odd = [tmp_path / "sys\nnew line.txt", tmp_path / "bidi\u202eevil\x07<b>|.txt"]
    odd[0].write_text(SYS_A, encoding="utf-8")
    odd[1].write_text(SYS_B, encoding="utf-8")
    hostile = "tests.conformance.faults.test_odd_corpora:hostile_bleu"
    out = tmp_path / f"report.{fmt}"
    status, _, err = cli(
        capsys, "compare", "-r", str(files["ref"]), "-i", str(odd[0]), "-i", str(odd[1]),
        *IMPLS, "--impl", hostile, "--format", fmt, "--report", str(out),
    )  # fmt: skip
    assert status == 0, err
    text = out.read_text(encoding="utf-8")
    assert not [c for c in UNSAFE if c in text]
    assert "sys\\x0anew line" in text and "bidi\\u202eevil\\x07" in text
    assert "no\\x1b[2J \\u202eevil\\x0asecond line" in text
    if fmt == "markdown":  # the scores table: a header row, then its delimiter row
        lines = text.splitlines()
        start = lines.index("## Scores (BLEU, 0–100)") + 1
        assert lines[start].startswith("| implementation ")
        assert set(lines[start + 1]) <= set("|-: ")
    if fmt == "table":
        header = next(line for line in text.splitlines() if line.startswith("implementation"))
        assert "sys\\x0anew line" in header


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--paired-bs-n", "100000000", "must be at most 100,000"),
        ("--paired-ar-n", "100000000", "must be at most 100,000"),
        ("--paired-seed", "-1", "--paired-seed: must be at least 0"),
    ],
)
def test_resampling_options_beyond_their_range_are_usage_errors(
    capsys, tmp_path, option, value, message
) -> None:
    """``--paired-bs-n 100000000`` kept every resample and died of a MemoryError (exit 3);
    a negative seed was numpy's message, naming no option."""
    files = _files(tmp_path, ref=REF, a=SYS_A, b=SYS_B)
    args = ["-r", str(files["ref"]), "-i", str(files["a"]), "-i", str(files["b"]), *IMPLS]
    with pytest.raises(SystemExit) as exit_:
        cli(capsys, "compare", *args, option, value)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value"), [("--confidence-n", "100000000"), ("--confidence-seed", "-1")]
)
def test_score_confidence_options_beyond_their_range_are_usage_errors(
    capsys, tmp_path, option, value
) -> None:
    files = _files(tmp_path, ref=REF, a=SYS_A)
    with pytest.raises(SystemExit) as exit_:
        cli(capsys, "score", "-r", str(files["ref"]), "-i", str(files["a"]), "--confidence",
            option, value)  # fmt: skip
    assert exit_.value.code == 2
    assert f"{option}: must be" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["table", "markdown", "html", "json"])
def test_every_implementation_failing_is_not_a_clean_comparison(capsys, tmp_path, fmt) -> None:
    """No implementation scored a system: the report says nothing was compared (it said
    every implementation orders every pair the same way) and the exit status is 1, not 0."""
    files = _files(tmp_path, ref=REF, a=SYS_A, b=SYS_B)
    hostile = "tests.conformance.faults.test_odd_corpora:hostile_bleu"
    out = tmp_path / f"report.{fmt}"
    status, _, err = cli(
        capsys, "compare", "-r", str(files["ref"]), "-i", str(files["a"]), "-i", str(files["b"]),
        "--impl", hostile, "--format", fmt, "--report", str(out),
    )  # fmt: skip
    assert status == 1
    assert "no implementation scored any system" in err
    text = out.read_text(encoding="utf-8")
    if fmt == "json":
        assert json.loads(text)["scores"] == {hostile: {}}
    else:
        assert "orders every pair" not in text
        assert "Not compared: 0 implementation(s) scored two or more systems" in text


def test_a_failing_implementation_is_left_out_of_the_flips_by_name(capsys, tmp_path) -> None:
    files = _files(tmp_path, ref=REF, a=SYS_A, b=SYS_B)
    hostile = "tests.conformance.faults.test_odd_corpora:hostile_bleu"
    status, out, _ = cli(
        capsys, "compare", "-r", str(files["ref"]), "-i", str(files["a"]), "-i", str(files["b"]),
        *IMPLS, "--impl", hostile,
    )  # fmt: skip
    assert status == 0
    assert f"not compared (fewer than two scores): {hostile}" in " ".join(out.split())


@pytest.mark.parametrize(
    ("between", "message"),
    [
        ("", "--between takes two implementations A,B, got ''"),
        ("bleu_impl:nltk,bleu_impl:nltk", "--between 'bleu_impl:nltk' twice"),
        ("bleu_impl:nltk,bleu_impl:sacrebleu ", None),
    ],
)
def test_between_takes_two_different_implementations(capsys, tmp_path, between, message) -> None:
    """An empty --between (an unset shell variable) was silently the default pair, and one
    implementation twice compared it with itself."""
    files = _files(tmp_path, ref=REF, a=SYS_A, b=SYS_B)
    status, _, err = cli(
        capsys, "compare", "-r", str(files["ref"]), "-i", str(files["a"]), "-i", str(files["b"]),
        *IMPLS, "--between", between,
    )  # fmt: skip
    assert status == (2 if message else 0), err
    if message:
        assert message in err


def negative_zero_bleu(hypotheses: list, references: list) -> float:
    """An implementation answering -0.0 (used by the test below)."""
    return -0.0


def test_a_negative_zero_score_is_printed_as_zero(capsys, tmp_path) -> None:
    files = _files(tmp_path, ref=REF, a=SYS_A, b=SYS_B)
    impl = "tests.conformance.faults.test_odd_corpora:negative_zero_bleu"
    status, out, _ = cli(
        capsys, "compare", "-r", str(files["ref"]), "-i", str(files["a"]), "-i", str(files["b"]),
        *IMPLS, "--impl", impl,
    )  # fmt: skip
    assert status == 0
    row = next(line for line in out.splitlines() if line.startswith(impl))
    assert row.split()[1:] == ["0.00", "0.00"]
