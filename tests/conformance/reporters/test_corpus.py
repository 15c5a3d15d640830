"""The corpus report's text on hostile segments: what a user's files hold (carriage returns,
ANSI escapes, Unicode line separators, bidi overrides, zero-width spaces) is shown escaped in
the table, Markdown and HTML reports, never written raw; the JSON keeps the text as read."""

from __future__ import annotations

import json

import pytest
from markdown_it import MarkdownIt

from conformance.cli import main
from conformance.reporters.textgrid import columns
from tests.conformance.reporters.gfm import tables

#: One hostile character per line, inside the first word pair; the systems differ from the
#: reference elsewhere so every line is among the segments shown.
HOSTILE = ["\r", "\x1b[31m", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\u202e", "\u200b"]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    d = tmp_path_factory.mktemp("hostile")
    ref = [
        f"Der Hund{c}läuft schnell über die Straße und ich sehe ihn {i} Mal."
        for i, c in enumerate(HOSTILE)
    ]
    hyp = [line.replace("schnell ", "").replace(" und", "") for line in ref]
    paths = []
    for name, lines in [("ref.txt", ref), ("a.txt", hyp), ("b.txt", [h.lower() for h in hyp])]:
        (d / name).write_bytes("\n".join(lines).encode("utf-8") + b"\n")
        paths.append(str(d / name))
    return paths


def _report(files: list[str], fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    argv = ["compare", "-r", files[0], "-i", files[1], "-i", files[2], "--format", fmt]
    argv += ["--impl", "bleu_impl:sacrebleu", "--impl", "bleu_impl:nltk", "--top", "20"]
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_hostile_characters_are_shown_escaped(
    files: list[str], fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _report(files, fmt, capsys)
    for char in HOSTILE:
        assert char not in out, repr(char)
    for escape in ["\\x0d", "\\x1b[31m", "\\x0b", "\\x0c", "\\x85", "\\u2028", "\\u2029"]:
        assert f"Hund{escape}läuft" in out, escape
    assert "Hund\\u202eläuft" in out and "Hund\\u200bläuft" in out
    assert "\n" + "\r" not in out and out.count("\n    hyp: ") >= len(HOSTILE) * (fmt != "html")


def test_markdown_code_block_keeps_every_segment_on_its_line(
    files: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """CommonMark ends a line at a carriage return too: a raw one splits a segment's line."""
    out = _report(files, "markdown", capsys)
    assert tables(out)  # still parses as GFM
    fences = [t for t in MarkdownIt("commonmark").parse(out) if t.type == "fence"]
    shown = fences[-1].content.split("\n")  # the segments section's code block
    hyps = [line for line in shown if line.startswith("    hyp: ")]
    assert len(hyps) == len(HOSTILE) and all("läuft" in line for line in hyps)


def test_json_keeps_the_text_as_read(files: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    report = json.loads(_report(files, "json", capsys))
    texts = {row["hypothesis"] for row in report["segments"]["rows"]}
    assert any("\x1b[31m" in t for t in texts) and any("\u2028" in t for t in texts)


def test_the_table_fits_the_terminal(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Twelve systems with long names: the table format splits the score and rank tables
    into blocks of systems and wraps the prose, so no line is wider than COLUMNS; the
    Markdown report keeps one table with every system."""
    ref = [f"the quick brown fox jumps over the lazy dog number {i} today" for i in range(6)]
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    argv = ["compare", "-r", str(tmp_path / "ref.txt")]
    for k in range(12):
        lines = [" ".join(line.split()[k % 5 :]) + f" extra{k}" for line in ref]
        path = tmp_path / f"system-with-a-long-name-{k:02d}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv += ["-i", str(path)]
    argv += ["--impl", "bleu_impl:sacrebleu", "--impl", "bleu_impl:multi-bleu"]
    monkeypatch.setenv("COLUMNS", "80")
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if len(line) > 80] == []
    scores = out.split("Scores (BLEU, 0–100)", 1)[1].split("Ranks (1 = best", 1)[0]
    heads = [line.split()[1:] for line in scores.splitlines() if line.startswith("implementation")]
    assert main([*argv, "--format", "json"]) == 0
    names = [s["name"] for s in json.loads(capsys.readouterr().out)["systems"]]
    assert len(heads) > 1 and [name for head in heads for name in head] == names
    assert main([*argv, "--format", "markdown"]) == 0
    (table,) = [t for t in tables(capsys.readouterr().out) if "spread (max − min)" in str(t)]
    assert all(name in str(table) for name in names)


def test_the_no_score_lines_fit_the_terminal(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two references (as WMT's cs-en, de-en, en-zh...) and a one-reference implementation:
    its "No score" line (implementation, systems and the whole error message) is wrapped to
    COLUMNS like the other prose (it was printed as one 140-column line)."""
    refs = [
        ["the quick brown fox jumps over the lazy dog", "a cat sat on the mat today"],
        ["the fast brown fox jumped over the lazy dog", "the cat sat on a mat today"],
    ]
    argv = ["compare"]
    for k, ref in enumerate(refs):
        (tmp_path / f"ref{k}.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
        argv += ["-r", str(tmp_path / f"ref{k}.txt")]
    for name in ("system-a", "system-b"):
        lines = [f"{line} {name}" for line in refs[0]]
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv += ["-i", str(tmp_path / f"{name}.txt")]
    argv += ["--impl", "bleu_impl:sacrebleu", "--impl", "bleu_impl:tensor2tensor"]
    monkeypatch.setenv("COLUMNS", "80")
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "No score:" in out and "exactly one reference" in " ".join(out.split())
    assert [line for line in out.splitlines() if len(line) > 80] == []


@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_chinese_segments_fit_the_terminal_columns(
    tmp_path, fmt: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Chinese target (WMT22 en-zh): each character takes two terminal columns, so the
    segment lines clipped to COLUMNS characters were twice as wide as the terminal and
    wrapped into each other; clipped to COLUMNS columns they fit."""
    ref = [
        "有消息人士告诉《时代报》和《悉尼先驱晨报》，加巴体育馆是澳大利亚唯一一个地面电源供应不足的大型板球体育馆，"
        f"无法让大量的广播车和设备向世界各地传送图片{i}。"
        for i in range(4)
    ]
    hyp = [line.replace("加巴体育馆", "Gabba ").replace("广播车", "广播卡车") for line in ref]
    argv = ["compare"]
    for name, lines in [("-r", ref), ("-i", hyp), ("-i", [h.replace("，", ", ") for h in hyp])]:
        path = tmp_path / f"{len(argv)}.zh"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv += [name, str(path)]
    argv += ["--impl", "bleu_impl:sacrebleu", "--impl", "bleu_impl:codexglue", "--format", fmt]
    monkeypatch.setenv("COLUMNS", "80")
    assert main(argv) == 0
    out = capsys.readouterr().out
    shown = [line for line in out.splitlines() if line.startswith(("    hyp: ", "    ref: "))]
    assert shown and any(line.endswith("…") for line in shown)
    limit = 80 if fmt == "table" else 100  # Markdown: the code block is 100 columns wide
    assert [line for line in shown if columns(line) > limit] == []


def test_the_flip_table_fits_the_terminal_with_long_system_names(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pair and order columns kept their natural width and the implementations' column
    at least 30: with WMT22's system names (en-zh at COLUMNS=80) the lines were 89 wide."""
    (tmp_path / "ref.txt").write_text("The big cat\nA small dog\nThe red car\n", encoding="utf-8")
    argv = ["compare", "-r", str(tmp_path / "ref.txt")]
    outputs = {
        "JDExploreAcademy-constrained-primary.txt": "the big cat\na small dog\nthe red bus\n",
        "Lan-Bridge-unconstrained-contrastive.txt": "The big dog\nA small cat\nThe red car\n",
    }
    for name, text in outputs.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        argv += ["-i", str(tmp_path / name)]
    argv += ["--impl", "bleu_impl:mteval-v13a", "--impl", "bleu_impl:nltk"]
    monkeypatch.setenv("COLUMNS", "80")
    assert main(argv) == 0
    out = capsys.readouterr().out
    flips = out.split("Ranking flips", 1)[1].split("Where the difference", 1)[0]
    assert "bleu_impl:nltk" in flips and "JDExploreAcademy" in flips
    assert [line for line in out.splitlines() if len(line) > 80] == []
