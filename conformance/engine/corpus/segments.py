"""Where the difference between two implementations comes from: the segments whose counts
move the corpus score most.

For a system scored by implementations A and B (each reproduced by a bleu_impl setting),
segment i's contribution is what replacing its statistics as A counts them by B's does to
A's corpus score: ``BLEU_A(T_A - a_i + b_i) - BLEU_A(T_A)`` (T_A: A's corpus statistics,
scored with A's setting). Segments are listed by the size of that change, with their text
and both tokenizations, so a user sees what the counts differ on (punctuation attached to
words, case, a tokenizer that splits no CJK...). The contributions do not add up exactly
to the corpus difference (BLEU is not linear in the counts, and scoring-only knobs move no
counts); the report says how much of it they account for, and splits the difference into
what is counted and how it is scored (:func:`count_change`): B's statistics of every
segment scored as A scores, minus A's score, is the part of counting (tokenization,
lowercasing, reference handling); the rest comes from scoring the same counts (smoothing,
brevity penalty, a mean of sentence scores instead of corpus BLEU...).
"""

from __future__ import annotations

from typing import Any

from bleu_impl import BleuError, BleuStats, Pipeline, score_stats

from ...cases import Case
from ...results.records import SegmentRow
from .paths import Reproduction
from .tables import TableCache

__all__ = ["contributions", "count_change"]


def _swap(total: BleuStats, out: BleuStats, into: BleuStats) -> BleuStats:
    return BleuStats(
        tuple(t - a + b for t, a, b in zip(total.counts, out.counts, into.counts)),
        tuple(t - a + b for t, a, b in zip(total.totals, out.totals, into.totals)),
        total.hyp_len - out.hyp_len + into.hyp_len,
        total.ref_len - out.ref_len + into.ref_len,
        total.segments,
        total.last,
    )


def _tokens(pipeline: Pipeline, text: Any) -> tuple[str, ...]:
    try:
        return tuple(pipeline.segment(text))
    except BleuError:
        return ()


def contributions(
    cache: TableCache, system: int, a: Reproduction, b: Reproduction, top: int
) -> tuple[list[SegmentRow], float]:
    """The ``top`` segments by |contribution| and the sum of all contributions (0-100)."""
    assert a.config is not None and b.config is not None
    table_a, table_b = cache.table(system, a.config), cache.table(system, b.config)
    if table_a.max_order != table_b.max_order:
        raise BleuError("the two settings count different n-gram orders")
    total = table_a.total()
    base = score_stats(total, profile=a.profile, config=a.config).score
    rows_a, rows_b = table_a.matrix(), table_b.matrix()
    changed = [i for i in range(table_a.segments) if (rows_a[i] != rows_b[i]).any()]
    deltas: list[tuple[float, int]] = []
    for i in changed:
        swapped = _swap(total, table_a.row(i), table_b.row(i))
        try:
            score = score_stats(swapped, profile=a.profile, config=a.config).score
        except BleuError:
            continue
        deltas.append((100 * (score - base), i))
    deltas.sort(key=lambda d: (-abs(d[0]), d[1]))
    case: Case = cache.cases[system]
    pipe_a, pipe_b = Pipeline(a.config), Pipeline(b.config)
    ref_a, ref_b = Pipeline(a.config, "reference"), Pipeline(b.config, "reference")
    rows = []
    for delta, i in deltas[:top]:
        hyp = case.hypotheses[i]
        ref = next((r for r in case.references[i] if r is not None), "")
        rows.append(
            SegmentRow(
                i + 1,
                delta,
                str(hyp),
                tuple(str(r) for r in case.references[i]),
                table_a.row(i).to_dict(),
                table_b.row(i).to_dict(),
                _tokens(pipe_a, hyp),
                _tokens(pipe_b, hyp),
                _tokens(ref_a, ref),
                _tokens(ref_b, ref),
            )
        )
    return rows, sum(d for d, _ in deltas)


def count_change(cache: TableCache, system: int, a: Reproduction, b: Reproduction) -> float:
    """A's score of B's statistics of every segment minus A's score (BLEU 0-100): how much
    of the difference comes from what B counts; the rest is how B scores the counts."""
    assert a.config is not None and b.config is not None
    table_a, table_b = cache.table(system, a.config), cache.table(system, b.config)
    if table_a.max_order != table_b.max_order:
        raise BleuError("the two settings count different n-gram orders")
    base = score_stats(table_a.total(), profile=a.profile, config=a.config).score
    return 100 * (score_stats(table_b.total(), profile=a.profile, config=a.config).score - base)
