"""Cause attribution: the smallest set of knob changes that explains a disagreement.

Given one input and what two implementations answered, each side is first *reproduced* with
bleu_impl: its native profile resolved with the case's knobs, or, failing that, the nearest
setting found by changing one or two knobs. The cause is then the smallest subset of the
knobs on which the two reproductions differ that, applied to side A's setting, turns A's
number into B's. Every other single knob change that does the same is listed as an equally
minimal alternative (the input cannot tell them apart). When no subset (up to
``MAX_CAUSE_KNOBS`` knobs) does, the disagreement is reported as *unexplained*, never
guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from bleu_impl import CHOICES, BleuError, BleuResult, Config, get_profile, make_config

from ..cases import Tolerance
from ..results.records import show_value
from .asking import Outcome
from .evaluator import Evaluator

__all__ = [
    "MAX_ALTERNATIVES",
    "MAX_CAUSE_KNOBS",
    "UNKNOWN_FAILURE",
    "Attribution",
    "KnobChange",
    "Side",
    "attribute",
    "describe_changes",
    "matches",
]

#: The largest cause searched for; larger differences are reported as unexplained.
MAX_CAUSE_KNOBS = 4

#: How many equally minimal explanations of several knobs are collected for one
#: disagreement (one-knob explanations are few, ~40, and all are listed).
MAX_ALTERNATIVES = 8

#: The failure kind of an implementation that failed without saying how (an exception).
UNKNOWN_FAILURE = "unknown"
_UNKNOWN_NOTE = "a failure of unknown kind is not evidence of any setting"
_NO_SIDE_A = "no knob setting reproduces side A"

#: Alternative values tried when a side has no known profile or its profile misses.
_NUMERIC_TRIALS: Mapping[str, tuple[Any, ...]] = {"max_order": (1, 2, 3, 4, 5)}


@dataclass(frozen=True)
class KnobChange:
    """One knob whose value differs between the two sides' reproductions."""

    knob: str
    a: Any
    b: Any

    def __str__(self) -> str:
        return f"{self.knob}: {show_value(self.a)} vs {show_value(self.b)}"


@dataclass(frozen=True)
class Attribution:
    """The cause of one disagreement, its equally minimal alternatives, and the settings
    that reproduce each side (``native_a``/``native_b``: the result of a side's own profile
    when that profile alone reproduces it)."""

    changes: tuple[KnobChange, ...]
    explained: bool
    note: str = ""
    alternatives: tuple[tuple[KnobChange, ...], ...] = ()
    config_a: Config | None = field(default=None, compare=False)
    config_b: Config | None = field(default=None, compare=False)
    native_a: BleuResult | None = field(default=None, compare=False)
    native_b: BleuResult | None = field(default=None, compare=False)

    @property
    def cause(self) -> str:
        """The cause (the first minimal explanation) as people read it."""
        if not self.explained:
            return "unexplained" + (f" ({self.note})" if self.note else "")
        if not self.changes:
            return "none (identical settings)"
        return describe_changes(self.changes)

    @property
    def alternatives_text(self) -> str:
        """The equally minimal alternatives, ``|``-separated ('' when there are none)."""
        return " | ".join(describe_changes(alt) for alt in self.alternatives)


def describe_changes(changes: Sequence[KnobChange]) -> str:
    """``knob: a vs b; knob2: ...``"""
    return "; ".join(str(c) for c in changes)


def matches(got: Outcome, want: Outcome, tolerance: Tolerance) -> bool:
    """Same failure kind, or scores that agree. A failure of unknown kind is reproduced by
    no knob: a foreign failure is explained only by a knob that fails for the same reason
    (otherwise any knob that makes bleu_impl fail would be named as its cause)."""
    if want.failure is not None or got.failure is not None:
        if want.failure is None or got.failure is None:
            return False
        return want.failure in (UNKNOWN_FAILURE, got.failure)
    assert got.score is not None and want.score is not None
    return tolerance.agree(got.score, want.score)


def resolve_side(profile: str | None, knobs: Mapping[str, Any], level: str) -> Config | None:
    """The config a side is expected to have: its native profile plus the case's knobs."""
    if profile is None:
        return None
    try:
        return get_profile(profile).resolve(knobs, level)
    except BleuError:
        return None


#: ``_with`` results: the same few hundred configs recur across cases and shrink steps.
_WITH: dict[tuple[Config, tuple[tuple[str, Any], ...]], Config | None] = {}
_WITH_MAX = 50_000


