"""One reference set for every hypothesis (knob ``ref_scope="corpus"``), as fast-bleu does.

fast-bleu 0.0.90 (``BLEU(list_of_references).get_score(hypotheses)``,
``cpp_sources/sources/bleu.cpp``) scores each hypothesis against *all* references it was
given: clipping uses the maximum count of each n-gram over the whole reference pool, and the
closest reference length is chosen among the lengths of the whole pool. Segment i's own
references only contribute to the pool. The statistics of each hypothesis are otherwise the
reference path's (:func:`bleu_impl.ngrams.finish_segment`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from .errors import InputError
from .inputs import read_segments
from .joined import joined_clipped, joined_pool, raise_to
from .knobs import Config
from .ngrams import finish_segment, ngram_counts
from .stats import BleuStats
from .tokenizers import pipelines

__all__ = ["pool_lengths", "pooled_segment_stats"]


def pooled_segment_stats(
    hypotheses: Iterable[Any], references: Iterable[Any], config: Config
) -> Iterator[BleuStats]:
    """Each hypothesis's statistics against the pool of every reference (the whole input
    is read first: the pool needs the last segment's references)."""
    hyp_pipeline, ref_pipeline = pipelines(config)
    tokens, ref_tokens = hyp_pipeline.segment, ref_pipeline.segment
    hyps: list[tuple[str, ...]] = []
    pool: list[tuple[str, ...]] = []
    for hyp, refs in read_segments(hypotheses, references):
        hyps.append(tokens(hyp))
        pool.extend(ref_tokens(r) for r in refs)
    if not pool and hyps:
        raise InputError(
            "segment 0: no reference in the corpus (ref_scope='corpus')", "missing-reference"
        )
    lengths = pool_lengths([len(r) for r in pool], config.ref_length)
    joined = config.ngram_join != "none"
    if joined:  # the pool's maximum counts once, not once per hypothesis
        best_joined = joined_pool(pool, config.max_order, config.ngram_join)
    else:
        best = [_pool_max(pool, n) for n in range(1, config.max_order + 1)]
    for index, hyp in enumerate(hyps):
        if joined:
            counts = joined_clipped(hyp, best_joined, config.max_order, config.ngram_join)
        else:
            counts = tuple(
                sum(min(c, best[n - 1][g]) for g, c in ngram_counts(hyp, n).items())
                for n in range(1, config.max_order + 1)
            )
        yield finish_segment(hyp, pool, counts, config, index, lengths)


def pool_lengths(lengths: list[int], rule: str) -> list[int]:
    """The lengths the reference-length rule chooses from: each distinct length once, in
    order of first appearance, for the rules that depend only on that (closest, its
    first-listed and 9999 variants, shortest): O(distinct lengths) per hypothesis instead
    of O(pool); every length for the others (average, single)."""
    return lengths if rule in ("average", "single") else list(dict.fromkeys(lengths))


def _pool_max(pool: list[tuple[str, ...]], n: int) -> Counter[tuple[str, ...]]:
    best: Counter[tuple[str, ...]] = Counter()
    for ref in pool:
        raise_to(best, ngram_counts(ref, n))
    return best
