"""bleu_impl's prediction for each observed case under each candidate setting, computed once.

A setting is a profile plus knob overrides; on a case it resolves together with the case's
own knobs at the case's level, so it is resolved once per distinct (knobs, level) of the
cases, not once per case, and equal configs are one object. Each case's
:class:`~.evaluate.Evaluator` reuses its statistics across settings, and one
:class:`~bleu_impl.ScorerPool` scores every case.
"""

from __future__ import annotations

from typing import Any

from bleu_impl import BleuError, Config, KnobError, get_profile

from ...cases import Case
from ..asking import Outcome
from ..evaluator import Evaluator, outcome_of, scorer_pool

__all__ = ["NOT_ASKED", "Key", "Predictions", "Row"]

#: Knob overrides, sorted by knob name.
Key = tuple[tuple[str, Any], ...]

#: A case a setting cannot be asked (its knobs do not resolve under the profile).
NOT_ASKED = Outcome(failure="not-asked")


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


class Row:
    """One setting's predictions, case by case (``outcome(index)``)."""

    def __init__(self, table: Predictions, profile: str, key: Key) -> None:
        self.profile, self.key = profile, key
        self._table = table
        self.outcomes: list[Outcome | None] = [None] * len(table.evaluators)
        self._configs: dict[int, Config | BleuError] = {}  # by group of cases

    def outcome(self, index: int) -> Outcome:
        """The prediction for case ``index``."""
        got = self.outcomes[index]
        if got is None:
            got = self.outcomes[index] = self._predict(index)
        return got

    def _predict(self, index: int) -> Outcome:
        config = self._config(self._table.groups[index])
        if isinstance(config, KnobError):
            return NOT_ASKED
        if isinstance(config, BleuError):
            return outcome_of(config)
        return self._table.evaluators[index].predict(config)

    def _config(self, group: int) -> Config | BleuError:
        found = self._configs.get(group)
        if found is None:
            case = self._table.first_of_group[group]
            try:
                config = get_profile(self.profile).resolve(
                    {**case.config, **dict(self.key)}, case.level
                )
            except BleuError as exc:
                found = exc
            else:
                found = self._table.interned(config)
            self._configs[group] = found
        return found


class Predictions:
    """Every setting's predictions for the cases added so far."""

    def __init__(self) -> None:
        self.evaluators: list[Evaluator] = []
        self.groups: list[int] = []  # per case: the group of cases with its knobs and level
        self.first_of_group: list[Case] = []
        self._group_of: dict[tuple[Any, ...], int] = {}
        self._rows: dict[tuple[str, Key], Row] = {}
        self._configs: dict[Config, Config] = {}
        self._scorers = scorer_pool()  # shared by every case: precisions repeat across them

    def add(self, case: Case, evaluator: Evaluator | None = None) -> None:
        """Add a case (``evaluator``: its evaluator from :meth:`evaluator`, to keep)."""
        self.evaluators.append(evaluator or Evaluator(case, self._scorers))
        knobs = tuple(sorted((k, _hashable(v)) for k, v in case.config.items()))
        group = self._group_of.setdefault((knobs, case.level), len(self.first_of_group))
        if group == len(self.first_of_group):
            self.first_of_group.append(case)
        self.groups.append(group)
        for row in self._rows.values():
            row.outcomes.append(None)

    def row(self, profile: str, key: Key) -> Row:
        """The predictions of ``profile`` + ``key``."""
        found = self._rows.get((profile, key))
        if found is None:
            found = self._rows[(profile, key)] = Row(self, profile, key)
        return found

    def interned(self, config: Config) -> Config:
        """The first config equal to ``config`` (equal settings: one object, whose
        predictions each case remembers)."""
        try:
            return self._configs.setdefault(config, config)
        except TypeError:  # an unhashable knob value
            return config

    def evaluator(self, case: Case) -> Evaluator:
        """An evaluator of a case not added (yet), scoring with the shared scorers."""
        return Evaluator(case, self._scorers)
