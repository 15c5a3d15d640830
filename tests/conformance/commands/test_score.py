"""``bleu-conformance score`` / ``explain`` / ``profiles`` end to end (in-process and real CLI)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main

HYP = "the cat sat on the mat .\n\na dog barked loudly at the mailman .\n"
REF = "the cat sat on the mat .\nit rained all day long .\na dog barked loudly at the postman .\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text(HYP, encoding="utf-8")
    ref.write_text(REF, encoding="utf-8")
    return str(hyp), str(ref)


def test_score_matches_multi_bleu_ground_truth(files, capsys) -> None:
    """perl multi-bleu.perl on this 3-line system printed BLEU = 56.44 (tests/data, case
    empty_hyp_line_in_corpus)."""
    hyp, ref = files
    assert main(["score", "-r", ref, "-i", hyp, "--profile", "multi-bleu"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "BLEU = 56.44 93.3/84.6/81.8/77.8 (BP = 0.670 ratio = 0.714 hyp_len = 15 ref_len = 21)"
    )
    assert "signature: profile:multi-bleu|" in out


def test_score_json_and_knobs(files, capsys) -> None:
    hyp, ref = files
    assert (
        main(
            [
                "score",
                "-r",
                ref,
                "-i",
                hyp,
                "--profile",
                "mteval-v13a",
                "--knob",
                "lowercase=false",
                "--format",
                "json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["config"]["lowercase"] is False
    assert round(data["score"], 4) == 0.5644  # mteval-v13a -c printed 0.5644 on this system


def test_sentence_mode_prints_one_line_per_segment(files, capsys) -> None:
    hyp, ref = files
    assert main(["score", "-r", ref, "-i", hyp, "--profile", "sacrebleu", "--sentence"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split("\t")[0] for line in lines] == ["1", "2", "3"]
    assert lines[0].split("\t")[1].startswith("BLEU = 100.00")


def test_line_count_mismatch_names_files_and_line(tmp_path, capsys) -> None:
    hyp = tmp_path / "h.txt"
    ref = tmp_path / "r.txt"
    hyp.write_text("a\nb\n")
    ref.write_text("a\n")
    assert main(["score", "-r", str(ref), "-i", str(hyp)]) == 2
    err = capsys.readouterr().err
    assert f"{ref} ended after line 1" in err and f"{hyp}" in err and "line 2" in err


def test_invalid_utf8_names_file_and_line(tmp_path, capsys) -> None:
    hyp = tmp_path / "h.txt"
    ref = tmp_path / "r.txt"
    hyp.write_bytes(b"ok\nbad \xff byte\n")
    ref.write_text("ok\nfine\n")
    assert main(["score", "-r", str(ref), "-i", str(hyp)]) == 2
    assert f"{hyp}:2: invalid UTF-8" in capsys.readouterr().err


def test_unreadable_file(tmp_path, capsys) -> None:
    assert main(["score", "-r", str(tmp_path / "nope.txt"), "-i", str(tmp_path / "nope.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_emulated_crash_exits_1_with_reason(tmp_path, capsys) -> None:
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("\n")
    ref.write_text("a b c\n")
    assert main(["score", "-r", str(ref), "-i", str(hyp), "--profile", "mteval-v13a"]) == 1
    assert "Can't take log of 0" in capsys.readouterr().err


def test_bad_knob_is_a_usage_error(files) -> None:
    hyp, ref = files
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "-r", ref, "-i", hyp, "--knob", "smoothin=exp"])
    assert exit_info.value.code == 2
    assert main(["score", "-r", ref, "-i", hyp, "--knob", "smoothing=magic"]) == 2


def test_explain_and_profiles(files, capsys) -> None:
    hyp, ref = files
    assert main(["explain", "-r", ref, "-i", hyp, "--profile", "nltk", "--segments"]) == 0
    out = capsys.readouterr().out
    assert "14/16" not in out and "7/8" in out and "chosen (closest)" in out
    assert main(["profiles"]) == 0
    assert "mteval-v13a" in capsys.readouterr().out


def test_real_console_script_reads_stdin(files) -> None:
    hyp, ref = files
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "score", "-r", ref, "--profile", "multi-bleu"],
        input=Path(hyp).read_bytes(),
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith("BLEU = 56.44")


def test_jobs_give_the_same_score(tmp_path, capsys) -> None:
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("".join(f"the cat {i} sat on the mat {i % 7}\n" for i in range(300)))
    ref.write_text("".join(f"the cat {i} sat on a mat {i % 5}\n" for i in range(300)))
    outputs = []
    for jobs in ("1", "2"):
        assert (
            main(["score", "-r", str(ref), "-i", str(hyp), "--jobs", jobs, "--format", "json"]) == 0
        )
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]


def test_sentence_mode_scores_past_a_failing_line(files, capsys) -> None:
    """mteval-v13a.pl dies on an empty system, so line 2 (empty) is an error line; the
    batch scorer then goes line by line and the other lines are still scored."""
    hyp, ref = files
    assert main(["score", "-r", ref, "-i", hyp, "--profile", "mteval-v13a", "--sentence"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == ["1", "2", "3"]
    assert lines[1].startswith("2\terror: ") and "empty" in lines[1]
    assert lines[0].startswith("1\tBLEU = ") and lines[2].startswith("3\tBLEU = ")
