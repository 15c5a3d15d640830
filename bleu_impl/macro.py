"""Macro means scored fast: every segment's score by one :class:`SegmentScorer`.

``score_stats`` scores each part of a macro mean (``aggregation="macro"``,
:mod:`bleu_impl.aggregate`) into a full :class:`~bleu_impl.score.BleuResult`, signature
included, and reads only its score. :func:`macro_result` gives the identical result with the
parts scored by :meth:`SegmentScorer.score <bleu_impl.segment_scorer.SegmentScorer.score>`
(equal to ``score_stats(part, ...).score``, remembering each order's precision and the
precision factor across the parts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .aggregate import macro_mean
from .knobs import Config
from .profiles import Profile, get_profile
from .score import BleuResult, score_stats
from .segment_scorer import SegmentScorer
from .stats import BleuStats

__all__ = ["macro_result"]


def macro_result(
    stats: BleuStats,
    *,
    profile: str | Profile,
    config: Config,
    scores: Sequence[float] | None = None,
) -> BleuResult:
    """``score_stats(stats, profile=profile, config=config)``, the same result and errors,
    with the parts of a macro mean scored by one :class:`SegmentScorer` (``scores``: the
    parts' scores when already known, e.g. :func:`~bleu_impl.segment_scores` of a table;
    ``stats`` then need not carry its parts)."""
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
