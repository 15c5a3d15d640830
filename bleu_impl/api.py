"""The public entry points: corpus and sentence BLEU, and the statistics behind them.

Statistics come from the fast path (:mod:`bleu_impl.fast`) whenever it supports the config,
else from the readable reference path (:func:`iter_segment_stats`: the tokenizing pipeline,
then ``ngrams.segment_stats`` per segment); both give identical statistics and errors.
A macro mean's parts are scored by one :class:`~bleu_impl.segment_scorer.SegmentScorer`
(:func:`macro_result`), which remembers what repeats across the parts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from .inputs import CUT_SCOPES, Segment, cut_references, read_segments
from .knobs import Config
from .macro import macro_mean
from .ngrams import segment_stats
from .profiles import Profile, get_profile, resolve_cached
from .score import BleuResult, score_stats
from .segment_scorer import SegmentScorer, scorer_for
from .stats import BleuStats
from .tokenizers import pipelines

__all__ = [
    "Segment",
    "corpus_bleu",
    "corpus_stats",
    "iter_segment_stats",
    "macro_result",
    "sentence_bleu",
    "sentence_stats",
]


def iter_segment_stats(
    hypotheses: Iterable[Segment], references: Iterable[Any], config: Config
) -> Iterator[BleuStats]:
    """Yield the statistics of each segment (the reference path; lazily, so memory stays
    bounded, except with ``ref_scope`` ``corpus`` or ``fewest``, which need every reference
    first)."""
    if config.ref_scope == "corpus":
        from .ref_pool import pooled_segment_stats

        yield from pooled_segment_stats(hypotheses, references, config)
        return
    if config.ref_scope in CUT_SCOPES:
        hypotheses, references = cut_references(hypotheses, references, config.ref_scope)
    hyp_pipeline, ref_pipeline = pipelines(config)
    hyp_tokens, ref_tokens = hyp_pipeline.segment, ref_pipeline.segment
    for index, (hyp, refs) in enumerate(read_segments(hypotheses, references)):
        refs_tokens = [ref_tokens(r) for r in refs]
        yield segment_stats(hyp_tokens(hyp), refs_tokens, config, index=index)


def corpus_stats(
    hypotheses: Iterable[Segment],
    references: Iterable[Any],
    config: Config | None = None,
    *,
    profile: str | Profile | None = None,
    **knobs: Any,
) -> BleuStats:
    """The summed statistics of a corpus (streaming: bounded memory) under ``config``, or
    under ``profile`` (default papineni2002) and ``knobs`` at corpus level; additive, and
    scored by :func:`score_stats`.

    >>> import bleu_impl
    >>> stats = bleu_impl.corpus_stats(["the cat sat"], [["the cat sat down"]], profile="sacrebleu")
    >>> stats.counts, stats.totals, stats.hyp_len, stats.ref_len
    ((3, 2, 1, 0), (3, 2, 1, 0), 3, 4)
    >>> print(bleu_impl.score_stats(stats, profile="sacrebleu"))
    BLEU = 0.00 100.0/100.0/100.0/0.0 (BP = 0.717 ratio = 0.750 hyp_len = 3 ref_len = 4)
    """
    from . import fast  # numpy is imported on first use, not with bleu_impl

    if config is None:
        prof = (
            get_profile(profile or "papineni2002") if not isinstance(profile, Profile) else profile
        )
        config = resolve_cached(prof, knobs, "corpus")
    elif profile is not None or knobs:
        raise TypeError("corpus_stats takes a config, or a profile and knobs, not both")

    if fast.supports_corpus(config):
        return fast.corpus_stats(hypotheses, references, config)
    total = BleuStats.zero(config.max_order)
    for stats in iter_segment_stats(hypotheses, references, config):
        total = total + stats
    return total


def sentence_stats(hypothesis: Segment, references: Any, config: Config) -> BleuStats:
    """The statistics of one segment, identical to ``corpus_stats([hypothesis],
    [references], config)``."""
    from . import fast

    if fast.supports(config):
        return fast.sentence_stats(hypothesis, references, config)
    return corpus_stats([hypothesis], [references], config)


def macro_result(
    stats: BleuStats,
    *,
    profile: str | Profile,
    config: Config,
    scores: Sequence[float] | None = None,
) -> BleuResult:
    """``score_stats(stats, profile=profile, config=config)``, the same result and errors,
    with the parts of a macro mean scored by one :class:`SegmentScorer` (``scores``: the
    parts' scores when already known, e.g. :func:`~bleu_impl.resample.segment_scores` of a
    table; ``stats`` then need not carry its parts)."""
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    if config.aggregation != "macro" or stats.max_order != config.max_order:
        return score_stats(stats, profile=prof, config=config)
    if scores is None and stats.parts:
        scores = list(
            map(SegmentScorer(prof, replace(config, aggregation="corpus")).score, stats.parts)
        )
    return macro_mean(
        stats, config, lambda part, one: score_stats(part, profile=prof, config=one), scores
    )


def corpus_bleu(
    hypotheses: Iterable[Segment],
    references: Iterable[Any],
    *,
    profile: str | Profile = "papineni2002",
    **knobs: Any,
) -> BleuResult:
    """Corpus BLEU: ``references[i]`` is the list of references of ``hypotheses[i]``.

    Segments are str (tokenized by the ``tokenize`` knob) or token sequences (taken as given).
    Scored as ``score_stats`` scores the statistics (:func:`macro_result`).
    """
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    config = prof.resolve(knobs, "corpus")
    return macro_result(corpus_stats(hypotheses, references, config), profile=prof, config=config)


def sentence_bleu(
    hypothesis: Segment,
    references: Sequence[Segment],
    *,
    profile: str | Profile = "papineni2002",
    **knobs: Any,
) -> BleuResult:
    """Sentence BLEU: the corpus formula on one segment, with the profile's sentence defaults."""
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    config = resolve_cached(prof, knobs, "sentence")
    stats = sentence_stats(hypothesis, references, config)
    return scorer_for(prof, config).result(stats)  # = score_stats(stats, ...), remembered
