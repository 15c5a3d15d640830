"""compare -r/-i: the corpus report on generated multilingual corpora, every section, every
format, and bad inputs.

Expected scores come from live sacrebleu and NLTK (never from bleu_impl); the structure of
the report (ranks, steps adding up, flips) is checked against those scores.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from bench.mtsystems import SystemSpec, generate, write
from conformance.cli import main

sacrebleu = pytest.importorskip("sacrebleu")

SYSTEMS = [
    SystemSpec("good", 0.30),
    SystemSpec("tok", 0.28, "tokenized"),
    SystemSpec("lower", 0.31, "lowercased"),
]
IMPLS = ["--impl", "sacrebleu", "--impl", "nltk", "--impl", "bleu_impl:sacrebleu"]
IMPLS += ["--impl", "bleu_impl:mteval-v13a", "--impl", "bleu_impl:multi-bleu"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    out = {}
    for lang in ("de", "ja"):
        d = tmp_path_factory.mktemp(lang)
        streams, outputs = generate(lang, 150, SYSTEMS, refs=2, seed=3)
        out[lang] = write(d, lang, streams, outputs)
    return out


def _args(paths: list[Path], refs: int = 2) -> list[str]:
    args = []
    for p in paths[:refs]:
        args += ["-r", str(p)]
    for p in paths[refs:]:
        args += ["-i", str(p)]
    return args


@pytest.fixture(scope="module")
def report(corpus: dict[str, list[Path]], capsys_module: None = None) -> dict:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["compare", *_args(corpus["de"]), *IMPLS, "--format", "json"]) == 0
    return json.loads(buffer.getvalue())


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_scores_are_the_live_libraries(report: dict, corpus: dict[str, list[Path]]) -> None:
    from nltk.translate.bleu_score import corpus_bleu

    paths = corpus["de"]
    refs = [_lines(p) for p in paths[:2]]
    for system, path in zip(report["systems"], paths[2:]):
        hyp = _lines(path)
        want = sacrebleu.corpus_bleu(hyp, refs).score
        assert report["scores"]["sacrebleu"][system["name"]] == pytest.approx(want, abs=1e-9)
        nltk_want = 100 * corpus_bleu(
            [[r.split() for r in rs] for rs in zip(*refs)], [h.split() for h in hyp]
        )
        assert report["scores"]["nltk"][system["name"]] == pytest.approx(nltk_want, rel=1e-9)
    assert {"systems", "implementations", "scores", "ranks", "decomposition"} <= set(report)
    assert {"flips", "segments"} <= set(report)


def test_ranks_and_spread_follow_the_scores(report: dict) -> None:
    for impl, scores in report["scores"].items():
        order = sorted(scores, key=lambda s: -scores[s])
        assert [report["ranks"][impl][s] for s in order] == sorted(report["ranks"][impl].values())
    for name, spread in report["spread"].items():
        values = [s[name] for s in report["scores"].values() if name in s]
        assert spread["spread"] == pytest.approx(max(values) - min(values))


def test_steps_add_up_to_the_total_difference(report: dict) -> None:
    decomposition = report["decomposition"]
    assert set(decomposition) == set(report["scores"]) - {report["baseline"]}
    for impl, entry in decomposition.items():
        assert entry["explained"], impl
        for system, total in entry["total"].items():
            steps = sum(s["delta"][system] for s in entry["steps"])
            assert steps + entry["unexplained"][system] == pytest.approx(total, abs=1e-9)
            assert abs(entry["unexplained"][system]) < 1e-6  # reproduced exactly
    nltk = decomposition["nltk"]
    assert "tokenize" in nltk["order"]  # sacrebleu 13a vs NLTK's whitespace split
    assert nltk["order"] == sorted(
        nltk["order"], key=list(report["implementations"][0]["setting"]).index
    )


def test_flips_name_both_orders_with_p_values(report: dict) -> None:
    assert report["flips"], "the tokenized system should be ranked differently"
    for flip in report["flips"]:
        a, b = flip["systems"]
        for impl in flip["a_better"]:
            assert report["scores"][impl][a] > report["scores"][impl][b]
        for impl in flip["b_better"]:
            assert report["scores"][impl][a] < report["scores"][impl][b]
        assert (
            flip["p_value"]["sacrebleu"] is not None
        )  # by bleu_impl:sacrebleu, which reproduces it
        assert 0 < flip["p_value"]["sacrebleu"] <= 1


def test_live_and_profile_significance_agree(report: dict) -> None:
    for flip in report["flips"]:
        assert flip["p_value"]["sacrebleu"] == flip["p_value"]["bleu_impl:sacrebleu"]
    info = {i["name"]: i for i in report["implementations"]}
    assert info["sacrebleu"]["significance"].startswith("by bleu_impl:sacrebleu")


def test_segments_show_the_texts_and_tokens(report: dict, corpus: dict[str, list[Path]]) -> None:
    seg = report["segments"]
    assert seg["rows"], seg
    row = seg["rows"][0]
    system_file = next(s["file"] for s in report["systems"] if s["name"] == seg["system"])
    assert _lines(Path(system_file))[row["line"] - 1] == row["hypothesis"]
    assert row["tokens_a"] != row["tokens_b"] or row["counts_a"] != row["counts_b"]


@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_text_formats_have_every_section(
    corpus: dict[str, list[Path]], fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", *_args(corpus["ja"]), *IMPLS, "--format", fmt]) == 0
    out = capsys.readouterr().out
    for title in (
        "Scores",
        "Ranks",
        "Why the scores differ",
        "Ranking flips",
        "Where the difference",
    ):
        assert title in out
    if fmt == "markdown":
        from markdown_it import MarkdownIt

        tokens = MarkdownIt("commonmark").enable("table").parse(out)
        assert sum(t.type == "table_open" for t in tokens) >= 2


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["compare", *argv, "--impl", "bleu_impl:sacrebleu"]) == 2
    return capsys.readouterr().err


def test_bad_inputs_name_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e f\n", encoding="utf-8")
    short = tmp_path / "short.txt"
    short.write_text("a b c\n", encoding="utf-8")
    assert "short.txt has 1 lines but" in _error(["-r", str(ref), "-i", str(short)], capsys)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert "empty.txt: empty file" in _error(["-r", str(ref), "-i", str(empty)], capsys)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\n\xff\xfe\n")
    assert "bad.txt:2: invalid UTF-8" in _error(["-r", str(ref), "-i", str(bad)], capsys)
    # one path as both reference and system: refused as a file given twice
    assert f"{ref}: given twice" in _error(["-r", str(ref), "-i", str(ref)], capsys)
    same = tmp_path / "same.txt"
    same.write_text("a b c\nd e f\n", encoding="utf-8")
    assert "identical to reference" in _error(["-r", str(ref), "-i", str(same)], capsys)
    assert "given twice" in _error(["-r", str(ref), "-i", str(same), "-i", str(same)], capsys)
    assert "only once" in _error(["-r", "-", "-i", "-"], capsys)
    missing = tmp_path / "nope.txt"
    assert "nope.txt: cannot read" in _error(["-r", str(ref), "-i", str(missing)], capsys)


def test_a_bad_system_file_is_left_out_and_the_others_compared(
    corpus: dict[str, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One system file with invalid UTF-8 and one a line short, beside good ones: each is
    an error row naming its file and line, the good systems are still scored (live
    sacrebleu's numbers) and ranked, and the exit status is 2, in every format."""
    paths = corpus["de"]
    refs, good = paths[:2], paths[2:]
    lines = good[0].read_bytes().split(b"\n")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\n".join([lines[0], lines[1] + b"\xff", *lines[2:]]))
    short = tmp_path / "short.txt"
    short.write_bytes(b"\n".join(lines[1:]))
    argv = ["compare", *_args([*refs, good[0], bad, good[1], short, good[2]])]
    argv += ["--impl", "sacrebleu", "--impl", "bleu_impl:sacrebleu", "--quiet"]
    assert main([*argv, "--format", "json"]) == 2
    out, err = capsys.readouterr()
    assert "left out of the report" in err
    report = json.loads(out)
    assert [s["file"] for s in report["systems"]] == [str(p) for p in good]
    unread = {s["file"]: s["error"] for s in report["unread"]}
    assert unread[str(bad)].startswith(f"{bad}:2: invalid UTF-8")
    assert unread[str(short)].startswith(f"line count mismatch: {short} has 149 lines but")
    texts = [_lines(p) for p in refs]
    for system, path in zip(report["systems"], good):
        want = sacrebleu.corpus_bleu(_lines(path), texts).score
        assert report["scores"]["sacrebleu"][system["name"]] == pytest.approx(want, abs=1e-9)
    assert sorted(report["ranks"]["sacrebleu"].values()) == [1, 2, 3]
    assert len(report["versus"]) == 2
    assert main([*argv, "--format", "table"]) == 2
    table = "".join(capsys.readouterr().out.split())  # wrapped anywhere, even in a path
    assert "(2morenotcompared:seeNoscore)" in table
    assert "".join(f"every implementation: not compared: {bad}:2: invalid UTF-8".split()) in table


