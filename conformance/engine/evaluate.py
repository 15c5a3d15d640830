"""bleu_impl on one case under many configurations, statistics reused across them.

Attribution and identification score the same input under hundreds of knob settings;
statistics depend only on :data:`STATS_KNOBS`, so they are counted once per distinct value
of those and every other knob only re-runs the scoring.
"""

from __future__ import annotations

from typing import Any

from bleu_impl import (
    STATS_KNOBS,
    BleuError,
    BleuResult,
    Config,
    EmulatedFailure,
    corpus_stats,
    score_stats,
)

from ..cases import Case
from .asking import Outcome

__all__ = ["Evaluator", "outcome_of"]


def outcome_of(error: BleuError) -> Outcome:
    """The outcome of bleu_impl raising: the emulated failure's kind, else the error type."""
    if isinstance(error, EmulatedFailure):
        return Outcome(failure=error.kind)
    return Outcome(failure=type(error).__name__)


class Evaluator:
    """Scores one case's input under many configs, reusing statistics across them."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.level = case.level
        self._hypotheses = list(case.hypotheses)
        self._references = [list(r) for r in case.references]
        self._stats: dict[tuple[Any, ...], Any] = {}

    def outcome(
        self, config: Config, profile: str = "papineni2002"
    ) -> tuple[Outcome, BleuResult | None]:
        """bleu_impl's outcome under ``config`` (``profile`` names its emulated failures)."""
        key = tuple(getattr(config, k) for k in STATS_KNOBS)
        stats = self._stats.get(key)
        if stats is None:
            try:
                stats = corpus_stats(self._hypotheses, self._references, config)
            except BleuError as exc:
                stats = exc
            self._stats[key] = stats
        if isinstance(stats, BleuError):
            return outcome_of(stats), None
        try:
            result = score_stats(stats, profile=profile, config=config)
        except BleuError as exc:
            return outcome_of(exc), None
        return Outcome(score=result.score), result
