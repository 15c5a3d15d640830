"""mteval's --international-tokenization and cumulative BLEU-1..3 lines, replayed from the real
scripts' outputs (fixtures/mteval-v13a/perl-options.yaml, tools/fixtures/record_mteval_options.py).
Each variant's profile reproduces every recorded case; sacrebleu's ``intl`` (no entity decoding,
no <skipped> removal, str.lower) misses the cases that show the script's own steps."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

import bleu_impl
from bleu_impl import BleuError

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "mteval-v13a" / "perl-options.yaml"
CASES = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))["cases"]
#: expectation key -> (profile, knobs), as fixtures/implementations.yaml maps them
KEYS = {
    "mteval-v13a": ("mteval-v13a", {}),
    "mteval-v13a-nosmooth": ("mteval-v13a", {"smoothing": "none"}),
    "mteval-v14": ("mteval-v14", {}),
    "mteval-v14-c": ("mteval-v14", {"lowercase": False}),
}


def _score(case: dict, profile: str, knobs: dict) -> float | None:
    segments = case["input"]["segments"]
    hyps = [s["hypothesis"] for s in segments]
    refs = [s["references"] for s in segments]
    try:
        return bleu_impl.corpus_bleu(hyps, refs, profile=profile, **knobs).score
    except BleuError:
        return None


def _agrees(case: dict, key: str, **change) -> bool:
    profile, knobs = KEYS[key]
    got = _score(case, profile, {**knobs, **case["config"], **change})
    want = case["expected"][key]
    if "error" in want:
        return got is None
    return got is not None and math.isclose(got, want["score"], rel_tol=1e-12, abs_tol=1e-300)


@pytest.mark.parametrize("key", list(KEYS))
def test_every_recorded_case_is_reproduced(key: str) -> None:
    assert len(CASES) >= 200
    assert [c["id"] for c in CASES if not _agrees(c, key)] == []


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("entities", {"tokenize": "intl"}),
        ("skipped", {"tokenize": "intl"}),
        ("final-sigma", {"lowercase": "unicode"}),
    ],
)
def test_sacrebleus_intl_is_not_the_scripts(name: str, change: dict) -> None:
    case = next(c for c in CASES if c["id"] == f"mteval.options.{name}.tokenize-mteval-intl")
    assert _agrees(case, "mteval-v14")
    knobs = bleu_impl.get_profile("mteval-v14").resolve(case["config"]).as_dict()
    got = _score(case, "papineni2002", {**knobs, **change})
    assert got is not None and not math.isclose(got, case["expected"]["mteval-v14"]["score"])


def test_cumulative_columns_differ_from_the_score() -> None:
    """Column n of the cumulative line is max_order=n, not the 4-gram score."""
    cases = [c for c in CASES if c["config"].get("max_order") == 2]
    assert cases and all(_agrees(c, "mteval-v13a") for c in cases)
    assert not all(_agrees(c, "mteval-v13a", max_order=4) for c in cases)
