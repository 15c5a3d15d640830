"""``bleu-conformance compare``: the main job, end to end."""

from __future__ import annotations

import json
import re

import pytest

from conformance.cli import main
from tests.conformance.reporters import gfm


def _json(capsys, *args: str, status: int = 0) -> dict:
    assert main(["compare", "--format", "json", *args]) == status
    return json.loads(capsys.readouterr().out)


def test_default_compares_bleu_impl_with_nltk_and_explains_every_row(
    capsys, default_compare_log
) -> None:
    data = _json(capsys, "--replay", str(default_compare_log))
    names = [impl["name"] for impl in data["implementations"]]
    assert names == ["bleu_impl:papineni2002", "nltk"]
    differing = [p for p in data["pairs"] if p["verdict"] == "differing"]
    assert differing, "the paper and NLTK disagree on short and zero-match cases"
    assert all(p["cause"]["explained"] for p in differing)
    causes = {p["cause"]["cause"] for p in differing}
    assert "zero_match: zero vs float-min" in causes
    summary = data["summary"][0]
    assert summary["compared"] + summary["skipped"] == len(data["pairs"])
    assert summary["unexplained"] == 0
    for pair in differing:  # the row records keep their detail
        assert {"stats_a", "stats_b", "stats_diff"} <= set(pair) and "alternatives" in pair["cause"]