def _with(config: Config, changes: Iterable[tuple[str, Any]]) -> Config | None:
    """``config`` with ``changes`` applied and validated (None when invalid)."""
    key = (config, tuple(changes))
    try:
        return _WITH[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable knob value: no memo
        return _build(config, key[1])
    if len(_WITH) >= _WITH_MAX:
        _WITH.clear()
    found = _WITH[key] = _build(config, key[1])
    return found


def _build(config: Config, changes: tuple[tuple[str, Any], ...]) -> Config | None:
    values = config.as_dict()
    values.update(dict(changes))
    if values.get("weights") is not None:
        values["weights"] = tuple(values["weights"])
    try:
        return make_config(values)
    except BleuError:
        return None


def _alternatives(config: Config) -> Iterable[tuple[str, Any]]:
    for knob, values in (*CHOICES.items(), *_NUMERIC_TRIALS.items()):
        for value in values:
            if value != getattr(config, knob):
                yield knob, value


@dataclass(frozen=True)
class Side:
    """One side to reproduce: its native profile (if known) with the knobs that describe its
    fixed behaviour on top, and what it produced."""

    profile: str | None
    want: Outcome
    knobs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def scorer(self) -> str:
        return self.profile or "papineni2002"


def reproduce(
    evaluator: Evaluator, start: Config | None, want: Outcome, tolerance: Tolerance, profile: str
) -> tuple[Config | None, bool]:
    """``start`` if it reproduces ``want``; else the first config one or two knob changes
    away that does; else (None, False). A failure of unknown kind (an exception the
    harness cannot classify) is reproduced only by ``start``: any failing setting would
    "match" it, so a search would be evidence made of an error."""
    if start is None:
        start = get_profile("papineni2002").resolve({}, evaluator.level)
    if matches(evaluator.score(start, profile), want, tolerance):
        return start, True
    if want.failure == UNKNOWN_FAILURE:
        return None, False
    singles = list(_alternatives(start))
    for change in singles:
        candidate = _with(start, [change])
        if candidate and matches(evaluator.score(candidate, profile), want, tolerance):
            return candidate, True
    for first, second in combinations(singles, 2):
        if first[0] == second[0]:
            continue
        candidate = _with(start, [first, second])
        if candidate and matches(evaluator.score(candidate, profile), want, tolerance):
            return candidate, True
    return None, False


class _Search:
    """The subsets of knob changes from side A's setting that reproduce side B."""

    def __init__(
        self, evaluator: Evaluator, config_a: Config, side_b: Side, tolerance: Tolerance
    ) -> None:
        self.evaluator, self.config_a = evaluator, config_a
        self.side_b, self.tolerance = side_b, tolerance

    def hits(self, changes: Sequence[KnobChange]) -> bool:
        candidate = _with(self.config_a, [(c.knob, c.b) for c in changes])
        return candidate is not None and matches(
            self.evaluator.score(candidate, self.side_b.scorer),
            self.side_b.want,
            self.tolerance,
        )

    def minimal(
        self, pool: Sequence[KnobChange], sizes: range, limit: int = MAX_ALTERNATIVES
    ) -> list[tuple[KnobChange, ...]]:
        """Every hitting subset of the smallest size that has one (at most ``limit``)."""
        found: list[tuple[KnobChange, ...]] = []
        for size in sizes:
            for subset in combinations(pool, size):
                if len({c.knob for c in subset}) == size and self.hits(subset):
                    found.append(subset)
                    if len(found) >= limit:
                        return found
            if found:
                return found
        return found

    def single_alternatives(self, known: list[tuple[KnobChange, ...]]) -> list[tuple[KnobChange]]:
        """Every single knob change outside ``known`` that reproduces B as well."""
        seen = set(known)
        extra: list[tuple[KnobChange]] = []
        for knob, value in _alternatives(self.config_a):
            change = (KnobChange(knob, getattr(self.config_a, knob), value),)
            if change not in seen and self.hits(change):
                extra.append(change)
        return extra


def attribute(
    evaluator: Evaluator,
    a: Side,
    b: Side,
    knobs: Mapping[str, Any],
    tolerance: Tolerance,
    *,
    alternatives: bool = True,
) -> Attribution:
    """Explain why side A's outcome differs from side B's on a case with ``knobs``.

    With both sides reproduced by their native profiles, the search is over the knobs on
    which those two settings differ. Otherwise it is over every single (then pair of) knob
    change from side A's setting. The first minimal explanation is the cause; the other
    minimal ones -- and, for a one-knob cause, every other one-knob change that reproduces
    side B -- are listed as alternatives (not searched with ``alternatives=False``: the
    cause is the same, found sooner).
    """
    level = evaluator.level
    native_a = resolve_side(a.profile, {**a.knobs, **knobs}, level)
    config_a, _ = reproduce(evaluator, native_a, a.want, tolerance, a.scorer)
    if config_a is None:
        unknown = a.want.failure == UNKNOWN_FAILURE
        return Attribution((), False, note=_UNKNOWN_NOTE if unknown else _NO_SIDE_A)
    result_a = evaluator.outcome(config_a, a.scorer)[1] if config_a == native_a else None
    native_b = resolve_side(b.profile, {**b.knobs, **knobs}, level)
    native_result_b = None
    if native_b is not None:
        outcome_b, result_b = evaluator.outcome(native_b, b.scorer)
        if matches(outcome_b, b.want, tolerance):
            native_result_b = result_b
        else:
            native_b = None
    if native_b is None and b.want.failure == UNKNOWN_FAILURE:
        return Attribution((), False, note=_UNKNOWN_NOTE, config_a=config_a, native_a=result_a)
    search = _Search(evaluator, config_a, b, tolerance)
    if native_b is not None:
        pool = [
            KnobChange(k, getattr(config_a, k), getattr(native_b, k))
            for k in config_a.as_dict()
            if getattr(config_a, k) != getattr(native_b, k)
        ]
        sizes = range(0, min(len(pool), MAX_CAUSE_KNOBS) + 1)
    else:
        pool = [KnobChange(k, getattr(config_a, k), v) for k, v in _alternatives(config_a)]
        sizes = range(1, 3)
    found = search.minimal(pool, sizes, MAX_ALTERNATIVES if alternatives else 1)
    if alternatives and found and len(found[0]) == 1:
        found += search.single_alternatives(found)
    config_b = _with(config_a, [(c.knob, c.b) for c in found[0]]) if found else native_b
    return Attribution(
        found[0] if found else (),
        bool(found),
        note="" if found else f"no change of at most {sizes[-1]} knobs reproduces side B",
        alternatives=tuple(found[1:]),
        config_a=config_a,
        config_b=config_b,
        native_a=result_a,
        native_b=native_result_b,
    )
