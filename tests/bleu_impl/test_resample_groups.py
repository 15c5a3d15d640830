"""Resampling many tables in groups (bounded memory) gives the statistics of one stacked
product: the same draws for every group; a row read alone equals the row of the table."""

from __future__ import annotations

import pytest

import bleu_impl.resample as resample
from bleu_impl import get_profile, segment_table
from bleu_impl.resample import bootstrap_stats

from .randomcorpus import random_corpus


def _tables():
    hyps, refs = random_corpus(12, segments=80, max_refs=3)
    others = [random_corpus(seed, segments=80, max_refs=3)[0] for seed in (13, 14)]
    configs = [get_profile(p).resolve({}, "corpus") for p in ("sacrebleu", "nltk", "coco")]
    return [segment_table(h, refs, c) for h in (hyps, *others) for c in configs]


@pytest.mark.parametrize("entries", [1, 900, 2_000])  # a table: 80 x 10 entries
def test_groups_give_the_stacked_statistics(entries, monkeypatch) -> None:
    tables = _tables()
    expected = bootstrap_stats(tables, samples=30, seed=5)
    monkeypatch.setattr(resample, "STACK_ENTRIES", entries)
    assert bootstrap_stats(tables, samples=30, seed=5) == expected


def test_a_row_alone_equals_the_row_among_all() -> None:
    for table in _tables()[:3]:
        rows = table.rows()
        assert [table.row(i) for i in range(table.segments)] == rows
