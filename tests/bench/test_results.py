"""docs/benchmarks.md is rendered from a saved run alone (no timing: the rows are given)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bench.__main__ import main
from bench.cfloor import C_FLOOR
from bench.corpus_report import into
from bench.generated import RUNS, Measured, section, tally
from bench.results import Run, load_run, merge_runs, run_meta, save_into, save_run
from bench.runner import Job, Plan, Row, _check, _not_run

META = {
    "command": "python -m bench (test)",
    "started": "2026-11-28 06:00 UTC",
    "machine": "a test machine",
    "load_start": [3.5, 2.0, 1.0],
    "commit": "abc1234",
    "versions": {"sacrebleu": "2.6.0", "nltk": None},
    "reps": 3,
    "warmup": 1,
    "clock": "cpu",
}


def _rows() -> list[Row]:
    def timed(task: str, lib: str, seconds: float) -> Row:
        return Row(100_000, 1, task, lib, times=[seconds], peak_mb=50.0, extra_mb=10.0)

    return [
        timed("pretok", "sacrebleu", 10.0),
        timed("pretok", "bleu_impl", 1.0),
        timed("pretok", "nltk", 4.0),
        timed("pretok", "bleuscore", 0.8),
        timed("pretok", C_FLOOR, 0.25),
        Row(100_000, 1, "pretok", "fast-bleu", skipped="not run at 100,000: est. 40 s"),
    ]


def test_the_report_renders_from_a_results_file(tmp_path: Path) -> None:
    saved = tmp_path / "benchmarks.json"
    save_run(saved, Run(_rows(), [], dict(META)))
    output = tmp_path / "benchmarks.md"
    assert main(["--render", str(saved), "--output", str(output)]) == 0
    text = output.read_text(encoding="utf-8")
    assert "`python -m bench (test)` from 2026-11-28 06:00 UTC" in text
    assert "Load average (1, 5, 15 min): start 3.50, 2.00, 1.00; end " in text
    assert "Commit: abc1234" in text and "nltk (not installed)" in text
    # 10 s / 1 s vs sacrebleu, 4 s / 1 s vs NLTK, 1 s / 0.25 s the C floor
    assert (
        "| 100,000 | 1 | pretok | bleu_impl | 1.000 | 100,000 | 50 (10) | 10.0 | 4.0 | 4.00 |"
        in text
    )
    assert (
        "bleu_impl faster than every peer — **not met** (bleu_impl 1.000 s; as fast or "
        "faster: bleuscore 0.800 s; not timed here: fast-bleu)" in text
    )
    assert "within 2x of the C floor — **not met** (4.00x the floor)" in text
    assert "not run at 100,000: est. 40 s" in text


def test_saved_runs_load_back_equal_and_merge_in_order(tmp_path: Path) -> None:
    saved, big = tmp_path / "run.json", tmp_path / "big.json"
    meta = run_meta("python -m bench", 1, 0, "wall")
    save_run(saved, Run(_rows(), [], meta))
    loaded = load_run(saved)
    assert loaded.rows == _rows() and loaded.meta["commit"] == meta["commit"]
    save_run(big, Run([Row(1_000_000, 1, "pretok", "bleu_impl", times=[9.0])], [], dict(META)))
    merged = merge_runs([saved, big])
    assert merged.rows == [*_rows(), Row(1_000_000, 1, "pretok", "bleu_impl", times=[9.0])]
    assert merged.meta["command"] == "python -m bench` and `python -m bench (test)"


def test_a_row_measured_again_replaces_the_earlier_one_in_its_place(tmp_path: Path) -> None:
    first, again = tmp_path / "first.json", tmp_path / "again.json"
    save_run(first, Run(_rows(), [], META))
    remeasured = Row(100_000, 1, "pretok", "bleu_impl", times=[0.5], cpu_path=[0.5])
    save_run(again, Run([remeasured], [], META))
    merged = merge_runs([first, again]).rows
    assert merged == [_rows()[0], remeasured, *_rows()[2:]]


def test_a_comparison_measured_again_replaces_the_earlier_one_and_unshrunk_pairs_count(
    tmp_path: Path,
) -> None:
    """compare's log writes ``"shrink": null`` for a pair it did not shrink (the report
    crashed on it after a 70-minute run); ``--append`` of the comparisons replaces them."""
    first, again = tmp_path / "first.json", tmp_path / "again.json"
    pairs = [
        {"verdict": "differing", "shrink": {"steps": 7, "budget": 50, "exhausted": False}},
        {"verdict": "agreeing", "shrink": None},
    ]
    save_run(first, Run(_rows(), [Measured(RUNS[0], cpu=9.0)], META))
    save_run(again, Run([], [Measured(RUNS[0], cpu=8.0, found=tally(pairs))], META))
    (merged,) = merge_runs([first, again]).compared
    assert merged.cpu == 8.0
    assert (
        merged.summary
        == "2 pairs, 1 differing, 1 shrunk (7 candidate inputs; budget 50 each, spent on 0)"
    )
    assert RUNS[1].same_as == RUNS[0].label  # --jobs 2 must give the same records
    other = Measured(RUNS[1], cpu=8.0, found=tally(pairs[:1]))
    assert "**results differ**" in "".join(section([merged, other]))
    assert "**results differ**" not in "".join(
        section([merged, replace(other, found=merged.found)])
    )


def test_without_sacrebleu_bleu_impl_is_checked_against_its_reference_path(monkeypatch) -> None:
    plan = Plan(sizes=[300], refs=[1])
    monkeypatch.setattr("bench.runner.sacrebleu_imports", lambda: True)
    assert _check(plan, "13a", None, "13a") == "sacrebleu"
    monkeypatch.setattr("bench.runner.sacrebleu_imports", lambda: False)
    assert _check(plan, "13a", None, "13a") == "reference-13a"


def test_a_slow_peer_past_its_size_gets_an_estimate_not_a_silent_gap() -> None:
    from bench.libs import ADAPTERS

    nltk = next(a for a in ADAPTERS if a.lib == "nltk")
    plan = Plan(sizes=[100_000, 1_000_000], refs=[1])
    done = [Row(100_000, 1, "pretok", "nltk", times=[12.0])]
    job = Job(Row(1_000_000, 1, "pretok", "nltk"), nltk, {}, "nltk")
    assert _not_run(plan, job, done) == (
        "not run at 1,000,000: est. 120 s (linear from 12.00 s at 100,000; a lower bound when "
        "it grows faster than linearly)"
    )
    small = Job(Row(100_000, 1, "pretok", "nltk"), nltk, {}, "nltk")
    assert _not_run(plan, small, []) is None


def test_the_corpus_report_measurement_is_kept_and_rendered(tmp_path: Path) -> None:
    """``bench.corpus_report --into`` saves its row into the results; a render keeps it."""
    measured = {
        "command": "python -m bench.corpus_report (test)",
        "started": "2026-11-28 06:00 UTC",
        "load": 1.5,
        "title": "10 systems x 2,000 segments x 2 references",
        "implementations": "30: 23 profiles, 7 live libraries",
        "jobs": 2,
        "wall": 31.0,
        "rows": [["bleu-conformance compare", "31.0", "12.0", "40.0", "250"]],
        "phases": {"scoring with torchmetrics": 9.0, "resampling": 2.5, "rendering": 0.01},
    }
    saved = tmp_path / "benchmarks.json"
    save_run(saved, Run(_rows(), [], dict(META)))
    into(saved, measured)
    assert load_run(saved).corpus_report == measured
    assert merge_runs([saved]).corpus_report == measured
    text = saved.with_suffix(".md").read_text(encoding="utf-8")
    assert "Target: 30 s wall — **not met** (31.0 s)" in text
    assert "| bleu-conformance compare | 31.0 | 12.0 | 40.0 | 250 |" in text
    assert "| scoring with torchmetrics | 9.0 |\n| resampling | 2.5 |" in text
    assert "| 1 other steps, each under 0.05 s | 0.0 |" in text


def test_dask_is_ahead_only_when_both_its_wall_and_its_cpu_critical_path_are() -> None:
    """Dask's wall time used to be set against one process's CPU time; both clocks are now
    compared like with like, and the CPU path (client + busiest worker) must agree."""
    from bench.libs import DASK_FILES, STREAMED
    from bench.report import targets

    def pair(dask_wall: float, dask_cpu: float) -> list[Row]:
        one = Row(1_000_000, 1, "pretok", STREAMED, times=[6.0], cpu_path=[5.0])
        return [
            one,
            Row(1_000_000, 1, "pretok", DASK_FILES, times=[dask_wall], cpu_path=[dask_cpu]),
        ]

    ahead = [t for t in targets(pair(3.0, 2.8)) if "Dask" in t]
    assert ahead == [
        "- corpus BLEU, pre-tokenized text (tokenize none), 1,000,000 x 1: Dask on a 2-worker "
        "LocalCluster faster than one process reading the same files — **met** (wall 3.00 s "
        "vs 6.00 s, 2.00x; CPU on the critical path, client + busiest worker vs the one "
        "process, 2.80 s vs 5.00 s, 1.79x)"
    ]
    assert "**not met**" in next(t for t in targets(pair(3.0, 5.5)) if "Dask" in t)
    assert "**not met**" in next(t for t in targets(pair(6.5, 2.8)) if "Dask" in t)
    from bench.report import markdown

    said = "autogroup scheduling was on"
    assert said in markdown(Run(pair(3.0, 2.8), [], {**META, "autogroup": True}))
    assert said not in markdown(Run(pair(3.0, 2.8), [], dict(META)))
    unpaired = pair(3.0, 2.8)[1:]
    assert "not measured (one process not measured)" in next(
        t for t in targets(unpaired) if "Dask" in t
    )


def test_a_block_whose_sacrebleu_row_was_not_run_is_checked_against_the_reference(
    tmp_path: Path,
) -> None:
    """At 1M x 4 sacrebleu is skipped (~29 GB); the others' check then ran sacrebleu anyway."""
    from bench.runner import run_plan

    plan = Plan(
        sizes=[40],
        refs=[4],
        reps=1,
        warmup=0,
        cache=tmp_path,
        big=40,
        big_libs=("bleu_impl",),
        libs=("sacrebleu", "bleu_impl"),
        tasks=("pretok",),
    )
    rows = {r.lib: r for r in run_plan(plan, log=lambda _: None)}
    assert rows["sacrebleu"].skipped.startswith("not run at 40")
    assert rows["bleu_impl"].check == "= reference-none" and rows["bleu_impl"].times


