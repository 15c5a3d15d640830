"""``bleu-conformance score --profile sacrebleu --knob tokenize=T`` equals the real
``sacrebleu -tok T`` command on the same files, for Chinese-, Japanese- and Korean-target
systems (both programs run as subprocesses), one of them with ``--jobs 2``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools.fixtures.multilingual import random_corpus

pytest.importorskip("sacrebleu")

CASES = {
    "zh": ("zh-hans", "sacrebleu"),
    "ja-mecab": ("ja", "MeCab"),
    "ko-mecab": ("ko", "mecab_ko"),
}


def _write(folder: Path, main: str) -> tuple[str, list[str]]:
    hyps, refs = random_corpus(sum(map(ord, main)), 400, 2, main)
    hyp = folder / "hyp.txt"
    hyp.write_text("".join(h.replace("\n", " ") + "\n" for h in hyps), encoding="utf-8")
    ref_files = []
    for k in range(2):
        path = folder / f"ref{k}.txt"
        path.write_text("".join(r[k] + "\n" for r in refs), encoding="utf-8")
        ref_files.append(str(path))
    return str(hyp), ref_files


def _run(args: list[str]) -> str:
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("tokenize", list(CASES))
def test_score_equals_the_sacrebleu_command(tokenize: str, tmp_path: Path) -> None:
    main, module = CASES[tokenize]
    pytest.importorskip(module)
    hyp, refs = _write(tmp_path, main)
    sacre = [sys.executable, "-m", "sacrebleu", *refs, "-i", hyp, "-tok", tokenize, "-w", "16"]
    theirs = json.loads(_run(sacre))  # score to 16 decimals; lengths in verbose_score
    ours_cmd = [sys.executable, "-m", "conformance.cli", "score", "--profile", "sacrebleu"]
    ours_cmd += ["--knob", f"tokenize={tokenize}", "-i", hyp, "-w", "16"]
    for ref in refs:
        ours_cmd += ["-r", ref]
    ours = json.loads(_run(ours_cmd + (["--jobs", "2"] if tokenize == "ja-mecab" else [])))
    assert ours["score"] == pytest.approx(theirs["score"], rel=1e-9, abs=1e-12)
    assert ours["verbose_score"] == theirs["verbose_score"]
    assert theirs["tok"].startswith(tokenize)
    assert ours["signature"] == theirs["signature"]  # same MeCab version/dictionary


def test_a_missing_extra_names_the_pip_install(tmp_path: Path) -> None:
    """Without MeCab, ``score --knob tokenize=ja-mecab`` exits 2 saying what to install."""
    hyp, refs = _write(tmp_path, "ja")
    code = (
        "import sys; sys.modules['MeCab'] = None\n"  # as if mecab-python3 were not installed
        "from conformance.cli import main\n"
        f"sys.exit(main(['score', '-r', {refs[0]!r}, '-i', {hyp!r}, '--profile', 'sacrebleu',"
        " '--knob', 'tokenize=ja-mecab']))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "pip install 'bleu-conformance[ja]'" in proc.stderr
