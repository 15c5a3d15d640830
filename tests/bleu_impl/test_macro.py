"""``macro_result`` (every part of a macro mean scored by one SegmentScorer) gives exactly
``score_stats``'s result and errors, and ``segment_scores`` exactly ``score_value`` per row."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pytest

from bleu_impl import (
    BleuError,
    BleuStats,
    corpus_stats,
    get_profile,
    make_config,
    score_stats,
    segment_table,
)
from bleu_impl.bulk import macro_result, score_value
from bleu_impl.resample import segment_scores

from .randomcorpus import random_corpus

NATIVE = [
    ("ignite", {}),
    ("ignite", {"smoothing": "floor"}),
    ("ignite", {"smoothing": "add-k", "denominator_floor": "none"}),
    ("codexglue", {}),
    ("fast-bleu", {}),
    ("fast-bleu", {"smoothing": "none"}),
]
#: Other profiles' settings under macro aggregation (the generic profile can have them).
GENERIC = [
    ("nltk", {"smoothing": "nltk-method4"}),
    ("nltk", {"smoothing": "nltk-method7"}),
    ("nltk-3.2.2", {}),
    ("sacrebleu", {}),
    ("mteval-v13a", {}),
    ("torchmetrics", {}),
    ("coco", {}),
    ("papineni2002", {"ref_length": "average"}),
]
SETTINGS = [(name, get_profile(name).resolve(knobs, "corpus")) for name, knobs in NATIVE] + [
    (
        "papineni2002",
        make_config({**get_profile(name).resolve(knobs).as_dict(), "aggregation": "macro"}),
    )
    for name, knobs in GENERIC
]


def _outcome(compute):
    try:
        return compute()
    except BleuError as exc:
        return f"{type(exc).__name__}: {exc}"


def _same_scores(stats, prof, config) -> None:
    expected = _outcome(partial(score_stats, stats, profile=prof, config=config))
    assert _outcome(partial(macro_result, stats, profile=prof, config=config)) == expected


def _row_scores(table, prof, config) -> list[float]:
    one = replace(config, aggregation="corpus")
    return [score_value(r, profile=prof, config=one) for r in table.rows()]


@pytest.mark.parametrize(("profile", "config"), SETTINGS)
def test_macro_result_equals_score_stats(profile, config) -> None:
    prof = get_profile(profile)
    for seed in range(4):
        hyps, refs = random_corpus(seed + 60, max_refs=3)
        _same_scores(corpus_stats(hyps, refs, config), prof, config)
        table = segment_table(hyps, refs, config)
        assert _outcome(partial(segment_scores, table, config, prof)) == _outcome(
            partial(_row_scores, table, prof, config)
        )


def test_errors_of_parts_and_of_an_empty_corpus() -> None:
    prof = get_profile("papineni2002")
    config = make_config(
        {**get_profile("mteval-v13a").resolve({}).as_dict(), "aggregation": "macro"}
    )
    for hyps, refs in [([], []), (["a b", ""], [["a b"], ["x"]]), (["a"], [[""]])]:
        stats = corpus_stats(hyps, refs, config)
        assert isinstance(_outcome(partial(score_stats, stats, profile=prof, config=config)), str)
        _same_scores(stats, prof, config)


def test_mismatched_orders_and_corpus_aggregation_go_to_score_stats() -> None:
    config = get_profile("ignite").resolve({}, "corpus")
    stats = BleuStats((1, 0), (2, 1), 2, 2)
    assert "2 orders but the config needs 4" in str(
        _outcome(partial(score_stats, stats, profile="ignite", config=config))
    )
    _same_scores(stats, get_profile("ignite"), config)
    plain = get_profile("sacrebleu").resolve({}, "corpus")
    _same_scores(corpus_stats(["a b c"], [["a b d"]], plain), get_profile("sacrebleu"), plain)
