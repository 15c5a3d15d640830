"""bleu_impl on one case under many configurations, statistics reused across them.

Attribution and identification score the same input under hundreds of knob settings.
:class:`~bleu_impl.StatsCache` tokenizes the input once per tokenization, counts its clipped
n-grams once, and builds statistics once per distinct value of :data:`STATS_KNOBS`; every
other knob only re-runs the scoring, and an outcome is remembered per (config, profile).
:meth:`Evaluator.predict` serves a search over many cases and settings: an outcome per
config whatever the profile, scored by a :class:`~bleu_impl.ScorerPool` shared by every
case (:func:`scorer_pool`), and remembered per statistics and scorer.
"""

from __future__ import annotations

from bleu_impl import (
    BleuError,
    BleuResult,
    BleuStats,
    Config,
    EmulatedFailure,
    ScorerPool,
    SegmentScorer,
    StatsCache,
    get_profile,
    score_stats,
    scoring_key,
)

from ..cases import Case
from .asking import Outcome

__all__ = ["Evaluator", "outcome_of", "scorer_pool", "scoring_key"]


def scorer_pool() -> ScorerPool:
    """Scorers to share among the evaluators of many cases. A profile changes only the
    messages of its emulated failures and the signature, never a score or a failure's
    kind (what an :class:`Outcome` holds), so the scorers are the generic profile's."""
    return ScorerPool(get_profile("papineni2002"))


def outcome_of(error: BleuError) -> Outcome:
    """The outcome of bleu_impl raising: the emulated failure's kind, else the error type."""
    if isinstance(error, EmulatedFailure):
        return Outcome(failure=error.kind)
    return Outcome(failure=type(error).__name__)


class Evaluator:
    """Scores one case's input under many configs, reusing statistics across them.

    A subclass may supply the statistics another way by overriding :meth:`stats` (
    :meth:`outcome`, :meth:`score` and :meth:`predict` read them); one that overrides
    :meth:`outcome` itself is asked through it by :meth:`score` and :meth:`predict` too,
    without the shortcuts."""

    def __init__(self, case: Case, scorers: ScorerPool | None = None) -> None:
        self.case = case
        self.level = case.level
        self._cache: StatsCache | None = None  # built on first use
        self._outcomes: dict[tuple[Config, str], tuple[Outcome, BleuResult | None]] = {}
        self._scorers = scorers
        self._predicted: dict[int, tuple[Config, Outcome]] = {}  # by id: entries keep it
        # by id(stats), id(scorer); each entry keeps both alive, so their ids hold
        self._scored: dict[tuple[int, int], tuple[BleuStats, SegmentScorer, Outcome]] = {}

    def outcome(
        self, config: Config, profile: str = "papineni2002"
    ) -> tuple[Outcome, BleuResult | None]:
        """bleu_impl's outcome under ``config`` (``profile`` names its emulated failures)."""
        key = (config, profile)
        try:
            return self._outcomes[key]
        except KeyError:
            pass
        except TypeError:  # an unhashable knob value: compute without remembering
            return self._evaluate(config, profile)
        found = self._outcomes[key] = self._evaluate(config, profile)
        return found

    def score(self, config: Config, profile: str = "papineni2002") -> Outcome:
        """``outcome(config, profile)[0]``, cheaper across many configs: :meth:`predict`,
        with scorers of this evaluator's own when none are shared."""
        if type(self).outcome is not Evaluator.outcome:  # scored its own way: ask it
            return self.outcome(config, profile)[0]
        if self._scorers is None:
            self._scorers = scorer_pool()
        return self.predict(config)

    def predict(self, config: Config) -> Outcome:
        """``outcome(config, profile)[0]`` for any profile (the profile changes no score
        and no failure kind), remembered per config object and per (statistics, scorer),
        scored by the shared scorers (without them, or for an unhashable config:
        :meth:`outcome`)."""
        if self._scorers is None or type(self).outcome is not Evaluator.outcome:
            return self.outcome(config)[0]
        remembered = self._predicted.get(id(config))
        if remembered is not None and remembered[0] is config:
            return remembered[1]
        try:
            hash(config)
        except TypeError:  # an unhashable knob value
            return self.outcome(config)[0]
        found = self._predict(config)
        self._predicted[id(config)] = (config, found)
        return found

    def _predict(self, config: Config) -> Outcome:
        assert self._scorers is not None
        try:
            stats = self.stats(config)
        except BleuError as exc:
            return outcome_of(exc)
        scorer = self._scorers.scorer(config)
        key = (id(stats), id(scorer))
        scored = self._scored.get(key)
        if scored is None:
            try:
                found = Outcome(score=scorer.score(stats))
            except BleuError as exc:
                found = outcome_of(exc)
            scored = self._scored[key] = (stats, scorer, found)
        return scored[2]

    def stats(self, config: Config) -> BleuStats:
        """The case's statistics under ``config`` (raises BleuError like ``corpus_stats``)."""
        if self._cache is None:
            self._cache = StatsCache(self.case.hypotheses, [list(r) for r in self.case.references])
        return self._cache.stats(config)

    def _evaluate(self, config: Config, profile: str) -> tuple[Outcome, BleuResult | None]:
        try:
            stats = self.stats(config)
            result = score_stats(stats, profile=profile, config=config)
        except BleuError as exc:
            return outcome_of(exc), None
        return Outcome(score=result.score), result
