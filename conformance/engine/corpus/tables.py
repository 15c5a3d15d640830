"""Per-segment statistics of a user's corpus, computed once per system and counting setting.

Everything the corpus report does with bleu_impl -- reproducing an implementation, walking
the knob path from the baseline to it, resampling for significance, finding the segments
behind a difference -- reads the same :class:`~bleu_impl.SegmentTable`: one per system and
distinct value of the statistics knobs (``STATS_KNOBS``); every other knob only re-scores.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from bleu_impl import (
    STATS_KNOBS,
    BleuError,
    BleuResult,
    Config,
    SegmentTable,
    macro_result,
    segment_scores,
    segment_table,
)
from bleu_impl.segment_scorer import scoring_key

from ...cases import Case
from ..asking import Outcome
from ..evaluator import Evaluator, outcome_of

__all__ = ["TableCache", "TableEvaluator", "stats_key"]


def stats_key(config: Config) -> tuple[Any, ...]:
    """The values of the knobs that change a segment table (equal keys, equal tables;
    ``aggregation`` changes only how the rows are scored)."""
    return tuple(getattr(config, k) for k in STATS_KNOBS if k != "aggregation")


def _content(table: SegmentTable) -> tuple[Any, ...]:
    """A key equal for tables with equal rows."""
    digest = hashlib.blake2b(table.matrix().tobytes(), digest_size=16).digest()
    return digest, table.matrix().shape, table.ref_den, table.lasts


class TableCache:
    """Segment tables of each case (system) per counting setting, computed on first use."""

    def __init__(self, cases: Sequence[Case]) -> None:
        self.cases = list(cases)
        self._tables: dict[tuple[int, tuple[Any, ...]], SegmentTable | BleuError] = {}
        self._results: dict[tuple[int, Config, str], BleuResult | BleuError] = {}
        self._terms: dict[tuple[int, tuple[Any, ...], str], list[float]] = {}
        self._same: dict[tuple[int, tuple[Any, ...]], SegmentTable] = {}
        self._inputs: dict[int, tuple[list[Any], list[list[Any]]]] = {}

    def table(self, system: int, config: Config) -> SegmentTable:
        """System ``system``'s table under ``config`` (BleuError when it cannot be counted)."""
        key = (system, stats_key(config))
        table = self._tables.get(key)
        if table is None:
            try:
                table = segment_table(*self._lines(system), config)
            except BleuError as exc:
                table = exc
            else:  # settings that count this corpus alike share one table (and its scores)
                table = self._same.setdefault((system, _content(table)), table)
            self._tables[key] = table
        if isinstance(table, BleuError):
            raise table
        return table

    def _lines(self, system: int) -> tuple[list[Any], list[list[Any]]]:
        """The case's hypotheses and references as lists (built once; never modified)."""
        found = self._inputs.get(system)
        if found is None:
            case = self.cases[system]
            found = list(case.hypotheses), [list(r) for r in case.references]
            self._inputs[system] = found
        return found

    def result(self, system: int, config: Config, profile: str) -> BleuResult:
        """The corpus result of ``system`` under ``config`` (raises BleuError), remembered:
        the knob search and the knob path ask for the same settings again."""
        key = (system, config, profile)
        result = self._results.get(key)
        if result is None:
            try:
                table = self.table(system, config)
                terms = (
                    self.terms(system, config, profile) if config.aggregation == "macro" else None
                )
                result = macro_result(table.total(), profile=profile, config=config, scores=terms)
            except BleuError as exc:
                result = exc
            self._results[key] = result
        if isinstance(result, BleuError):
            raise result
        return result

    def terms(self, system: int, config: Config, profile: str) -> list[float]:
        """Each segment's score alone (0..1): the terms of a macro mean, remembered (the
        macro result and its resampling read the same) per table and scoring knobs: settings
        that count alike and score alike share them."""
        table = self.table(system, config)
        key = (id(table), scoring_key(config), profile)  # tables are kept: ids stay unique
        found = self._terms.get(key)
        if found is None:
            found = self._terms[key] = segment_scores(table, config, profile)
        return found

    def outcome(
        self, system: int, config: Config, profile: str
    ) -> tuple[Outcome, BleuResult | None]:
        try:
            result = self.result(system, config, profile)
        except BleuError as exc:
            return outcome_of(exc), None
        return Outcome(score=result.score), result


class TableEvaluator(Evaluator):
    """An :class:`Evaluator` (what the knob search scores with) reading a shared cache."""

    def __init__(self, cache: TableCache, system: int) -> None:
        super().__init__(cache.cases[system])
        self.cache, self.system = cache, system

    def outcome(
        self, config: Config, profile: str = "papineni2002"
    ) -> tuple[Outcome, BleuResult | None]:
        return self.cache.outcome(self.system, config, profile)
