"""``bleu-conformance score`` is a drop-in for the ``sacrebleu`` command (BLEU): each command
line of the table runs through the live sacrebleu 2.6.0 CLI and through ``score``; their
standard outputs are byte-identical. sacrebleu runs with ``NO_COLOR=1`` (on a terminal it
colours the interval and the table headings; score never writes colour codes, and piped,
sacrebleu writes none either); the other listed differences are tested below the table, each
with the reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main

pytest.importorskip("sacrebleu")

HYP = [
    "The cat sat on the mat.",
    "A quick brown fox jumps over the lazy dog!",
    "Hello, world.",
    "",
    "It rained ALL day long, didn't it?",
    "zzz",
]
REF0 = [
    "The cat is on the mat.",
    "The quick brown fox jumped over the lazy dog.",
    "Hello world!",
    "Nothing here.",
    "It rained all day long, didn't it?",
    "Completely different words.",
]
REF1 = [
    "There is a cat on the mat.",
    "A fast brown fox jumps over a lazy dog.",
    "hello, World.",
    "Here nothing.",
    "All day long it rained, did it not?",
    "zzz yyy",
]
SYS2 = [line.lower() for line in REF1]
ZH = (["我们今天去公园散步。", "他喜欢读书和写字。"], ["我们今天在公园散步。", "他喜欢读书。"])
JA = (
    ["私は東京に住んでいます。", "今日は雨が降っています。"],
    ["私は東京に住む。", "今日は雨です。"],
)
KO = (["나는 학교에 갑니다.", "오늘은 비가 옵니다."], ["나는 학교에 간다.", "오늘 비가 온다."])

#: (sacrebleu's arguments, what they exercise); {ref}, {ref1}, {hyp}, {sys2}, {zh_*}, ...
TABLE = [
    ("{ref} -i {hyp}", "the default: JSON, one decimal"),
    ("{ref} -i {hyp} -f text", "the text line"),
    ("{ref} -i {hyp} -b", "score only"),
    ("{ref} -i {hyp} -b -w 4", "width"),
    ("{ref} -i {hyp} -f text -w 0", "width 0"),
    ("{ref} -i {hyp} -f text --short", "short signature"),
    ("{ref} -i {hyp} -f text -lc", "lowercase"),
    ("{ref} -i {hyp} --lowercase --tokenize intl", "long flags, intl"),
    ("{ref} -i {hyp} -f text -tok char", "char tokens"),
    ("{ref} -i {hyp} -tok none", "no tokenizer"),
    ("{ref} -i {hyp} -s floor", "floor smoothing"),
    ("{ref} -i {hyp} -f text -s floor -sv 0.2", "floor value"),
    ("{ref} -i {hyp} -s add-k -sv 0.5", "add-k"),
    ("{ref} -i {hyp} -f text --smooth-method none", "no smoothing"),
    ("{ref} {ref1} -i {hyp}", "two references"),
    ("{ref} {ref1} -i {hyp} -f text --short -lc", "two references, short"),
    ("{ref} -i {hyp} -sl", "sentence level: effective order"),
    ("{ref} -i {hyp} -sl -b -w 2", "sentence scores only"),
    ("{ref} {ref1} -i {hyp} -sl --short -s floor", "sentence level, floor, short"),
    ("{ref} -i {hyp} -ci -f text", "bootstrap interval, text"),
    ("{ref} -i {hyp} -ci", "bootstrap interval, JSON"),
    ("{ref} -i {hyp} -ci -cin 200 -b", "bootstrap, 200 resamples, score only"),
    ("{ref} -i {hyp} {sys2}", "two systems, JSON"),
    ("{ref} -i {hyp} {sys2} -f text", "two systems, table"),
    ("{ref} -i {hyp} {sys2} -b -w 3", "two systems, -b"),
    ("{ref} -i {hyp} {sys2} --paired-bs -f text", "paired bootstrap"),
    ("{ref} {ref1} -i {hyp} {sys2} --paired-ar -parn 300 -f text --short", "randomization"),
    ("{ref} -i {hyp} -m bleu -f text", "-m bleu"),
    ("{ref} -i {hyp} -q -nc --force -f text", "accepted flags"),
    ("{ref} -i {hyp} -l en-de -f text", "-l: 13a"),
    ("{zh_ref} -i {zh_hyp} -tok zh -f text", "zh"),
    ("{zh_ref} -i {zh_hyp} -l en-zh", "-l: zh"),
    ("{ja_ref} -i {ja_hyp} -tok ja-mecab -f text", "ja-mecab: the full tokenizer name"),
    ("{ja_ref} -i {ja_hyp} -l en-ja", "-l: ja-mecab"),
    ("{ko_ref} -i {ko_hyp} -tok ko-mecab -f text --short", "ko-mecab"),
    ("{ko_ref} -i {ko_hyp} -l en-ko -sl", "-l: ko-mecab, sentence level"),
]

NEEDS = {"ja": "MeCab", "ko": "mecab_ko"}


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("dropin")
    files = {"hyp": HYP, "ref": REF0, "ref1": REF1, "sys2": SYS2}
    for lang, (hyps, refs) in (("zh", ZH), ("ja", JA), ("ko", KO)):
        files[f"{lang}_hyp"], files[f"{lang}_ref"] = hyps, refs
    out = {}
    for name, lines in files.items():
        (folder / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        out[name] = f"{name}.txt"
    out["dir"] = str(folder)
    return out


def _sacrebleu(args: list[str], cwd: str, color: bool = False) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "SACREBLEU_FORMAT")}
    if not color:
        env["NO_COLOR"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *args],
        capture_output=True,
        cwd=cwd,
        env=env,
        check=True,
    )
    return done.stdout.decode("utf-8")


def _ours(args: list[str], cwd: str, capsys: pytest.CaptureFixture[str]) -> str:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        assert main(["score", *args]) == 0
    finally:
        os.chdir(old)
    return capsys.readouterr().out


def _args(line: str, paths: dict[str, str]) -> list[str]:
    for lang, module in NEEDS.items():
        if f"{{{lang}_" in line:
            pytest.importorskip(module, reason=f"pip install 'bleu-conformance[{lang}]'")
    return line.format(**paths).split()


def test_the_table_has_thirty_command_lines() -> None:
    assert len(TABLE) >= 30
    assert len({line for line, _ in TABLE}) == len(TABLE)


@pytest.mark.parametrize(("line", "what"), TABLE, ids=[what for _, what in TABLE])
def test_same_command_line_same_output(line: str, what: str, paths, capsys) -> None:
    args = _args(line, paths)
    assert _ours(args, paths["dir"], capsys) == _sacrebleu(args, paths["dir"]), what


def test_standard_input(paths) -> None:
    """``sacrebleu REF < HYP`` and ``bleu-conformance score REF < HYP``."""
    hyp = (Path(paths["dir"]) / paths["hyp"]).read_bytes()
    ours = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "score", paths["ref"], "-f", "text"],
        input=hyp,
        capture_output=True,
        cwd=paths["dir"],
        check=True,
    ).stdout.decode("utf-8")
    env = {**os.environ, "NO_COLOR": "1"}
    theirs = subprocess.run(
        [sys.executable, "-m", "sacrebleu", paths["ref"], "-f", "text"],
        input=hyp,
        capture_output=True,
        cwd=paths["dir"],
        env=env,
        check=True,
    ).stdout.decode("utf-8")
    assert ours == theirs


# Listed differences, each with its reason.


def test_difference_paired_json_floats(paths, capsys) -> None:
    """--paired-bs -f json prints unrounded floats: sacrebleu sums the resampled statistics
    in float32, we sum exactly, so the means and half-widths agree to 1e-5 BLEU points, not
    to the last digit; the p-values and everything else are equal."""
    args = _args("{ref} {ref1} -i {hyp} {sys2} --paired-bs", paths)
    theirs = json.loads(_sacrebleu(args, paths["dir"]))
    ours = json.loads(_ours(args, paths["dir"], capsys))
    assert [r["system"] for r in ours] == [r["system"] for r in theirs]
    for mine, want in zip(ours, theirs):
        assert mine["BLEU"]["p_value"] == want["BLEU"]["p_value"]
        for key in ("score", "mean", "ci"):
            assert mine["BLEU"][key] == pytest.approx(want["BLEU"][key], abs=1e-5)


def test_difference_sentence_json(paths, capsys) -> None:
    """sacrebleu -sl ignores -f json (it prints its text lines); score -sl -f json prints one
    compact JSON object per line, with sacrebleu's score and verbose_score."""
    args = _args("{ref} -i {hyp} -sl", paths)
    lines = _sacrebleu([*args, "-f", "json"], paths["dir"]).splitlines()
    ours = [
        json.loads(line) for line in _ours([*args, "-f", "json"], paths["dir"], capsys).splitlines()
    ]
    assert [o["line"] for o in ours] == list(range(1, len(HYP) + 1))
    for mine, theirs in zip(ours, lines):
        assert set(mine) == {"line", "score", "verbose_score"}  # no config repeated per line
        assert theirs.endswith(f" = {mine['score']:.1f} {mine['verbose_score']}")


