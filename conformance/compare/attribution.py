"""Cause attribution: the smallest set of knob changes that explains a disagreement.

Given one input and what two implementations answered, each side is first *reproduced* with
bleu_impl: its native profile resolved with the case's knobs, or, failing that, the nearest
setting found by changing one or two knobs. The cause is then the smallest subset of the
knobs on which the two reproductions differ that, applied to side A's setting, turns A's
number into B's. When no subset (up to ``MAX_CAUSE_KNOBS`` knobs) does, the disagreement is
reported as *unexplained*, never guessed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from bleu_impl import CHOICES, BleuError, BleuResult, Config, EmulatedFailure, get_profile
from bleu_impl.api import corpus_stats
from bleu_impl.score import score_stats

#: The largest cause searched for; larger differences are reported as unexplained.
MAX_CAUSE_KNOBS = 4

#: How many equally minimal explanations are collected for one disagreement.
MAX_ALTERNATIVES = 8

#: Knobs that change the per-segment statistics; the others only change the scoring.
STATS_KNOBS = (
    "max_order",
    "weights",
    "tokenize",
    "split",
    "line_prep",
    "lowercase",
    "ref_length",
    "missing_refs",
    "denominator_floor",
    "smoothing",
    "smoothing_context",
)

#: Alternative values tried when a side has no known profile or its profile misses.
_NUMERIC_TRIALS: Mapping[str, tuple[Any, ...]] = {"max_order": (1, 2, 3, 4, 5)}


@dataclass(frozen=True)
class Outcome:
    """What one side produced: a score on 0..1, or the kind of failure."""

    score: float | None = None
    failure: str | None = None

    def describe(self) -> str:
        return f"error:{self.failure}" if self.failure is not None else repr(self.score)


@dataclass(frozen=True)
class KnobChange:
    """One knob whose value differs between the two sides' reproductions."""

    knob: str
    a: Any
    b: Any

    def __str__(self) -> str:
        return f"{self.knob}: {_show(self.a)} vs {_show(self.b)}"


@dataclass(frozen=True)
class Attribution:
    """The cause of one disagreement and the intermediate statistics that differ."""

    changes: tuple[KnobChange, ...]
    explained: bool
    reproduced_a: bool
    reproduced_b: bool
    stats_diff: tuple[str, ...] = ()
    note: str = ""
    alternatives: tuple[tuple[KnobChange, ...], ...] = ()
    config_a: Config | None = field(default=None, compare=False)
    config_b: Config | None = field(default=None, compare=False)

    @property
    def cause(self) -> str:
        if not self.explained:
            return "unexplained" + (f" ({self.note})" if self.note else "")
        if not self.changes:
            return "none (identical settings)"
        text = "; ".join(str(c) for c in self.changes)
        if self.alternatives:
            others = " | ".join("; ".join(str(c) for c in alt) for alt in self.alternatives)
            text += f" (equally minimal: {others})"
        return text


def _show(value: Any) -> str:
    if value is False:
        return "off"
    if value is True:
        return "on"
    if value is None:
        return "default"
    if isinstance(value, tuple):
        return "(" + ",".join(f"{v:g}" for v in value) + ")"
    return str(value)


class Evaluator:
    """Scores one input under many configs, reusing statistics across scoring-only knobs."""

    def __init__(self, hypotheses: Sequence[Any], references: Sequence[Any], level: str) -> None:
        self.hypotheses = list(hypotheses)
        self.references = [list(r) for r in references]
        self.level = level
        self._stats: dict[tuple[Any, ...], Any] = {}

    def outcome(
        self, config: Config, profile: str = "papineni2002"
    ) -> tuple[Outcome, BleuResult | None]:
        key = tuple(getattr(config, k) for k in STATS_KNOBS)
        try:
            if key not in self._stats:
                try:
                    self._stats[key] = corpus_stats(self.hypotheses, self.references, config)
                except BleuError as exc:
                    self._stats[key] = exc
            stats = self._stats[key]
            if isinstance(stats, BleuError):
                raise stats
            result = score_stats(stats, profile=profile, config=config)
        except EmulatedFailure as exc:
            return Outcome(failure=exc.kind), None
        except BleuError as exc:
            return Outcome(failure=type(exc).__name__), None
        return Outcome(score=result.score), result


@dataclass(frozen=True)
class Tolerance:
    """Scores agree when ``|a - b| <= max(rel * max(|a|, |b|), abs)``.

    Relative by default, so a tiny positive score (NLTK's float-min) never equals 0; ``abs``
    is half a unit of the last printed digit for implementations that print rounded numbers.
    """

    rel: float = 1e-9
    abs: float = 0.0


def matches(got: Outcome, want: Outcome, tolerance: Tolerance) -> bool:
    """Same failure kind (any failure matches an unknown kind), or scores within tolerance."""
    if want.failure is not None or got.failure is not None:
        if want.failure is None or got.failure is None:
            return False
        return want.failure in ("unknown", got.failure)
    assert got.score is not None and want.score is not None
    return math.isclose(got.score, want.score, rel_tol=tolerance.rel, abs_tol=tolerance.abs)


def resolve_side(profile: str | None, knobs: Mapping[str, Any], level: str) -> Config | None:
    """The config a side is expected to have: its native profile plus the case's knobs."""
    if profile is None:
        return None
    try:
        return get_profile(profile).resolve(knobs, level)
    except BleuError:
        return None


