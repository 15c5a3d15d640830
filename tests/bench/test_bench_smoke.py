"""The benchmark's generator is deterministic and its correctness check works (no timing)."""

from __future__ import annotations

import pytest
import sacrebleu

from bench import corpus as gen
from bench.__main__ import _plan, build_parser, parse_size
from bench.cfloor import C_FLOOR
from bench.report import markdown, table
from bench.results import Run, run_meta
from bench.runner import Plan, Row, corpus_dir, predicted_mb, run_plan
from bench.worker import distance, measure, read_corpus


def test_generator_is_deterministic_and_streams_the_same_lines() -> None:
    a = gen.corpus(300, refs=2, seed=7)
    b = gen.corpus(300, refs=2, seed=7)
    assert a == b
    assert gen.corpus(300, refs=2, seed=8) != a
    streamed = list(gen.stream(300, refs=2, seed=7))
    assert [h for h, _ in streamed] == a.hyps
    assert [r for _, r in streamed] == a.nltk_refs
    detok = gen.corpus(300, refs=2, seed=7, detok=True)
    assert len(detok.hyps) == 300 and detok.hyps != a.hyps


def test_generated_corpus_looks_like_mt_output() -> None:
    c = gen.corpus(2_000, refs=1, seed=0, detok=True)
    score = sacrebleu.corpus_bleu(c.hyps, c.refs).score
    assert 25 <= score <= 35
    lengths = [len(h.split()) for h in c.hyps]
    assert 10 <= sum(lengths) / len(lengths) <= 35
    assert len(gen.vocabulary(0)[0]) == gen.VOCAB_TYPES


@pytest.mark.slow
def test_correctness_check_runs_on_a_tiny_corpus(tmp_path) -> None:
    plan = Plan(
        sizes=[40],
        refs=[1, 2],
        reps=1,
        warmup=0,
        cache=tmp_path,
        libs=("str.split", "bleu_impl", "sacrebleu", "nltk", C_FLOOR),
    )
    rows = run_plan(plan, log=lambda _: None)
    checked = {(r.refs, r.task, r.lib): r for r in rows}
    assert checked[(1, "pretok", "bleu_impl")].check == "= sacrebleu"
    assert checked[(2, "13a", "bleu_impl")].check == "= sacrebleu"
    assert checked[(1, "sentence", "bleu_impl")].check == "= sacrebleu"
    assert checked[(1, "pretok", "nltk")].check == "= nltk"
    assert checked[(2, "zh", "bleu_impl")].check == "= sacrebleu"
    assert checked[(1, "ja-mecab", "bleu_impl")].check == "= sacrebleu"
    assert checked[(2, "pretok", C_FLOOR)].check == "= sacrebleu"
    assert checked[(2, "13a", C_FLOOR)].check == "= sacrebleu"
    assert not any(r.skipped for r in rows)
    text = markdown(Run(rows, [], run_meta("python -m bench (test)", 1, 0, "wall")))
    assert "\n## Targets\n" in text and "| 40 | 1 | pretok | bleu_impl |" in text
    assert len(table(rows)) == len(rows) + 2


def test_a_wrong_score_is_caught_before_timing(tmp_path) -> None:
    plan = Plan(sizes=[20], refs=[1], cache=tmp_path)
    folder = corpus_dir(plan, 20, 1, "pretok")
    hyps, refs = read_corpus(folder, 1)
    assert len(hyps) == 20 and all(len(r) == 1 for r in refs)
    spec = {
        "task": "pretok", "lib": "bleu_impl", "corpus": folder, "refs": 1, "tokenize": "none",
        "reps": 3, "warmup": 1, "want": 0.5, "tolerance": 1e-12,
    }  # fmt: skip
    result = measure(spec)
    assert result["mismatch"] > 0 and "times" not in result
    assert distance([0.1, 0.2], [0.1, 0.2]) == 0 and distance([0.1], [0.1, 0.2]) == float("inf")


def test_cli_help_and_sizes() -> None:
    assert parse_size("3k") == 3_000 and parse_size("1M") == 1_000_000
    assert "--quick" in build_parser().format_help()


def test_memory_guard_extrapolates_from_the_largest_smaller_size() -> None:
    rows = [
        Row(1_000, 1, "pretok", "sacrebleu", peak_mb=20.0),
        Row(100_000, 1, "pretok", "sacrebleu", peak_mb=1_000.0),
        Row(100_000, 4, "pretok", "sacrebleu", peak_mb=3_000.0),
    ]
    assert predicted_mb(rows, 1_000_000, 1, "pretok", "sacrebleu") == 10_000.0
    assert predicted_mb(rows, 1_000_000, 4, "pretok", "sacrebleu") == 30_000.0
    assert predicted_mb(rows, 1_000_000, 1, "13a", "sacrebleu") is None


@pytest.mark.parametrize(
    "argv",
    [
        ["--refs", "0"],
        ["--refs", "-1"],
        ["--refs", "1,x"],
        ["--reps", "0"],
        ["--warmup", "-5"],
        ["--timeout", "nan"],
        ["--timeout", "0"],
        ["--timeout", "-1"],
    ],
)
def test_out_of_range_options_are_usage_errors(argv: list[str], capsys) -> None:
    """``--refs 0`` was an IndexError traceback, ``--timeout nan`` a ValueError one, and
    ``--timeout 0`` abandoned every measurement with exit 0."""
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["--quick", *argv])
    assert exit_.value.code == 2
    assert f"argument {argv[0]}" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--libs", "--big-libs"])
def test_an_unknown_library_label_is_named(option: str) -> None:
    """``--libs nosuch`` measured nothing and still exited 0 after the comparisons."""
    args = build_parser().parse_args(["--quick", option, "bleu_impl,nosuch"])
    with pytest.raises(SystemExit, match=f"unknown {option[2:]} label.*nosuch.*bleu_impl"):
        _plan(args)
