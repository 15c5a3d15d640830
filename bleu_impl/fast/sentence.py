"""One segment's statistics on the fast path: pure Python, no numpy.

For a single segment numpy's fixed costs outweigh its speed, so the n-grams of all orders
are counted into one dict from ``zip``-built tuples (the same multisets as
``ngrams.clipped_matches``) and raw lines are tokenized by
:meth:`Pipeline.line <bleu_impl.tokenizers.Pipeline.line>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InputError
from ..inputs import check_nesting, references_of
from ..knobs import Config
from ..ngrams import finish_segment
from ..stats import BleuStats
from ..tokenizers import Pipeline, pipelines

__all__ = ["clipped_counts", "sentence_stats"]

try:  # the C helper behind Counter.update, without Counter's per-call overhead
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other Python implementations

    def _count_elements(mapping: dict[Any, int], iterable: Any) -> None:
        for item in iterable:
            mapping[item] = mapping.get(item, 0) + 1


_LAST: list[tuple[Config, tuple[Pipeline, Pipeline]]] = []  # the last config, its pipelines


def _pipelines(config: Config) -> tuple[Pipeline, Pipeline]:
    """The hypothesis and reference pipelines of ``config``, kept for the next call
    (usually the same config)."""
    if not _LAST or _LAST[0][0] is not config:
        _LAST[:] = [(config, pipelines(config))]
    return _LAST[0][1]


def _ngrams(tokens: Sequence[str], order: int) -> dict[tuple[str, ...], int]:
    """All n-grams of orders 1..order in one multiset (tuple length = order)."""
    counts: dict[tuple[str, ...], int] = {}
    _count_elements(counts, zip(tokens))
    for n in range(2, min(order, len(tokens)) + 1):
        _count_elements(counts, zip(*[tokens[i:] for i in range(n)]))
    return counts


def clipped_counts(hyp: Sequence[str], refs: Sequence[Sequence[str]], order: int) -> list[int]:
    """Clipped matches per order: sum over hypothesis n-grams of min(count, max_r count)."""
    counts = [0] * order
    hyp_counts = _ngrams(hyp, order)
    if len(refs) == 1:
        ref_counts = _ngrams(refs[0], order)
        for gram in hyp_counts.keys() & ref_counts.keys():
            h, r = hyp_counts[gram], ref_counts[gram]
            counts[len(gram) - 1] += h if h < r else r
        return counts
    per_ref = [_ngrams(ref, order) for ref in refs]
    shared = hyp_counts.keys() & set().union(*(c.keys() for c in per_ref))
    for gram in shared:
        h, r = hyp_counts[gram], max(c.get(gram, 0) for c in per_ref)
        counts[len(gram) - 1] += h if h < r else r
    return counts


def sentence_stats(hypothesis: Any, references: Any, config: Config) -> BleuStats:
    """The statistics of one segment, identical to ``corpus_stats([h], [refs], config)``
    for a config the fast path supports (``bleu_impl.fast.supports``)."""
    if hypothesis is None:
        raise InputError("segment 0: hypothesis is None")
    ref_list = references_of(references, 0)
    check_nesting(hypothesis, ref_list, 0)
    hyp_pipeline, ref_pipeline = _pipelines(config)
    line, generic = ref_pipeline.line, ref_pipeline.segment
    refs = [line(r) if type(r) is str else generic(r) for r in ref_list]
    line, generic = hyp_pipeline.line, hyp_pipeline.segment
    hyp = line(hypothesis) if type(hypothesis) is str else generic(hypothesis)
    counts = tuple(clipped_counts(hyp, refs, config.max_order))
    return finish_segment(hyp, refs, counts, config, 0)