def _with(config: Config, changes: Iterable[tuple[str, Any]]) -> Config | None:
    values = config.as_dict()
    values.update(dict(changes))
    if values.get("weights") is not None:
        values["weights"] = tuple(values["weights"])
    try:
        from bleu_impl.knobs import make_config

        return make_config(values)
    except BleuError:
        return None


def _alternatives(config: Config) -> Iterable[tuple[str, Any]]:
    for knob, values in (*CHOICES.items(), *_NUMERIC_TRIALS.items()):
        for value in values:
            if value != getattr(config, knob):
                yield knob, value


def reproduce(
    evaluator: Evaluator, start: Config | None, want: Outcome, tolerance: Tolerance, profile: str
) -> tuple[Config | None, bool]:
    """``start`` if it reproduces ``want``; else the first config one or two knob changes
    away that does; else (None, False)."""
    if start is None:
        start = get_profile("papineni2002").resolve({}, evaluator.level)
    if matches(evaluator.outcome(start, profile)[0], want, tolerance):
        return start, True
    singles = list(_alternatives(start))
    for change in singles:
        candidate = _with(start, [change])
        if candidate and matches(evaluator.outcome(candidate, profile)[0], want, tolerance):
            return candidate, True
    for first, second in combinations(singles, 2):
        if first[0] == second[0]:
            continue
        candidate = _with(start, [first, second])
        if candidate and matches(evaluator.outcome(candidate, profile)[0], want, tolerance):
            return candidate, True
    return None, False


def stats_difference(a: BleuResult | None, b: BleuResult | None) -> tuple[str, ...]:
    """Which intermediate statistics differ: per-order counts/totals, lengths, BP."""
    if a is None or b is None:
        return ()
    diffs = []
    for n, (ca, cb, ta, tb) in enumerate(zip(a.counts, b.counts, a.totals, b.totals), start=1):
        if (ca, ta) != (cb, tb):
            diffs.append(f"p{n} {ca}/{ta} vs {cb}/{tb}")
    if len(a.counts) != len(b.counts):
        diffs.append(f"orders {len(a.counts)} vs {len(b.counts)}")
    if a.hyp_len != b.hyp_len:
        diffs.append(f"hyp_len {a.hyp_len} vs {b.hyp_len}")
    if a.ref_len != b.ref_len:
        diffs.append(f"ref_len {a.ref_len} vs {b.ref_len}")
    if a.bp != b.bp:
        diffs.append(f"BP {a.bp:.6g} vs {b.bp:.6g}")
    for oa, ob in zip(a.orders, b.orders):
        if oa.treatment != ob.treatment:
            diffs.append(f"p{oa.n} {oa.treatment} vs {ob.treatment}")
    return tuple(diffs)


def attribute(
    evaluator: Evaluator,
    side_a: tuple[str | None, Outcome],
    side_b: tuple[str | None, Outcome],
    knobs: Mapping[str, Any],
    tolerance: Tolerance,
) -> Attribution:
    """Explain why side A's outcome differs from side B's (each: native profile, outcome).

    With both sides reproduced by their native profiles, the search is over the knobs on
    which those two settings differ. Otherwise it is over every single (then pair of) knob
    change from side A's setting. Every minimal explanation found is kept: the first is the
    cause, the others are listed as alternatives (the input cannot tell them apart).
    """
    (profile_a, want_a), (profile_b, want_b) = side_a, side_b
    level = evaluator.level
    name_b = profile_b or "papineni2002"
    config_a, ok_a = reproduce(
        evaluator,
        resolve_side(profile_a, knobs, level),
        want_a,
        tolerance,
        profile_a or "papineni2002",
    )
    if config_a is None:
        return Attribution((), False, False, False, note="no knob setting reproduces side A")
    native_b = resolve_side(profile_b, knobs, level)
    result_a = evaluator.outcome(config_a, profile_a or "papineni2002")[1]

    def hits(changes: Sequence[KnobChange]) -> bool:
        candidate = _with(config_a, [(c.knob, c.b) for c in changes])
        return candidate is not None and matches(
            evaluator.outcome(candidate, name_b)[0], want_b, tolerance
        )

    if native_b is not None and matches(evaluator.outcome(native_b, name_b)[0], want_b, tolerance):
        pool = [
            KnobChange(k, getattr(config_a, k), getattr(native_b, k))
            for k in config_a.as_dict()
            if getattr(config_a, k) != getattr(native_b, k)
        ]
        sizes = range(0, min(len(pool), MAX_CAUSE_KNOBS) + 1)
    else:
        pool = [KnobChange(k, getattr(config_a, k), v) for k, v in _alternatives(config_a)]
        sizes = range(1, 3)
    found: list[tuple[KnobChange, ...]] = []
    for size in sizes:
        for subset in combinations(pool, size):
            if len({c.knob for c in subset}) == size and hits(subset):
                found.append(subset)
                if len(found) >= MAX_ALTERNATIVES:
                    break
        if found:
            break
    config_b = _with(config_a, [(c.knob, c.b) for c in found[0]]) if found else native_b
    result_b = evaluator.outcome(config_b, name_b)[1] if config_b is not None else None
    diff = stats_difference(result_a, result_b)
    if not found:
        return Attribution(
            (),
            False,
            ok_a,
            False,
            stats_diff=diff,
            note=f"no change of at most {sizes[-1]} knobs reproduces side B",
            config_a=config_a,
            config_b=config_b,
        )
    return Attribution(
        found[0],
        True,
        ok_a,
        True,
        stats_diff=diff,
        alternatives=tuple(found[1:]),
        config_a=config_a,
        config_b=config_b,
    )
