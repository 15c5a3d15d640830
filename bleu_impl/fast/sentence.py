"""One segment's statistics on the fast path: pure Python, no numpy.

For a single segment numpy's fixed costs outweigh its speed. Where the compiled kernel takes
the segment (raw lines throughout, one pipeline for both roles, splitting last, as
:func:`~bleu_impl.fast.count.text_stats` takes a chunk) it tokenizes (13a), splits and counts
them in one call; else the n-grams of all orders are counted into one dict from
``zip``-built tuples (the same multisets as ``ngrams.clipped_matches``) and raw lines are
tokenized by :meth:`Pipeline.line <bleu_impl.tokenizers.Pipeline.line>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InputError
from ..inputs import check_nesting, references_of
from ..knobs import Config
from ..ngrams import counted_segment, finish_segment, needs_last
from ..stats import BleuStats
from ..tokenizers import Pipeline, pipelines
from .kernel import has_kernel, kernel_segment_counts

__all__ = ["clipped_counts", "sentence_stats"]

try:  # the C helper behind Counter.update, without Counter's per-call overhead
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other Python implementations

    def _count_elements(mapping: dict[Any, int], iterable: Any) -> None:
        for item in iterable:
            mapping[item] = mapping.get(item, 0) + 1


#: The last config, its pipelines and whether the kernel counts its raw lines (and runs 13a).
_LAST: list[tuple[Config, tuple[Pipeline, Pipeline], tuple[bool, bool]]] = []


def _pipelines(config: Config) -> tuple[tuple[Pipeline, Pipeline], tuple[bool, bool]]:
    """The hypothesis and reference pipelines of ``config`` and (kernel, raw 13a), kept for
    the next call (usually the same config)."""
    if not _LAST or _LAST[0][0] is not config:
        hyp, ref = pipelines(config)
        kernel = has_kernel() and hyp is ref and hyp.splits_last and not needs_last(config)
        raw = config.tokenize == "13a" and hyp.stage != "after-entities"
        _LAST[:] = [(config, (hyp, ref), (kernel, raw))]
    return _LAST[0][1], _LAST[0][2]


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
    (hyp_pipeline, ref_pipeline), (kernel, raw) = _pipelines(config)
    if kernel and ref_list and type(hypothesis) is str:
        stats = _kernel_stats(hypothesis, ref_list, config, hyp_pipeline, raw)
        if stats is not None:
            return stats
    line, generic = ref_pipeline.line, ref_pipeline.segment
    refs = [line(r) if type(r) is str else generic(r) for r in ref_list]
    line, generic = hyp_pipeline.line, hyp_pipeline.segment
    hyp = line(hypothesis) if type(hypothesis) is str else generic(hypothesis)
    counts = tuple(clipped_counts(hyp, refs, config.max_order))
    return finish_segment(hyp, refs, counts, config, 0)


def _kernel_stats(
    hypothesis: str, refs: list[Any], config: Config, pipeline: Pipeline, raw: bool
) -> BleuStats | None:
    """The segment's statistics counted by the kernel; None where it does not take them
    (a token-list reference, a too long segment)."""
    if not all(type(r) is str for r in refs):
        return None
    texts = pipeline.prepared([hypothesis, *refs])
    counted = kernel_segment_counts(
        texts if raw else pipeline.unsplit(texts),
        config.max_order,
        config.split,
        tokenize_13a=raw,
    )
    if counted is None:
        return None
    counts, lens = counted
    return counted_segment(counts, lens[0], lens[1:], config, 0)
