"""Sentence BLEU of many segments in one call, each exactly as ``sentence_bleu`` scores it.

Data filtering, MBR decoding and reinforcement-learning rewards score thousands to millions
of single sentences. :func:`sentence_scores` counts them chunk by chunk on the fast path
(one tokenizer pass and one sort per chunk, :mod:`bleu_impl.fast`) and scores every segment
with one :class:`~bleu_impl.segment_scorer.SegmentScorer`, which remembers what repeats
across segments.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Literal, overload

from .api import iter_segment_stats
from .errors import BleuError
from .inputs import Segment, read_chunks, read_segments
from .knobs import Config
from .ngrams import needs_last
from .profiles import Profile, get_profile, resolve_cached
from .reflength import RefLength
from .score import BleuResult
from .segment_scorer import Row, SegmentScorer
from .stats import BleuStats, counted_stats

__all__ = ["sentence_scores"]


def _segment_stats(
    hypotheses: Iterable[Any], references: Iterable[Any], config: Config
) -> Iterator[BleuStats]:
    """Every segment's statistics, each equal to ``sentence_stats`` of that segment, read in
    chunks; an error is raised at the first segment the per-segment path would raise it."""
    for rows in _segment_rows(hypotheses, references, config):
        if isinstance(rows, BleuStats):
            yield rows
        else:
            for counts, totals, hyp_len, ref, missing in rows:
                yield counted_stats(counts, totals, hyp_len, ref, missing=missing)


def _segment_rows(
    hypotheses: Iterable[Any], references: Iterable[Any], config: Config
) -> Iterator[BleuStats | list[Row]]:
    """:func:`_segment_stats`, the fast path's chunks as rows (:data:`Row`)."""
    from . import fast
    from .fast.chunks import count_chunk

    if config.ref_scope == "corpus":  # a sentence's pool is its own references
        for hyp, refs in read_segments(hypotheses, references):
            yield from iter_segment_stats([hyp], [refs], config)
        return
    if not fast.supports(config) or needs_last(config):  # NLTK 5-7: every segment's own data
        yield from iter_segment_stats(hypotheses, references, config)
        return
    for start, hyps, refss in read_chunks(hypotheses, references):
        try:
            chunk = count_chunk(hyps, refss, config, start)
        except BleuError:  # one by one, so a failure before it comes first
            for offset, (hyp, refs) in enumerate(zip(hyps, refss)):
                yield fast.corpus_stats([hyp], [refs], config, first_index=start + offset)
            raise
        ref_len: list[RefLength] = (
            chunk.ref_len.tolist() if not isinstance(chunk.ref_len, list) else chunk.ref_len
        )
        counts = map(tuple, chunk.counts.tolist())
        totals = map(tuple, chunk.totals().tolist())
        missing = [int(not k) for k in chunk.ks]
        yield list(zip(counts, totals, chunk.hyp_len.tolist(), ref_len, missing))


@overload
def sentence_scores(
    hypotheses: Iterable[Segment],
    references: Iterable[Any],
    *,
    profile: str | Profile = ...,
    statistics: Literal[False] = ...,
    **knobs: Any,
) -> list[float]: ...


@overload
def sentence_scores(
    hypotheses: Iterable[Segment],
    references: Iterable[Any],
    *,
    profile: str | Profile = ...,
    statistics: Literal[True],
    **knobs: Any,
) -> list[BleuResult]: ...


def sentence_scores(
    hypotheses: Iterable[Segment],
    references: Iterable[Any],
    *,
    profile: str | Profile = "papineni2002",
    statistics: bool = False,
    **knobs: Any,
) -> list[float] | list[BleuResult]:
    """Sentence BLEU of every segment: ``references[i]`` is the list of references of
    ``hypotheses[i]`` (as in ``corpus_bleu``; both must have the same length).

    Returns ``[sentence_bleu(h, r, profile=profile, **knobs).score for h, r in ...]``, or
    with ``statistics=True`` the :class:`BleuResult` of each, identical to that loop (and
    raising the same error, naming its segment, where the loop would first raise one).
    """
    from .fast.corpus_sums import gc_paused  # numpy is imported on first use

    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    config = resolve_cached(prof, knobs, "sentence")
    scorer = SegmentScorer(prof, config)
    with gc_paused():  # millions of small acyclic objects: generation scans would dominate
        if statistics:
            return [scorer.result(s) for s in _segment_stats(hypotheses, references, config)]
        scores: list[float] = []
        for rows in _segment_rows(hypotheses, references, config):
            if isinstance(rows, BleuStats):
                scores.append(scorer.score(rows))
            else:
                scores.extend(scorer.scores(rows))
        return scores