def test_identify_rows_and_notes_are_kept_in_the_results_and_rendered(tmp_path: Path) -> None:
    """The identify section and ``--note`` were written into the Markdown only: a
    ``--render`` of the saved results dropped them."""
    from bench.identify import IdentifyRow

    first, second = tmp_path / "a.json", tmp_path / "b.json"
    found = [IdentifyRow("nltk", 3.2, 2.9, "match: nltk")]
    save_run(first, Run(_rows(), [], {**META, "note": "First."}, identify=found))
    save_run(second, Run([Row(1_000_000, 1, "pretok", "bleu_impl", times=[9.0])], [], {**META}))
    merged = merge_runs([first, second])
    assert merged.identify == found and merged.meta["note"] == "First."
    output = tmp_path / "benchmarks.md"
    assert main(["--render", str(first), str(second), "--output", str(output)]) == 0
    text = output.read_text(encoding="utf-8")
    assert "\nFirst.\n\n## Targets\n" in text
    assert "## identify" in text and "| `identify --impl nltk` | 3.2 | 2.9 | met |" in text
    assert load_run(output.with_suffix(".json")).identify == found


def test_append_adds_rows_to_the_saved_results(tmp_path: Path) -> None:
    """``--append`` added a Markdown section the saved results did not hold."""
    output = tmp_path / "bench.md"
    argv = ["--sizes", "40", "--refs", "1", "--tasks", "floor", "--libs", "str.split"]
    argv += ["--reps", "1", "--warmup", "0", "--cache", str(tmp_path), "--output", str(output)]
    assert main(argv) == 0
    assert main([*argv, "--sizes", "50", "--append", "--note", "Fifty."]) == 0
    saved = load_run(output.with_suffix(".json"))
    assert [r.size for r in saved.rows] == [40, 50] and saved.meta["note"] == "Fifty."
    rendered = tmp_path / "again.md"
    assert main(["--render", str(output.with_suffix(".json")), "--output", str(rendered)]) == 0
    assert rendered.read_text(encoding="utf-8") == output.read_text(encoding="utf-8")


def test_the_startup_measurement_is_kept_and_rendered(tmp_path: Path) -> None:
    """``bench.startup --into`` saves its rows into the results; a render keeps them, with
    each ratio to sacrebleu's and whether every one is within the target."""
    measured = {
        "started": "2026-11-28 06:00 UTC",
        "load": 1.5,
        "reps": 11,
        "rows": [
            ["--version", 0.12, "sacrebleu --version", 0.1],
            ["score (2 lines)", 0.25, "sacrebleu … -i …", 0.1],
        ],
    }
    saved = tmp_path / "benchmarks.json"
    save_run(saved, Run(_rows(), [], dict(META)))
    save_into(saved, "startup", measured)
    assert load_run(saved).startup == measured
    assert merge_runs([saved]).startup == measured
    text = saved.with_suffix(".md").read_text(encoding="utf-8")
    assert "## Start-up" in text and "**not met** (at most 2.50x)" in text
    assert "| --version | 0.120 | sacrebleu --version | 0.100 | 1.20 |" in text
