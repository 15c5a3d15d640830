"""The script notes of the corpus report: unspaced Chinese, Japanese and Thai references are
named with the tokenizer sacrebleu's command line would use (sacrebleu 2.x
``BLEU._TOKENIZER_MAP``: zh -> zh, ja -> ja-mecab, ko -> ko-mecab)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.engine.corpus.notes import script_notes, script_of

CHINESE = ["猫坐在垫子上。", "今天天气很好，我们去公园散步吧。", "他说这个问题很难回答。"]
JAPANESE = [
    "猫がマットの上に座った。",
    "今日はとても良い天気ですね。",
    "この問題は難しいと思います。",
]
THAI = ["แมวนั่งอยู่บนเสื่อในบ้านหลังใหญ่", "วันนี้อากาศดีมากเราไปเดินเล่นที่สวนกันเถอะ"]
KOREAN = ["고양이가 매트 위에 앉았다.", "오늘은 날씨가 아주 좋습니다."]
GERMAN = ["Die Katze saß auf der Matte.", "Heute ist das Wetter sehr schön."]


def test_script_of_names_the_unicode_blocks() -> None:
    assert script_of("猫") == "han"
    assert script_of("が") == "kana" and script_of("マ") == "kana"
    assert script_of("고") == "Korean"
    assert script_of("แ") == "Thai"
    assert script_of("K") is None and script_of("ß") is None


@pytest.mark.parametrize(
    ("lines", "language", "advice"),
    [
        (CHINESE, "Chinese", "--knob tokenize=zh"),
        (JAPANESE, "Japanese", "--knob tokenize=ja-mecab"),
        (THAI, "Thai", "--knob tokenize=char"),
    ],
)
def test_unspaced_scripts_get_the_tokenizer_sacrebleu_would_use(
    lines: list[str], language: str, advice: str
) -> None:
    (note,) = script_notes(lines, {})
    assert f"the references are {language} without spaces" in note
    assert advice in note


def test_korean_is_spaced_but_sacrebleu_uses_mecab_for_it() -> None:
    (note,) = script_notes(KOREAN, {})
    assert "Korean" in note and "ko-mecab" in note and "-l xx-ko" in note


def test_nothing_to_say() -> None:
    assert script_notes(GERMAN, {}) == []
    assert script_notes(CHINESE, {"tokenize": "zh"}) == []  # the user chose already
    assert script_notes(["", "   "], {}) == []
    # Chinese words with spaces between them (pre-segmented text) are not degenerate
    assert script_notes(["猫 坐 在 垫子 上 。", "今天 天气 很 好"], {}) == []


def test_the_report_carries_the_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = tmp_path / "ref.zh"
    ref.write_text("\n".join(CHINESE) + "\n", encoding="utf-8")
    argv = ["compare", "-r", str(ref)]
    for k, text in enumerate(
        ["猫坐在垫子上。\n今天天气好。\n他说这个问题很难。\n", "猫在上。\n天气好。\n问题难。\n"]
    ):
        system = tmp_path / f"sys{k}.zh"
        system.write_text(text, encoding="utf-8")
        argv += ["-i", str(system)]
    argv += ["--impl", "bleu_impl:sacrebleu", "--impl", "bleu_impl:nltk"]
    assert main([*argv, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["notes"]) == 1 and "tokenize=zh" in report["notes"][0]
    assert main(argv) == 0
    assert "note: the references are Chinese" in capsys.readouterr().out
    assert main([*argv, "--knob", "tokenize=zh", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == []


def _report(tmp_path: Path, files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> dict:
    for name, text in files.items():
        (tmp_path / name).write_bytes(text.encode("utf-8"))
    argv = ["compare", "-r", str(tmp_path / "ref.txt"), "--impl", "bleu_impl:sacrebleu"]
    argv += [x for n in files if n != "ref.txt" for x in ("-i", str(tmp_path / n))]
    assert main([*argv, "--format", "json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_a_byte_order_mark_in_some_files_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "\n".join(GERMAN) + "\n"
    sacrebleu = pytest.importorskip("sacrebleu")
    # sacrebleu reads the mark as text: the same lines with and without it are not 100
    assert sacrebleu.corpus_bleu(["\ufeff" + GERMAN[0], GERMAN[1]], [GERMAN]).score < 100
    files = {"ref.txt": "\ufeff" + text, "a.txt": text.replace("Matte", "Decke"), "b.txt": text}
    notes = _report(tmp_path, files, capsys)["notes"]
    assert len(notes) == 1 and "ref.txt start(s) with a UTF-8 byte-order mark" in notes[0]
    both = {"ref.txt": "\ufeff" + text, "a.txt": "\ufeff" + text.replace("Matte", "Decke")}
    assert _report(tmp_path, both, capsys)["notes"] == []  # every file has it: no effect


def test_decomposed_text_in_some_files_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import unicodedata

    text = "\n".join(GERMAN) + "\n"
    nfd = unicodedata.normalize("NFD", text)
    assert nfd.splitlines()[0] == GERMAN[0] and nfd.splitlines()[1] != GERMAN[1]  # ß, ö
    sacrebleu = pytest.importorskip("sacrebleu")
    assert sacrebleu.corpus_bleu(nfd.splitlines(), [GERMAN]).score < 100
    files = {"ref.txt": text, "a.txt": nfd, "b.txt": text.replace("Matte", "Decke")}
    notes = _report(tmp_path, files, capsys)["notes"]
    assert len(notes) == 1 and "a.txt (1 line(s), first: line 2) hold(s) text not in" in notes[0]
    assert (
        _report(tmp_path, {"ref.txt": nfd, "a.txt": nfd.replace("Matte", "D")}, capsys)["notes"]
        == []
    )


def test_identical_systems_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same output given as two systems (here with CRLF line ends in one copy) ties under
    every implementation; the report said nothing about why."""
    text = "\n".join(GERMAN) + "\n"
    other = text.replace("Matte", "Decke")
    files = {
        "ref.txt": text,
        "a.txt": other,
        "b.txt": other.replace("\n", "\r\n"),
        "c.txt": "x\ny\n",
    }
    notes = _report(tmp_path, files, capsys)["notes"]
    assert len(notes) == 1 and notes[0].startswith("systems a, b are identical"), notes
    assert (
        _report(tmp_path, {"ref.txt": text, "a.txt": other, "c.txt": "x\ny\n"}, capsys)["notes"]
        == []
    )


def test_the_note_does_not_say_13a_scores_close_to_zero() -> None:
    """On WMT22 en-zh, 13a (sacrebleu's default) gives 13 to 48 BLEU: it splits off ASCII
    punctuation, so placeholders, numbers, Latin names and phrases copied exactly match. The
    note said every tokenizer that splits on spaces, 13a included, scores close to 0."""
    sacrebleu = pytest.importorskip("sacrebleu")
    ref = ["有消息人士告诉#PRS_ORG#，Gabba 是澳大利亚唯一一个 2021 年的体育场。", *CHINESE]
    hyp = ["有消息人士告诉#PRS_ORG#，Gabba 是澳大利亚唯一一个 2021 年的球场。", *CHINESE]
    assert sacrebleu.corpus_bleu(hyp, [ref]).score > 50  # 13a
    assert sacrebleu.corpus_bleu(hyp, [ref], tokenize="none").score > 50  # whole lines copied
    (note,) = script_notes(ref, {})
    assert "(13a, none)" not in note and "13a splits off only ASCII punctuation" in note
    assert "whitespace tokenization (none) sees whole phrases as tokens" in note