@pytest.mark.parametrize("columns", [80, 120])
def test_first_command_answers_on_one_screen(
    capsys, monkeypatch, default_compare_log, columns
) -> None:
    """The README's first command: the answer (verdict, pairs, causes) on the first screen,
    every line within the terminal's width, the largest differences first."""
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["compare", "--replay", str(default_compare_log)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= columns
    first_screen = " ".join(" ".join(lines[:50]).split())  # (with every column explained)
    assert "material difference" in first_screen and "negligible difference" in first_screen
    assert "Why: causes" in first_screen and "zero_match: zero vs" in first_screen
    if columns == 120:  # with every column of the pair and cause tables explained
        assert "Material differences" in " ".join(lines[:55]) and len(lines) <= 75
    data = _json(capsys, "--replay", str(default_compare_log))
    largest = data["material"][0]["item"]
    material = "\n".join(lines).split("Material differences")[1]
    first_row = next(line for line in material.split("\n") if re.match(r"\s*1  ", line))
    assert first_row.split()[1] == largest  # the case id whole, on its row's line
    # each cause's example case under its row, whole
    examples = re.findall(r"^    example: (\S+)$", "\n".join(lines), flags=re.M)
    assert examples and largest in examples
    assert set(examples) <= {d["item"] for d in data["material"] + data["negligible"]}


def test_verbose_lists_every_difference(capsys, default_compare_log) -> None:
    data = _json(capsys, "--replay", str(default_compare_log))
    differing = sum(1 for p in data["pairs"] if p["verdict"] == "differing")
    assert main(["compare", "--replay", str(default_compare_log), "-v"]) == 0
    out = capsys.readouterr().out
    rows = out.split("\nMaterial differences", 1)[1]  # (after the case counts)
    numbered = re.findall(r"^\s*(\d+)  \S", rows, flags=re.M)
    assert sorted(int(n) for n in numbered) == list(range(1, differing + 1))
    # grouped under their cause: every row below a cause line, largest first within it
    groups = re.split(r"^cause: .*$", rows, flags=re.M)
    assert len(groups) > 2 and not re.search(r"^\s*\d+  \S", groups[0], flags=re.M)
    for group in groups[1:]:
        ranks = [int(n) for n in re.findall(r"^\s*(\d+)  \S", group, flags=re.M)]
        assert ranks == sorted(ranks)


def test_markdown_is_gfm_tables(capsys, default_compare_log) -> None:
    assert main(["compare", "--replay", str(default_compare_log), "--format", "markdown"]) == 0
    tables = gfm.check(capsys.readouterr().out)
    assert tables and tables[0].headers[-1] == "max |Δ|"


def test_table_output_has_summary_and_discrepancies(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["compare", "-k", "ship"]) == 0
    out = capsys.readouterr().out
    assert "Pairs" in out and "Why: causes" in out and "Material differences" in out
    assert "denominator_floor: none vs per-segment" in out


def test_replay_renders_the_same_report(tmp_path, capsys) -> None:
    log = tmp_path / "cmp.jsonl"
    assert main(["compare", "-k", "ship", "--format", "markdown", "--output", str(log)]) == 0
    first = capsys.readouterr().out
    assert main(["compare", "--replay", str(log), "--format", "markdown"]) == 0
    assert capsys.readouterr().out == first


def test_jobs_do_not_change_results(capsys) -> None:
    one = _json(capsys, "-k", "mteval", "--generate", "6", "--seed", "3", "--no-shrink")
    two = _json(
        capsys, "-k", "mteval", "--generate", "6", "--seed", "3", "--no-shrink", "--jobs", "2"
    )
    assert one["pairs"] == two["pairs"]


def test_generated_disagreements_are_shrunk(capsys) -> None:
    data = _json(capsys, "-k", "no-such-case", "--generate", "12", "--seed", "1")
    shrunk = [p for p in data["pairs"] if p.get("minimal")]
    assert shrunk
    for pair in shrunk:
        tokens = sum(len(h.split()) for h in pair["minimal"]["hypotheses"])
        assert tokens <= 6


def test_three_implementations_give_three_pairs(capsys) -> None:
    data = _json(
        capsys, "-k", "paper", "--impl", "bleu_impl:nltk", "--impl", "nltk", "--impl", "sacrebleu"
    )
    pairs = {(p["a"], p["b"]) for p in data["pairs"]}
    assert len(pairs) == 3
    ours_vs_nltk = [p for p in data["pairs"] if (p["a"], p["b"]) == ("bleu_impl:nltk", "nltk")]
    assert ours_vs_nltk and all(
        p["verdict"] in ("identical", "within", "skipped") for p in ours_vs_nltk
    )


def test_unknown_implementation_is_a_clear_error(capsys) -> None:
    assert main(["compare", "--impl", "no_such_impl"]) == 2
    assert "unknown implementation" in capsys.readouterr().err


FAKE = "tests.conformance.fakes.impls"


def _pairs(capsys, *args: str, status: int = 0) -> dict[str, dict]:
    return {p["item"]: p for p in _json(capsys, *args, status=status)["pairs"]}


def test_expectation_keys_are_implementations_as_in_run(capsys) -> None:
    """`bleu_impl:KEY` works in compare as in run, and carries the key's knobs (-c)."""
    data = _json(capsys, "--impl", "bleu_impl:mteval-v13a-c", "--impl", "bleu_impl:mteval-v13a")
    causes = {p["cause"]["cause"] for p in data["pairs"] if p["verdict"] == "differing"}
    # tr (ascii) with the default tokenization, Perl lc with --international-tokenization
    assert causes and all(
        c.startswith(("lowercase: off vs ascii", "lowercase: off vs perl-lc")) for c in causes
    )


def test_statistics_are_each_sides_own(capsys) -> None:
    """NLTK reports only a score; its statistics come from its own profile when that
    reproduces its score exactly -- here its per-segment max(1, .) floor gives 0/6."""
    pair = _pairs(
        capsys,
        "--impl",
        "sacrebleu",
        "--impl",
        "nltk",
        "-k",
        "sacrebleu.doc.readme-variable-refs.none",
    )["sacrebleu.doc.readme-variable-refs.none"]
    assert pair["stats_a"]["source"] == "reported"
    assert pair["stats_b"]["source"] == "bleu_impl:nltk"
    assert "p4 1/8 vs 0/6" in pair["stats_diff"]


def test_statistics_show_every_difference(capsys) -> None:
    pair = _pairs(capsys, "-k", "seed003.extra-token")["seed003.extra-token"]
    assert pair["stats_a"]["totals"] == [7, 5, 3, 1]
    assert pair["stats_b"]["totals"] == [7, 5, 3, 2]
    assert "p4 0/1 vs 0/2" in pair["stats_diff"]


def test_a_side_with_only_a_score_is_named(capsys) -> None:
    pairs = _pairs(capsys, "--impl", "bleu_impl", "--impl", f"{FAKE}:good", "-k", "ship_all")
    different = [p for p in pairs.values() if p["verdict"] == "differing"]
    for pair in different:
        assert f"{FAKE}:good reports only a score" in pair["stats_diff"]


def test_every_equally_minimal_single_knob_cause_is_listed(capsys) -> None:
    pairs = _pairs(capsys, "-k", "seed004.c2", "-k", "nltk.smoothing.one-token.method4")
    assert "zero_match: zero vs skip" in pairs["seed004.c2"]["cause"]["alternatives"]
    method4 = pairs["nltk.smoothing.one-token.method4"]
    assert "absent_order: zero vs one" in method4["cause"]["alternatives"]


def test_two_failures_are_not_a_difference(capsys) -> None:
    pairs = _pairs(capsys, "--impl", f"{FAKE}:crash", "--impl", f"{FAKE}:crash_too", "-k", "ship")
    assert pairs and {p["verdict"] for p in pairs.values()} == {"both-failed"}
    assert not any(p["cause"] for p in pairs.values())


def test_errors_are_never_differences(capsys) -> None:
    """An implementation that exits, or answers NaN, errors; nothing is attributed to it,
    and compared with nothing, the comparison is no verdict (exit 4)."""
    for fake in ("exits", "nan"):
        argv = ("--impl", "bleu_impl", "--impl", f"{FAKE}:{fake}", "-k", "ship")
        pairs = _pairs(capsys, *argv, status=4)
        verdicts = {p["verdict"] for p in pairs.values()}
        assert "errored" in verdicts and verdicts <= {"errored", "skipped"}, fake
        assert not any(p["cause"] for p in pairs.values())


def test_piped_into_head_it_ends_quietly() -> None:
    """`compare -v | head -1` (more output than a pipe holds): the reader goes away; no
    error message, and the shell sees the first line."""
    import subprocess
    import sys

    shell = subprocess.run(
        f"{sys.executable} -m conformance.cli compare -q -v | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert shell.stdout.startswith("Compared")
    assert "Broken pipe" not in shell.stderr and "error" not in shell.stderr


def test_the_screen_says_what_the_cases_are(capsys, monkeypatch, default_compare_log) -> None:
    """The cases by provenance class add up to the cases compared, and the material
    differences on each class to the material differences."""
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["compare", "--replay", str(default_compare_log)]) == 0
    out = capsys.readouterr().out
    total = int(re.search(r"What the (\d+) cases are", out).group(1))
    block = out.split("(by their provenance tags):\n", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^  (\d+) +([a-z -]+) \((\d+) material\): \S", block, flags=re.M)
    assert {kind for _, kind, _ in rows} >= {"published examples", "synthetic edge cases"}
    assert sum(int(n) for n, _, _ in rows) == total
    material = int(re.search(r"^(\d+) material differences", out, flags=re.M).group(1))
    assert sum(int(m) for _, _, m in rows) == material
