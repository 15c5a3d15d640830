"""Corpus statistics over a ``dask.bag`` of shards (``pip install bleu-conformance[dask]``).

A shard is ``(index, start, hypotheses, references)``: its position among the shards, the
index of its first segment (for error messages) and its parallel lists. Each shard becomes
one ``BleuStats`` on a worker; the client adds them in shard order, so the result equals
the single-process statistics exactly (``last`` included).

    import dask.bag as db
    from bleu_impl.dask_bag import bag_stats, shards
    bag = db.from_sequence(shards(hyps, refs, size=50_000), npartitions=8)
    stats = bag_stats(bag, config)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .inputs import Segment, read_chunks
from .knobs import Config
from .parallel import chunk_sum
from .stats import BleuStats

__all__ = ["Shard", "bag_stats", "merge", "shard_stats", "shards"]

Shard = tuple[int, int, list[Segment], list[list[Segment]]]


def shards(
    hypotheses: Iterable[Any], references: Iterable[Any], size: int = 50_000
) -> Iterator[Shard]:
    """Cut a corpus into validated shards of about ``size`` sentences (hyps + refs)."""
    for index, (start, hyps, refss) in enumerate(read_chunks(hypotheses, references, size)):
        yield index, start, hyps, refss


def shard_stats(shard: Shard, config: Config) -> tuple[int, BleuStats]:
    """``(shard index, summed statistics)`` of one shard."""
    index, start, hyps, refss = shard
    return index, chunk_sum(start, hyps, refss, config)


def merge(results: Iterable[tuple[int, BleuStats]], max_order: int) -> BleuStats:
    """Add shard statistics in shard order."""
    total = BleuStats.zero(max_order)
    for _, stats in sorted(results, key=lambda item: item[0]):
        total = total + stats
    return total


def bag_stats(bag: Any, config: Config, **compute_kwargs: Any) -> BleuStats:
    """Map a bag of shards to statistics on the workers and merge them on the client."""
    results = bag.map(shard_stats, config=config).compute(**compute_kwargs)
    return merge(results, config.max_order)
