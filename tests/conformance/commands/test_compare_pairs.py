"""``compare --pairs MANIFEST --output DIR``: every pair of a task in one command, each
pair's report logged, an interrupted run resumed, a cross-pair summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.results.log import read_log

DATA = Path(__file__).parents[1] / "engine" / "corpus" / "data"
IMPLS = ["bleu_impl:sacrebleu", "bleu_impl:nltk", "bleu_impl:mteval-v13a", "bleu_impl:fairseq"]


def _manifest(tmp_path: Path) -> Path:
    manifest = tmp_path / "task.yaml"
    manifest.write_text(
        "pairs:\n"
        f"  - {{name: en-fr, refs: ['{DATA}/fr/ref*.txt'], systems: ['{DATA}/fr/[abc].txt']}}\n"
        f"  - {{name: en-zh, refs: ['{DATA}/zh/ref.txt'], systems: ['{DATA}/zh/[abc].txt'],"
        " knobs: {tokenize: zh}}\n",
        encoding="utf-8",
    )
    return manifest


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    argv = [
        "compare",
        "-q",
        "--pairs",
        str(_manifest(tmp_path)),
        "--output",
        str(tmp_path / "logs"),
    ]
    argv += [x for impl in IMPLS for x in ("--impl", impl)]
    assert main([*argv, "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_pair_is_reported_and_summarized(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = _run(tmp_path, capsys)
    rows = {row["pair"]: row for row in summary["pairs"]}
    assert set(rows) == {"en-fr", "en-zh"} and not any(r["resumed"] for r in rows.values())
    # each pair's log is a complete corpus report, with the pair's own knobs
    zh = read_log(tmp_path / "logs" / "en-zh.jsonl")
    assert zh.complete and zh.corpus is not None and dict(zh.corpus.knobs) == {"tokenize": "zh"}
    assert rows["en-zh"]["scored_by"] == 4  # NLTK and mteval fed pre-tokenized text
    assert rows["en-fr"]["scored_by"] == 3  # fairseq takes one reference, French has two
    # mteval lowercases: it ranks the lowercased French system differently
    assert "bleu_impl:mteval-v13a" in rows["en-fr"]["ranking_differs"]
    assert summary["ranking_differs"]["bleu_impl:mteval-v13a"] == ["en-fr"]


def test_an_interrupted_run_resumes_from_its_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(tmp_path, capsys)
    log = tmp_path / "logs" / "en-zh.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(lines[:-2]), encoding="utf-8")  # no summary, no end: interrupted
    rows = {row["pair"]: row for row in _run(tmp_path, capsys)["pairs"]}
    assert rows["en-fr"]["resumed"] is True and rows["en-zh"]["resumed"] is False
    assert read_log(log).complete


def test_a_bad_pair_is_a_row_and_the_others_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "task.yaml"
    (tmp_path / "short.txt").write_text("one line\n", encoding="utf-8")
    manifest.write_text(
        "pairs:\n"
        f"  - {{name: bad, refs: ['{DATA}/fr/ref.txt'], systems: ['short.txt']}}\n"
        f"  - {{name: en-zh, refs: ['{DATA}/zh/ref.txt'], systems: ['{DATA}/zh/a.txt']}}\n",
        encoding="utf-8",
    )
    argv = ["compare", "-q", "--pairs", str(manifest), "--output", str(tmp_path / "logs")]
    assert main([*argv, "--impl", "bleu_impl:sacrebleu", "--format", "json"]) == 2
    rows = {row["pair"]: row for row in json.loads(capsys.readouterr().out)["pairs"]}
    assert "short.txt" in rows["bad"]["error"] and rows["en-zh"]["systems"] == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pairs: []\n", "non-empty list 'pairs'"),
        ("pairs:\n  - {name: 'a b', refs: [r], systems: [s]}\n", "needs a name"),
        ("pairs:\n  - {name: x, refs: [nothing*], systems: [s]}\n", "matches no file"),
        (
            "pairs:\n  - {name: x, refs: [r], systems: [s]}\n"
            "  - {name: x, refs: [r], systems: [s]}\n",
            "given twice",
        ),
    ],
)
def test_a_bad_manifest_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    (tmp_path / "m.yaml").write_text(text, encoding="utf-8")
    argv = ["compare", "--pairs", str(tmp_path / "m.yaml"), "--output", str(tmp_path / "o")]
    assert main(argv) == 2
    assert message in capsys.readouterr().err
