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
