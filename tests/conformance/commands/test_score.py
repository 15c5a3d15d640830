"""``bleu-conformance score`` / ``explain`` / ``profiles`` end to end (in-process and real CLI)."""

from __future__ import annotations

import gzip
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
    assert main(["score", "-r", ref, "-i", hyp, "--profile", "multi-bleu", "-f", "text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("BLEU|nrefs:1|profile:multi-bleu|case:mixed|tok:none|smooth:none|")
    assert out.endswith(
        " = 56.44 93.3/84.6/81.8/77.8 (BP = 0.670 ratio = 0.714 hyp_len = 15 ref_len = 21)\n"
    )


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
    assert data["case"] == "mixed" and data["profile"] == "mteval-v13a"
    assert data["score"] == 0.5644  # mteval-v13a -c printed 0.5644 on this system


def test_sentence_mode_prints_one_line_per_segment(files, capsys) -> None:
    hyp, ref = files
    assert main(["score", "-r", ref, "-i", hyp, "--profile", "sacrebleu", "--sentence"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|")
    assert " = 100.0 100.0/100.0/100.0/100.0 " in lines[0]


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
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "score",
            "-r",
            ref,
            "--profile",
            "multi-bleu",
            "-b",
        ],
        input=Path(hyp).read_bytes(),
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode() == "56.44\n"


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
    assert len(lines) == 3
    assert lines[1].startswith("2\terror: ") and "empty" in lines[1]
    assert lines[0].startswith("BLEU|") and lines[2].startswith("BLEU|")


def test_score_only_width_and_positional_references(files, capsys) -> None:
    """multi-bleu.perl printed 56.44 and mteval-v13a -c printed 0.5644 on this system."""
    hyp, ref = files
    assert main(["score", ref, "-i", hyp, "--profile", "multi-bleu", "-b"]) == 0
    assert capsys.readouterr().out == "56.44\n"
    assert main(["score", ref, "-i", hyp, "--profile", "multi-bleu", "-b", "-w", "4"]) == 0
    wide = capsys.readouterr().out.strip()
    assert len(wide.split(".")[1]) == 4 and round(float(wide), 2) == 56.44
    knobs = ["--profile", "mteval-v13a", "--knob", "lowercase=false", "-b"]
    assert main(["score", "-r", ref, "-i", hyp, *knobs]) == 0
    assert capsys.readouterr().out == "0.5644\n"


def test_sacrebleu_users_get_sacrebleus_number(tmp_path, capsys) -> None:
    """Live sacrebleu 2.6.0 on raw text, two reference streams, one of them positional."""
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps = ["The cat sat on the mat.", "Hello, world!", "It rained all day long."]
    refs = [
        ["The cat is on the mat.", "Hello world!", "It was raining all day."],
        ["There is a cat on the mat.", "Hello, world !", "All day long it rained."],
    ]
    paths = []
    for name, lines in (("hyp", hyps), ("ref0", refs[0]), ("ref1", refs[1])):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    argv = ["score", paths[1], "-r", paths[2], "-i", paths[0], "--profile", "sacrebleu"]
    assert main([*argv, "-b", "-w", "6"]) == 0
    expected = sacrebleu.corpus_bleu(hyps, refs).score
    assert capsys.readouterr().out == f"{expected:.6f}\n"
    assert main(argv) == 0
    signature = json.loads(capsys.readouterr().out)["signature"]
    assert signature == "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"


def test_several_systems_one_row_each_signature_once(files, tmp_path, capsys) -> None:
    hyp, ref = files
    other = tmp_path / "other.txt"
    other.write_text(Path(ref).read_text(encoding="utf-8"), encoding="utf-8")  # = reference
    assert main(["score", ref, "-i", hyp, str(other), "--profile", "multi-bleu", "-b"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows == [{"system": hyp, "BLEU": "56.44"}, {"system": str(other), "BLEU": "100.00"}]
    argv = ["score", ref, "-i", hyp, "-i", str(other), "--profile", "multi-bleu", "-f", "text"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"{hyp} │ 56.44  │" in out and f"{other} │ 100.00 │" in out
    assert out.count("nrefs:1|profile:multi-bleu|") == 1


def test_one_bad_system_does_not_lose_the_others(files, tmp_path, capsys) -> None:
    hyp, ref = files
    short = tmp_path / "short.txt"
    short.write_text("only one line\n", encoding="utf-8")
    assert main(["score", ref, "-i", str(short), hyp, "--profile", "multi-bleu", "-b"]) == 2
    out, err = capsys.readouterr()
    assert [row["BLEU"] for row in json.loads(out)] == ["error", "56.44"]
    assert f"{short} ended after line 1" in err or "line count mismatch" in err


def test_gzip_input_and_a_corrupt_gzip(files, tmp_path, capsys) -> None:
    hyp, ref = files
    packed = tmp_path / "hyp.txt.gz"
    packed.write_bytes(gzip.compress(Path(hyp).read_bytes()))
    ref_packed = tmp_path / "ref.txt.gz"
    ref_packed.write_bytes(gzip.compress(Path(ref).read_bytes()))
    assert main(["score", str(ref_packed), "-i", str(packed), "--profile", "multi-bleu", "-b"]) == 0
    assert capsys.readouterr().out == "56.44\n"
    broken = tmp_path / "broken.txt.gz"
    broken.write_bytes(gzip.compress(Path(hyp).read_bytes())[:-12])  # truncated
    assert main(["score", ref, "-i", str(broken), "-b"]) == 2
    assert f"{broken}: cannot read" in capsys.readouterr().err


def test_short_signature_names_changed_knobs_and_verbose_prints_every_knob_once(
    files, capsys
) -> None:
    hyp, ref = files
    argv = ["score", ref, "-i", hyp, "--profile", "mteval-v13a", "-f", "text"]
    assert main([*argv, "--knob", "ref_length=shortest", "--knob", "lowercase=false"]) == 0
    signature = capsys.readouterr().out.split(" = ")[0]
    assert "|case:mixed|" in signature and "|ref_length:shortest|" in signature
    assert main([*argv, "-v"]) == 0
    out = capsys.readouterr().out
    assert out.count("signature: profile:mteval-v13a|") == 1  # the long form, once
    assert "|case:lc-ascii|" in out.splitlines()[0]  # mteval lowercases by default


@pytest.mark.parametrize(
    "argv",
    [
        ["-i", "{hyp}"],  # no reference
        ["{ref}", "-i", "{hyp}", "{hyp}", "--sentence"],  # --sentence takes one system
        ["{ref}", "-i", "{hyp}", "--jobs", "0"],
        ["{ref}", "-i", "{hyp}", "-w", "-1"],
    ],
)
def test_usage_errors_exit_2(files, argv, capsys) -> None:
    hyp, ref = files
    args = ["score", *(a.format(hyp=hyp, ref=ref) for a in argv)]
    try:
        status = main(args)
    except SystemExit as exc:  # argparse's own usage errors
        status = int(exc.code or 0)
    assert status == 2
    assert "error" in capsys.readouterr().err


def test_a_terminal_on_standard_input_is_announced(files) -> None:
    """``score -r REF`` with a terminal (not a pipe) on standard input says it is reading
    the hypotheses from it, instead of waiting silently."""
    import os
    import pty

    _, ref = files
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", "score", "-r", ref, "-b"],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(terminal)
    try:
        first = proc.stderr.readline().decode() if proc.stderr else ""
    finally:
        proc.kill()
        proc.wait()
        os.close(controller)
    assert "reading the hypotheses from the terminal" in first and "Ctrl-D" in first


def test_a_knob_the_profile_cannot_take_gets_command_line_advice(files, capsys) -> None:
    """The advice is a command line (not Python), and following it scores: the generic
    profile with sacrebleu's knobs gives sacrebleu's score, then the extra knob applies."""
    hyp, ref = files
    assert main(["score", ref, "-i", hyp, "--knob", "ref_length=shortest"]) == 2
    err = capsys.readouterr().err
    assert "get_profile" not in err and "**" not in err
    advice = err.rsplit("add yours: ", 1)[1].replace("--knob NAME=VALUE", "").split()
    assert main(["score", ref, "-i", hyp, "-b", "-w", "6", *advice]) == 0
    generic = capsys.readouterr().out
    assert main(["score", ref, "-i", hyp, "-b", "-w", "6"]) == 0
    assert generic == capsys.readouterr().out
    assert main(["score", ref, "-i", hyp, "-b", *advice, "--knob", "ref_length=shortest"]) == 0


@pytest.mark.parametrize("profile", ["sacrebleu", "parlai"])
def test_paired_table_is_the_corpus_reports_significance(tmp_path, capsys, profile) -> None:
    """score --paired-bs and compare -r/-i's significance section are views of the same
    records: each system's p-value against the first and bootstrap mean ± half-width are
    the corpus report's for ``bleu_impl:PROFILE`` (parlai: a mean of sentence scores, whose
    resamples are segment-score means)."""
    ref = tmp_path / "ref.txt"
    ref.write_text(REF, encoding="utf-8")
    systems = []
    for k, text in enumerate([HYP, REF.replace("cat", "dog"), HYP.replace("mat", "rug")]):
        (tmp_path / f"s{k}.txt").write_text(text, encoding="utf-8")
        systems.append(str(tmp_path / f"s{k}.txt"))
    argv = ["score", str(ref), "-i", *systems, "--paired-bs", "--profile", profile]
    assert main([*argv, "-pbsn", "200"]) == 0
    rows = {
        r["system"].removeprefix("Baseline: "): r["BLEU"]
        for r in json.loads(capsys.readouterr().out)
    }
    impl = f"bleu_impl:{profile}"
    argv = ["compare", "-r", str(ref), *(a for s in systems for a in ("-i", s)), "--impl", impl]
    assert main([*argv, "--paired-bs-n", "200", "--format", "json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    names = {s["name"]: s["file"] for s in report["systems"]}
    scale = 100 if profile == "sacrebleu" else 1
    for name, file in names.items():
        interval = report["intervals"][impl][name]
        assert rows[file]["mean"] == pytest.approx(interval["mean"] * scale / 100, rel=1e-12)
        assert rows[file]["ci"] == pytest.approx(interval["half"] * scale / 100, rel=1e-12)
    assert rows[systems[0]]["p_value"] is None
    for pair in report["versus"]:
        assert rows[names[pair["systems"][0]]]["p_value"] == pair["p_value"][impl]