def test_gzip_stdin_and_a_single_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = tmp_path / "ref.txt.gz"
    with gzip.open(ref, "wt", encoding="utf-8") as f:
        f.write("the cat sat on the mat .\nthere is a dog\n")
    import io
    import sys

    monkeypatch.setattr(
        sys, "stdin", io.TextIOWrapper(io.BytesIO(b"the cat sat on a mat .\na dog\n"))
    )
    assert main(["compare", "-r", str(ref), "-i", "-", "--impl", "bleu_impl:sacrebleu"]) == 0
    out = capsys.readouterr().out
    assert "One system: there is no ranking to flip" in out
    want = sacrebleu.corpus_bleu(
        ["the cat sat on a mat .", "a dog"], [["the cat sat on the mat .", "there is a dog"]]
    )
    assert f"{want.score:.2f}" in out


def test_a_failing_implementation_is_an_error_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\nthere is a dog here\n", encoding="utf-8")
    good = tmp_path / "good.txt"
    good.write_text("the cat sat on the mat\na dog is here\n", encoding="utf-8")
    boom = tmp_path / "boom.txt"
    boom.write_text("the cat sat on the mat\nBOOM dog\n", encoding="utf-8")
    impl = "tests.conformance.fakes.impls:fragile_bleu"
    argv = ["compare", "-r", str(ref), "-i", str(good), "-i", str(boom), "--impl", impl]
    argv += [
        "--impl",
        "bleu_impl:sacrebleu",
        "--baseline",
        "bleu_impl:sacrebleu",
        "--format",
        "json",
    ]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    name = next(i["name"] for i in report["implementations"] if i["spec"] == impl)
    assert "boom" in report["errors"][name]
    assert "BOOM" in report["errors"][name]["boom"]
    assert set(report["scores"][name]) == {"good"}
    assert set(report["scores"]["bleu_impl:sacrebleu"]) == {"good", "boom"}