def test_brevity_penalty_of_nothing_against_nothing(tmp_path, capsys) -> None:
    """An empty hypothesis against empty references (c = r = 0): sacrebleu prints BP =
    1.000 (its penalty applies only when c < r); the profile's ``empty_ref='bp-one'`` does
    the same (the paper's and NLTK's rule gives 0 at c = 0)."""
    (tmp_path / "h.txt").write_text("\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n", encoding="utf-8")
    args = ["r.txt", "-i", "h.txt", "-sl", "-f", "text"]
    theirs = _sacrebleu(args, str(tmp_path))
    assert "= 0.0 0.0/0.0/0.0/0.0 (BP = 1.000 " in theirs
    assert _ours(args, str(tmp_path), capsys) == theirs


def test_the_paper_is_one_flag_away(paths, capsys) -> None:
    """--profile papineni2002: whitespace tokens, the 0-1 scale, a signature naming the
    profile and this tool's version (not sacrebleu's)."""
    out = _ours(_args("{ref} -i {hyp} --profile papineni2002 -f text", paths), paths["dir"], capsys)
    assert out.startswith("BLEU|nrefs:1|profile:papineni2002|case:mixed|tok:none|")
    assert "version:2.6.0" not in out
    score = float(out.split(" = ")[1].split()[0])
    assert 0 <= score <= 1
