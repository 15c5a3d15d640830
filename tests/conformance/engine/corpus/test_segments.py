"""Where the difference between two implementations comes from, on a difference that is
mostly scoring: pytorch-ignite's macro average of sentence BLEU against sacrebleu's corpus
BLEU (on WMT22 de-fr/cs-en/en-zh the farthest implementation, −12 to +21 points, of which
the per-segment count changes explained only a third, with nothing saying where the rest
came from)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main

REF = [
    "the cat sat on the mat and looked at the garden for a long time",
    "we have seen many birds in the trees near the river this morning",
    "she said that the train would arrive at ten in the evening",
    "a small dog ran across the road without looking left or right",
]


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _report(tmp_path: Path, hyp: list[str], fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    argv = ["compare", "-r", _write(tmp_path / "ref.txt", REF)]
    argv += ["-i", _write(tmp_path / "a.txt", hyp)]
    argv += ["-i", _write(tmp_path / "b.txt", [" ".join(line.split()[1:]) for line in hyp])]
    argv += ["--impl", "bleu_impl:sacrebleu", "--impl", "bleu_impl:ignite", "--format", fmt]
    assert main(argv) == 0
    return capsys.readouterr().out


def test_the_difference_splits_into_counting_and_scoring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = [line.replace("the ", "a ", 1) + "." for line in REF]  # 13a splits the ".", none not
    seg = json.loads(_report(tmp_path, hyp, "json", capsys))["segments"]
    assert seg["rows"] and seg["counting"] < 0 and seg["scoring"] < 0
    assert seg["counting"] + seg["scoring"] == pytest.approx(seg["difference"], abs=1e-9)
    text = " ".join(_report(tmp_path, hyp, "table", capsys).split())
    assert f"of which −{abs(seg['counting']):.2f} comes from what is counted" in text
    assert f"and −{abs(seg['scoring']):.2f} from how the counts are scored" in text


def test_same_counts_say_the_difference_is_all_scoring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No punctuation: 13a and whitespace tokenization count alike, no segment moves, and the
    section said "not computed"."""
    hyp = [line.replace("the ", "a ", 1) for line in REF]
    seg = json.loads(_report(tmp_path, hyp, "json", capsys))["segments"]
    assert seg["rows"] == [] and seg["counting"] == 0 and seg["scoring"] < -1
    text = " ".join(_report(tmp_path, hyp, "table", capsys).split())
    section = text.split("Where the difference comes from", 1)[1]
    assert "not computed" not in section
    assert "counts every segment as bleu_impl:sacrebleu does, so all of it comes from how" in text