def test_expectation_keys_are_implementations_as_in_fixture_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bleu_impl:mteval-v13a-c`` (a key of fixtures/implementations.yaml: mteval's ``-c``)
    is accepted in corpus mode and keeps its knob: case-sensitive where mteval lowercases."""
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat today\nthere is a dog in the house\n", "utf-8")
    upper = tmp_path / "upper.txt"
    upper.write_text("The Cat sat on the Mat today\nThere is a Dog in the house\n", "utf-8")
    argv = ["compare", "-r", str(ref), "-i", str(upper), "--format", "json"]
    argv += ["--impl", "bleu_impl:mteval-v13a", "--impl", "bleu_impl:mteval-v13a-c"]
    assert main([*argv, "--baseline", "bleu_impl:mteval-v13a"]) == 0
    scores = json.loads(capsys.readouterr().out)["scores"]
    assert scores["bleu_impl:mteval-v13a"]["upper.txt"] == 100.0
    assert scores["bleu_impl:mteval-v13a-c"]["upper.txt"] < 100.0


def test_one_reason_on_every_system_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tensor2tensor's compute_bleu takes one reference: with two it fails on every system,
    and the table says so once, not once per system."""
    refs = []
    for k, text in enumerate(["the cat sat on the mat\na dog\n", "a cat sat on a mat\nthe dog\n"]):
        refs.append(tmp_path / f"ref{k}.txt")
        refs[-1].write_text(text, encoding="utf-8")
    argv = ["compare", "-r", str(refs[0]), "-r", str(refs[1])]
    for k, text in enumerate(["the cat sat\na dog\n", "a cat\nthe dog\n", "cat mat\ndog\n"]):
        system = tmp_path / f"sys{k}.txt"
        system.write_text(text, encoding="utf-8")
        argv += ["-i", str(system)]
    argv += ["--impl", "bleu_impl:tensor2tensor", "--impl", "bleu_impl:sacrebleu"]
    argv += ["--baseline", "bleu_impl:sacrebleu"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    lines = out.split("No score:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    section = [line for line in lines if not line.startswith("      ")]  # wrapped: one entry
    assert len(section) == 1, section
    assert "bleu_impl:tensor2tensor on every system (3): failed: InputError" in section[0]
    assert "one reference" in " ".join(" ".join(lines).split())


def test_jobs_ask_the_live_libraries_at_once_with_the_same_report(
    report: dict, corpus: dict[str, list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    """--jobs 2: live sacrebleu and NLTK (worker processes) asked from two threads while
    the bleu_impl profiles are asked here; the report is the one asked one by one."""
    argv = ["compare", *_args(corpus["de"]), *IMPLS, "--format", "json", "--jobs", "2"]
    assert main(argv) == 0
    jobs = json.loads(capsys.readouterr().out)
    assert jobs.pop("header")["argv"][-2:] == ["--jobs", "2"]  # and when it ran: the rest equal
    assert jobs == {k: v for k, v in report.items() if k != "header"}


def test_a_baseline_without_scores_is_named_as_the_reason(
    corpus: dict[str, list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    """fairseq takes one reference: as the baseline on two it scores nothing, and the
    decomposition says so (not that no setting reproduces it)."""
    argv = ["compare", *_args(corpus["de"][:3]), "--impl", "bleu_impl:fairseq"]
    argv += [
        "--impl",
        "sacrebleu",
        "--impl",
        "bleu_impl:multi-bleu",
        "--baseline",
        "bleu_impl:fairseq",
    ]
    assert main([*argv, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["scores"]["bleu_impl:fairseq"]) == set()  # failed on every system
    for impl in ("sacrebleu", "bleu_impl:multi-bleu"):
        note = out["decomposition"][impl]["note"]
        assert note == (
            "bleu_impl:fairseq (the baseline) has no score on any system (failed: InputError: "
            "ref_length='single' needs exactly one reference per segment, got 2): choose "
            "another --baseline"
        )
    assert "--between" in out["segments"]["note"]


@pytest.mark.parametrize("test", ["paired-bs", "paired-ar"])
def test_report_significance_equals_sacrebleus(corpus: dict[str, list[Path]], test: str) -> None:
    """Every system against the first, for live sacrebleu and the sacrebleu profile, is what
    ``sacrebleu REFS -i SYSTEMS --paired-bs`` (``--paired-ar``) prints on the same files:
    the p-values exactly, the bootstrap mean and half-width as printed; every flip involving
    the first system has the same p-values; NLTK, which sacrebleu cannot be, has them too."""
    import contextlib
    import io
    import subprocess
    import sys

    paths = corpus["de"]
    refs, systems = [str(p) for p in paths[:2]], [str(p) for p in paths[2:]]
    cmd = [sys.executable, "-m", "sacrebleu", *refs, "-i", *systems, f"--{test}"]
    done = subprocess.run([*cmd, "--format", "json"], capture_output=True, text=True, check=True)
    rows = json.loads(done.stdout)
    want = {row["system"].removeprefix("Baseline: "): row["BLEU"] for row in rows}
    buffer = io.StringIO()
    argv = ["compare", *_args(paths), "--impl", "sacrebleu", "--impl", "bleu_impl:sacrebleu"]
    argv += ["--impl", "nltk", "--format", "json"]
    argv += ["--paired-ar"] if test == "paired-ar" else []
    with contextlib.redirect_stdout(buffer):
        assert main(argv) == 0
    report = json.loads(buffer.getvalue())
    by_file = {s["file"]: s["name"] for s in report["systems"]}
    by_name = {n: p for p, n in by_file.items()}
    first = by_file[systems[0]]
    versus = {v["systems"][0]: v for v in report["versus"]}
    assert sorted(versus) == sorted(n for n in by_name if n != first)
    assert all(v["systems"][1] == first and v["verdict"] for v in versus.values())
    flips = [f for f in report["flips"] if first in f["systems"]]
    for impl in ("sacrebleu", "bleu_impl:sacrebleu"):
        for name, pair in versus.items():
            assert pair["p_value"][impl] == want[by_name[name]]["p_value"]
            assert pair["p_value"]["nltk"] is not None
        if test == "paired-bs":
            for path, name in by_file.items():
                got = report["intervals"][impl][name]
                assert f"{got['mean']:.2f} {got['half']:.2f}" == (
                    f"{want[path]['mean']:.2f} {want[path]['ci']:.2f}"
                )
        for flip in flips:
            other = next(s for s in flip["systems"] if s != first)
            assert flip["p_value"][impl] == want[by_name[other]]["p_value"]
    assert flips, "a flip involving sacrebleu's baseline system should exist"


#: File conventions of real shared-task files, each in the reference or a system file.
HOSTILE_REF = (
    "\ufeffDie Polizei bittet um Hinweise.\r\n"  # BOM, CRLF
    "Der Hund\u2028läuft über die Straße.\r\n"  # U+2028 inside a line
    "\r\n"  # blank line
    "Ein Satz mit\x85NEL und\x0bVT und\x0cFF.\r\n"
    "   \t \r\n"  # whitespace only
    "Ein einsames\rCR bleibt in der Zeile.\r\n"
    "Im Süden wird Schnee erwartet."  # no final newline
)
HOSTILE_SYS = (
    "Die Polizei bittet um Hinweise .\n"
    "Der Hund läuft über die Straße.  \n"
    "Leer?\n"
    "Ein Satz mit NEL\u2029und VT und FF.\n"
    "\n"
    "Ein einsames CR bleibt\tin der Zeile.\n"
    "Im Süden wird Schnee\u00a0erwartet.\n"
)


@pytest.mark.parametrize("tokenize", ["13a", "char"])
def test_hostile_files_score_as_the_sacrebleu_command_line(tmp_path: Path, tokenize: str) -> None:
    """sacrebleu reads files with ``newline="\\n"`` and ``rstrip()``s every line: \\r, U+2028,
    NEL, VT and FF stay inside their line, the BOM stays text; the report's sacrebleu scores
    equal its command line on the same files."""
    import subprocess
    import sys

    ref, hyp = tmp_path / "ref.de", tmp_path / "sys.de"
    ref.write_bytes(HOSTILE_REF.encode("utf-8"))
    hyp.write_bytes(HOSTILE_SYS.encode("utf-8"))
    cmd = [sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), "-b", "-w", "6"]
    want = float(
        subprocess.run([*cmd, "-tok", tokenize], capture_output=True, text=True, check=True).stdout
    )
    out = tmp_path / "report.json"
    argv = ["compare", "-r", str(ref), "-i", str(hyp), "--impl", "sacrebleu", "--impl"]
    argv += ["bleu_impl:sacrebleu", "--knob", f"tokenize={tokenize}", "--format", "json"]
    assert main([*argv, "--report", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["segment_count"] == 7
    for impl in ("sacrebleu", "bleu_impl:sacrebleu"):
        assert f"{report['scores'][impl]['sys.de']:.6f}" == f"{want:.6f}", impl


@pytest.mark.parametrize("baseline", ["bleu_impl:sacrebleu", "exits"])
def test_an_implementation_that_cannot_start_is_a_column_of_error_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], baseline: str
) -> None:
    """sys.exit at import (or no hello in time) errors that implementation's cells with the
    reason; the other implementations' report is complete (it was exit 2 and no report)."""
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\nthere is a dog here\n", encoding="utf-8")
    good = tmp_path / "good.txt"
    good.write_text("the cat sat on the mat\na dog is here\n", encoding="utf-8")
    other = tmp_path / "other.txt"
    other.write_text("a cat sat on the mat\nthere is a dog\n", encoding="utf-8")
    exits = "tests.conformance.fakes.exits_at_import:bleu"
    argv = ["compare", "-r", str(ref), "-i", str(good), "-i", str(other)]
    argv += ["--impl", exits, "--impl", "bleu_impl:sacrebleu", "--impl", "sacrebleu"]
    argv += ["--baseline", exits if baseline == "exits" else baseline, "--format", "json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    for system in ("good", "other"):
        assert "cannot start the implementation" in report["errors"][exits][system]
        assert "sys.exit(3)" in report["errors"][exits][system]
    assert report["scores"][exits] == {}
    want = sacrebleu.corpus_bleu([good.read_text().splitlines()[0], "a dog is here"],
                                 [ref.read_text().splitlines()]).score  # fmt: skip
    assert report["scores"]["sacrebleu"]["good"] == pytest.approx(want, abs=1e-9)
    assert set(report["scores"]["bleu_impl:sacrebleu"]) == {"good", "other"}
