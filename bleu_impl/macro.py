"""Macro aggregation (knob ``aggregation="macro"``): the mean of every segment's score.

pytorch-ignite's ``Bleu(average="macro")`` (its default, ignite 0.5 ``metrics/nlp/bleu.py``)
and CodeXGLUE's ``bleuFromMaps`` average sentence BLEU over the segments instead of scoring
the summed statistics. The mean is not a function of the summed statistics, so
:class:`~bleu_impl.stats.BleuStats` built under such a config keep each segment's own
statistics in ``parts`` (concatenated by ``+``, so sharded and streamed statistics still
merge), and each part is scored under the same knobs with ``aggregation="corpus"``
(:func:`~bleu_impl.score.score_stats` scores each into a full result;
:func:`~bleu_impl.api.macro_result` gives the identical result with the parts scored by one
:class:`~bleu_impl.segment_scorer.SegmentScorer`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import Field, replace
from typing import Any, ClassVar, Protocol, TypeVar

from .errors import EmulatedFailure
from .knobs import Config
from .stats import BleuStats

__all__ = ["as_part", "macro_mean"]


class _Scored(Protocol):
    """A result dataclass with a score and a signature (:class:`~bleu_impl.score.BleuResult`,
    not imported: the score module imports this one)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # what ``replace`` needs

    @property
    def score(self) -> float: ...

    @property
    def signature(self) -> str: ...


_R = TypeVar("_R", bound=_Scored)


def as_part(stats: BleuStats, config: Config) -> BleuStats:
    """One segment's statistics, carrying themselves as the only part under macro
    aggregation (unchanged otherwise)."""
    if config.aggregation != "macro":
        return stats
    return replace(stats, parts=(stats,))


def macro_mean(
    stats: BleuStats,
    config: Config,
    score_one: Callable[[BleuStats, Config], _R],
    scores: Sequence[float] | None = None,
) -> _R:
    """``sum_s BLEU(s) / S`` over the parts of ``stats``, each scored by ``score_one``
    (``scores``: the parts' scores when already known, each equal to ``score_one(part,
    one).score`` with ``one`` = ``config`` under ``aggregation="corpus"``; the parts are then
    not read); the result (a :class:`~bleu_impl.score.BleuResult`) carries the summed
    statistics. No segment: an ``empty-corpus`` failure (ignite raises NotComputableError,
    CodeXGLUE divides by zero)."""
    one = replace(config, aggregation="corpus")
    if scores is None and stats.parts:
        scores = [score_one(part, one).score for part in stats.parts]
    if not scores:
        raise EmulatedFailure(
            "empty-corpus",
            "the mean of sentence scores needs at least one segment (aggregation='macro')",
        )
    mean = math.fsum(scores) / len(scores)
    summed = score_one(replace(stats, parts=None), one)
    return replace(
        summed,
        score=mean,
        config=config,
        signature=summed.signature.replace("|agg:corpus|", "|agg:macro|"),
        note=f"mean of {len(scores)} segment scores (aggregation='macro')",
    )
