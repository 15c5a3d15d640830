"""bleu_impl.resample against sacrebleu 2.x's own significance tests, run live.

The expected numbers come from sacrebleu's command line (``--paired-bs``, ``--paired-ar``,
``--confidence``, ``--format json``) on files written by the seeded generator
(bench/mtsystems.py): p-values equal exactly; means and half-widths agree to 1e-5 BLEU
points (sacrebleu sums the resampled statistics in float32 and, under NumPy >= 2, computes
the precisions in float32: ~1e-7 relative, i.e. ~4e-6 points at BLEU 40) and print the same
with two decimals.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bleu_impl
from bench.mtsystems import SystemSpec, generate, write
from bleu_impl import resample

sacrebleu = pytest.importorskip("sacrebleu")

SYSTEMS = [
    SystemSpec("base", 0.34),
    SystemSpec("close", 0.345),
    SystemSpec("tok", 0.33, "tokenized"),
    SystemSpec("worse", 0.37),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    out = {}
    for lang in ("de", "zh"):
        d = tmp_path_factory.mktemp(lang)
        streams, outputs = generate(lang, 400, SYSTEMS, refs=2, seed=7)
        paths = write(d, lang, streams, outputs)
        out[lang] = paths
    return out


def _sacrebleu(args: list[str]) -> object:
    cmd = [sys.executable, "-m", "sacrebleu", *args, "--format", "json", "-w", "2"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _ours(paths: list[Path], test: str) -> tuple[list[float], list[list[float]], list]:
    refs, systems = paths[:2], paths[2:]
    config = bleu_impl.get_profile("sacrebleu").resolve({}, "corpus")
    references = [list(r) for r in zip(*(_lines(p) for p in refs))]
    tables = [bleu_impl.segment_table(_lines(p), references, config) for p in systems]
    observed = [100 * bleu_impl.score_stats(t.total(), profile="sacrebleu").score for t in tables]
    samples = [
        [100 * bleu_impl.score_stats(s, profile="sacrebleu", config=config).score for s in stats]
        for stats in resample.bootstrap_stats(tables)
    ]
    return observed, samples, tables


def test_blocked_draws_are_numpys_choice() -> None:
    for segments in (1, 7, 2001, 4001):  # 4001: three blocks of draws
        want = np.random.default_rng(12345).choice(segments, size=(1000, segments))
        got = np.concatenate(list(resample.resample_indices(segments, 1000, 12345)))
        assert (got == want).all(), segments


def test_resampled_statistics_are_the_resampled_corpus() -> None:
    hyps = ["a b c d", "a b", "c d e", "e f g h i"]
    refs = [["a b c e"], ["a b"], ["c d"], ["e f g h"]]
    config = bleu_impl.get_profile("papineni2002").resolve({}, "corpus")
    table = bleu_impl.segment_table(hyps, refs, config)
    draws = next(resample.resample_indices(4, 5, 3))
    for row, stats in zip(draws, resample.bootstrap_stats([table], samples=5, seed=3)[0]):
        picked = bleu_impl.corpus_stats([hyps[i] for i in row], [refs[i] for i in row], config)
        assert (stats.counts, stats.totals, stats.hyp_len, stats.ref_len) == (
            picked.counts,
            picked.totals,
            picked.hyp_len,
            picked.ref_len,
        )


@pytest.mark.parametrize("lang", ["de", "zh"])
def test_paired_bootstrap_equals_sacrebleu(files: dict[str, list[Path]], lang: str) -> None:
    paths = files[lang]
    refs, systems = paths[:2], paths[2:]
    want = _sacrebleu([str(p) for p in refs] + ["-i", *map(str, systems), "--paired-bs"])
    observed, samples, _ = _ours(paths, "bs")
    nontrivial = 0
    for k, row in enumerate(want):
        result = row["BLEU"]
        assert result["score"] == pytest.approx(observed[k], abs=1e-9)
        interval = bleu_impl.bootstrap_interval(samples[k])
        assert interval.mean == pytest.approx(result["mean"], abs=1e-5)
        assert interval.half == pytest.approx(result["ci"], abs=1e-5)
        assert (
            f"{interval.mean:.2f} {interval.half:.2f}" == f"{result['mean']:.2f} {result['ci']:.2f}"
        )
        if k:
            p = resample.paired_bootstrap_p((observed[0], observed[k]), samples[0], samples[k])
            assert p == result["p_value"], (row["system"], p, result["p_value"])
            nontrivial += p > 0.01
    assert nontrivial, "the corpus should give at least one non-trivial p-value"


def test_approximate_randomization_equals_sacrebleu(files: dict[str, list[Path]]) -> None:
    paths = files["de"]
    refs, systems = paths[:2], paths[2:4]
    want = _sacrebleu(
        [str(p) for p in refs] + ["-i", *map(str, systems), "--paired-ar", "--paired-ar-n", "2000"]
    )
    observed, _, tables = _ours(paths, "ar")
    config = bleu_impl.get_profile("sacrebleu").resolve({}, "corpus")
    first, second = resample.randomization_stats(tables[0], tables[1], trials=2000)

    def score(stats: list) -> list[float]:
        return [
            100 * bleu_impl.score_stats(s, profile="sacrebleu", config=config).score for s in stats
        ]

    p = resample.randomization_p((observed[0], observed[1]), score(first), score(second))
    assert p == want[1]["BLEU"]["p_value"]


def test_score_confidence_equals_sacrebleu(files: dict[str, list[Path]]) -> None:
    from conformance.cli import main

    ref, hyp = files["de"][0], files["de"][3]
    want = _sacrebleu([str(ref), "-i", str(hyp), "--confidence"])
    assert isinstance(want, dict)
    command = [sys.executable, "-m", "conformance.cli", "score", "-r", str(ref), "-i", str(hyp)]
    command += ["--profile", "sacrebleu", "--confidence", "-w", "2"]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    del main
    got = json.loads(out.stdout)
    assert got["confidence_mean"] == want["confidence_mean"]
    assert got["confidence"] == want["confidence"]


def test_the_matrix_is_built_once_and_read_only() -> None:
    """Per-segment reads (``row``, the corpus report's segment contributions) share one
    matrix: rebuilding it per row made 100,000 segments quadratic."""
    config = bleu_impl.get_profile("sacrebleu").resolve({}, "corpus")
    table = bleu_impl.segment_table(["a b c", "d e"], [["a b c"], ["d f"]], config)
    assert table.matrix() is table.matrix()
    with pytest.raises(ValueError):
        table.matrix()[0, 0] = 7
    assert table.row(1).counts == (1, 0, 0, 0)  # "d" matches; "d e" vs "d f" shares no bigram
