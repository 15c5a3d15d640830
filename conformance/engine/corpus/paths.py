"""Which bleu_impl setting reproduces an implementation on a corpus, and the knob path from
the baseline's setting to it with the BLEU change of every step.

An implementation is *reproduced* when one setting gives its score on every system (within
its tolerance): first its native profile with its knobs and the corpus knobs, else the
setting the knob search (:func:`~conformance.engine.attribution.attribute`, from the
baseline's setting) finds on the first system it answered, checked on every system.

The path applies the knobs on which the two settings differ one at a time, in pipeline
order (the order of :class:`bleu_impl.Config`'s fields: text preparation and tokenization,
reference length, smoothing and zero handling, final arithmetic); a knob whose value alone
is not a valid setting goes together with the next one. The steps' BLEU changes add up to
the difference of the two reproductions; what remains of the implementations' actual
difference is *unexplained*. A different order can split the total differently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bleu_impl import BleuError, Config, get_profile, make_config

from ...results.records import show_value
from ..attribution import Side, attribute
from ..subjects import Subject
from .tables import TableCache, TableEvaluator

__all__ = ["Reproduction", "Step", "knob_path", "path_steps", "reproduce_subject"]


@dataclass(frozen=True)
class Reproduction:
    """The setting that reproduces an implementation (``config`` None: none found) and how
    it was found (``native``: its own profile; ``search``: the knob search)."""

    config: Config | None
    profile: str
    how: str
    note: str = ""
    scores: Mapping[int, float] = field(default_factory=dict)  # system -> 0..1

    @property
    def found(self) -> bool:
        return self.config is not None

    def describe(self) -> str:
        if self.config is None:
            return f"not reproduced ({self.note})" if self.note else "not reproduced"
        return f"bleu_impl:{self.profile}" + ("" if self.how == "native" else f" ({self.how})")


def _native(subject: Subject, knobs: Mapping[str, Any], tokenizer: str | None) -> Config | None:
    """The native profile under the corpus knobs; fed the tokens of ``tokenizer``, the
    profile under the other knobs with that tokenizer instead of its own (its tokens are
    the given ones)."""
    if subject.native is None:
        return None
    try:
        if tokenizer is None:
            return get_profile(subject.native).resolve({**subject.native_knobs, **knobs}, "corpus")
        rest = {k: v for k, v in knobs.items() if k != "tokenize"}
        config = get_profile(subject.native).resolve({**subject.native_knobs, **rest}, "corpus")
        return make_config({**config.as_dict(), "tokenize": tokenizer})
    except BleuError:
        return None


def _check(
    cache: TableCache, config: Config, profile: str, subject: Subject, wanted: Mapping[int, float]
) -> tuple[bool, dict[int, float]]:
    """Whether ``config`` gives ``wanted`` (system -> score on 0..1) on every system."""
    got: dict[int, float] = {}
    for system, want in wanted.items():
        outcome, _ = cache.outcome(system, config, profile)
        if outcome.score is None or not subject.tolerance.agree(outcome.score, want):
            return False, got
        got[system] = outcome.score
    return True, got


def reproduce_subject(
    subject: Subject,
    wanted: Mapping[int, float],
    cache: TableCache,
    knobs: Mapping[str, Any],
    baseline: Reproduction | None,
    tokenizer: str | None = None,
) -> Reproduction:
    """The setting that gives ``wanted`` (system -> the subject's score on 0..1) on the raw
    text; ``tokenizer``: the subject was given the tokens of that tokenizer."""
    profile = subject.native or "papineni2002"
    if not wanted:
        return Reproduction(None, profile, "", "no score to reproduce")
    native = _native(subject, knobs, tokenizer)
    if native is not None:
        ok, got = _check(cache, native, profile, subject, wanted)
        if ok:
            return Reproduction(native, profile, "native", scores=got)
    if baseline is None or baseline.config is None:
        return Reproduction(None, profile, "", "its profile does not reproduce it")
    first = min(wanted)
    attribution = attribute(
        TableEvaluator(cache, first),
        Side(baseline.profile, _outcome(baseline.scores.get(first))),
        Side(subject.native, _outcome(wanted[first]), subject.native_knobs),
        knobs,
        subject.tolerance,
    )
    config = attribution.config_b if attribution.explained else None
    if config is None:
        return Reproduction(None, profile, "", attribution.note or "the knob search found none")
    ok, got = _check(cache, config, profile, subject, wanted)
    if not ok:
        return Reproduction(
            None, profile, "", "the setting the knob search found on one system misses others"
        )
    changed = ", ".join(
        f"{k}={show_value(getattr(config, k))}"
        for k in config.as_dict()
        if native is not None and getattr(config, k) != getattr(native, k)
    )
    return Reproduction(
        config, profile, f"knob search: {changed}" if changed else "search", "", got
    )


def _outcome(score: float | None) -> Any:
    from ..asking import Outcome

    return Outcome(score=score)


@dataclass(frozen=True)
class Step:
    """One step of the path: the knobs changed (``changes``: knob, from, to) and the
    setting after it."""

    changes: tuple[tuple[str, Any, Any], ...]
    config: Config

    @property
    def label(self) -> str:
        return "; ".join(f"{k} {show_value(a)} → {show_value(b)}" for k, a, b in self.changes)


def knob_path(start: Config, end: Config) -> list[Step]:
    """The knobs on which ``start`` and ``end`` differ, applied one at a time in field
    order; a knob that is not valid on its own is applied with the next."""
    values = start.as_dict()
    target = end.as_dict()
    steps: list[Step] = []
    pending: list[tuple[str, Any, Any]] = []
    for knob in values:
        if values[knob] == target[knob]:
            continue
        pending.append((knob, values[knob], target[knob]))
        values[knob] = target[knob]
        try:
            config = make_config(values)
        except BleuError:
            continue
        steps.append(Step(tuple(pending), config))
        pending = []
    if pending:  # the whole remaining change is valid: it is ``end``
        steps.append(Step(tuple(pending), end))
    return steps


def path_steps(
    cache: TableCache,
    systems: Sequence[int],
    start: Reproduction,
    end: Reproduction,
) -> list[tuple[Step, dict[int, float | None]]]:
    """Every step with its BLEU change (0..1) per system (None where a step's setting
    fails on that system)."""
    assert start.config is not None and end.config is not None
    out: list[tuple[Step, dict[int, float | None]]] = []
    previous = {s: start.scores.get(s) for s in systems}
    for step in knob_path(start.config, end.config):
        deltas: dict[int, float | None] = {}
        current: dict[int, float | None] = {}
        for s in systems:
            outcome, _ = cache.outcome(s, step.config, end.profile)
            current[s] = outcome.score
            before = previous[s]
            deltas[s] = None if outcome.score is None or before is None else outcome.score - before
        out.append((step, deltas))
        previous = current
    return out
