"""Corpus statistics over a ``dask.bag`` of shards (``pip install bleu-conformance[dask]``).

A shard is ``(index, start, hypotheses, references)``: its position among the shards, the
index of its first segment (for error messages) and its parallel lists. Each shard becomes
one ``BleuStats`` on a worker; the client adds them in shard order, so the result equals
the single-process statistics exactly (``last`` and macro aggregation's per-segment parts
included). A configuration whose statistics are not sums over segments is refused
(:func:`unshardable`): ``ref_scope="corpus"`` (fast-bleu) scores every hypothesis against
every reference of the corpus, which no shard holds.

    import dask.bag as db
    from bleu_impl.dask_bag import bag_stats, shards
    bag = db.from_sequence(shards(hyps, refs, size=50_000), npartitions=8)
    stats = bag_stats(bag, config)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .errors import KnobError
from .inputs import Segment, read_chunks
from .knobs import Config
from .parallel import chunk_sum
from .stats import BleuStats

__all__ = ["Shard", "bag_stats", "merge", "shard_stats", "shards", "unshardable"]

Shard = tuple[int, int, list[Segment], list[list[Segment]]]


def shards(
    hypotheses: Iterable[Any], references: Iterable[Any], size: int = 50_000
) -> Iterator[Shard]:
    """Cut a corpus into validated shards of about ``size`` sentences (hyps + refs)."""
    for index, (start, hyps, refss) in enumerate(read_chunks(hypotheses, references, size)):
        yield index, start, hyps, refss


def unshardable(config: Config) -> str | None:
    """Why ``config``'s corpus statistics are not the sum of its shards', or None."""
    if config.ref_scope != "segment":
        return (
            f"ref_scope={config.ref_scope!r} (fast-bleu) pools every reference of the corpus, "
            "and a shard holds only its own: score it in one process (corpus_stats)"
        )
    return None


def _check(config: Config) -> None:
    why = unshardable(config)
    if why is not None:
        raise KnobError(f"cannot shard these statistics over Dask: {why}")


def shard_stats(shard: Shard, config: Config) -> tuple[int, BleuStats]:
    """``(shard index, summed statistics)`` of one shard (KnobError: :func:`unshardable`)."""
    _check(config)
    index, start, hyps, refss = shard
    return index, chunk_sum(start, hyps, refss, config)


def merge(results: Iterable[tuple[int, BleuStats]], max_order: int) -> BleuStats:
    """Add shard statistics in shard order."""
    total = BleuStats.zero(max_order)
    for _, stats in sorted(results, key=lambda item: item[0]):
        total = total + stats
    return total


def bag_stats(bag: Any, config: Config, **compute_kwargs: Any) -> BleuStats:
    """Map a bag of shards to statistics on the workers and merge them on the client
    (KnobError, before any work, for a configuration that is :func:`unshardable`)."""
    _check(config)
    results = bag.map(shard_stats, config=config).compute(**compute_kwargs)
    return merge(results, config.max_order)
