"""The evidence an implementation gave and the search for the setting that reproduces it.

:class:`Evidence` holds what the implementation answered (one :class:`Observation` per case)
and bleu_impl's prediction for each candidate setting, each computed once
(:class:`~.predictions.Predictions`: statistics reused across settings, scorers across cases).
A :class:`Candidate` is a profile plus option overrides and how many answers it reproduces.

The searches are beam searches over knob changes whose objective is the number of answers
reproduced: a change is kept only when it reproduces strictly more, which is decided on the
answers the current setting misses first and abandoned as soon as it breaks as many others
as it fixes. :func:`option_search` changes only the options of the profile's tool (a
profile never describes a setting its tool cannot have); :func:`generic_search` changes any
knob of the generic profile, starting from the best setting found.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import combinations
from typing import Any

from bleu_impl import CHOICES, BleuError, Config, KnobError, get_profile

from ...cases import Case, Tolerance
from ...results.records import Candidate
from ..asking import ANSWERED, Outcome
from ..evaluator import Evaluator, outcome_of
from ..subjects import Subject
from ..verify_as import emulation_tolerance
from .numerics import Precision
from .predictions import NOT_ASKED, Key, Predictions

__all__ = [
    "GENERIC",
    "Evidence",
    "Observation",
    "dying_knobs",
    "float64_twin",
    "generic_search",
    "option_search",
    "rank_profiles",
    "with_knobs",
]

#: The profile whose options are every knob (bleu_impl's ``GENERIC``).
GENERIC = "papineni2002"

#: Values tried for numeric knobs (the others come from ``CHOICES``).
_NUMERIC_TRIALS: Mapping[str, tuple[Any, ...]] = {
    "max_order": (1, 2, 3, 4, 5),
    "effective_order": (True, False),
    "auto_reweigh": (True, False),
}

#: Knobs never searched: presentation only, or parameters of one NLTK method.
_NOT_SEARCHED = frozenset({"scale", "weights", "smoothing_value", "epsilon", "alpha", "k"})

#: The settings under which bleu_impl raises where a tool dies (a raise is never evidence,
#: so the searches cannot find them): tried only on a nearest setting that ``run --as``
#: fails on errors alone.
_DYING: tuple[tuple[str, Any], ...] = (
    ("empty_ref", "error"),
    ("no_refs", "error"),
    ("empty_hyp", "error"),
    ("bp_underflow", "error"),
    ("ref_length", "single"),
)

_LEVELS = ("corpus", "sentence")
_BEAM_WIDTH = 3
#: Pairs of changes are tried only among this few moves (a tool's options, not every knob).
_PAIRED_MOVES = 24
_DEPTH = 5


@dataclass(frozen=True)
class Observation:
    """One case and what the implementation answered (score on 0..1, or a failure)."""

    case: Case
    outcome: Outcome


class Evidence:
    """The implementation's answers and every candidate's predictions, cached."""

    def __init__(self, subject: Subject) -> None:
        self.subject = subject
        self.observed: list[Observation] = []
        self._predictions = Predictions()
        self._tolerances: dict[tuple[str, Key], Tolerance] = {}
        self.precision = Precision("", None, "")  # what the answers show (set once observed)

    # -- the answers -------------------------------------------------------------------
    def add(self, observation: Observation, evaluator: Evaluator | None = None) -> None:
        """Add an answer (``evaluator``: one of its case already used, to keep)."""
        self.observed.append(observation)
        self._predictions.add(observation.case, evaluator)

    @property
    def scores(self) -> list[float]:
        return [o.outcome.score for o in self.observed if o.outcome.score is not None]

    @property
    def scales(self) -> tuple[float, ...]:
        """The factors the answers may be off the declared scale by: 1; 100 when a score
        above 1 says the implementation returns 0-100 undeclared; 0.01 when one declaring
        0-100 never answers above 1."""
        top = max(self.scores, default=0.0)
        if top > 1.0 + 1e-9:
            return (1, 100)
        if self.subject.scale == 100 and 0 < top <= 0.01 + 1e-12:
            return (1, 0.01)
        return (1,)

    # -- predictions -------------------------------------------------------------------
    def predict(self, index: int, profile: str, key: Key) -> Outcome:
        """bleu_impl's outcome on observation ``index`` under ``profile`` + the case's knobs
        + the overrides ``key`` (NOT_ASKED when they do not resolve)."""
        return self._predictions.row(profile, key).outcome(index)

    def tolerance(self, profile: str, key: Key) -> Tolerance:
        """The implementation's tolerance, widened as ``run --as`` widens it for the
        candidate's emulation (float32 when the candidate computes or rounds in float32)."""
        found = self._tolerances.get((profile, key))
        if found is None:
            try:
                config: Config | None = get_profile(profile).resolve(dict(key))
            except BleuError:
                config = None
            found = self.subject.tolerance.widened(emulation_tolerance(config))
            found = found.widened(Tolerance(abs=self.precision.half_unit(self.subject.scale)))
            self._tolerances[(profile, key)] = found
        return found

    def admitted(self, cand: Candidate) -> bool:
        """Whether the answers' precision allows naming ``cand`` (float64 answers are not
        those of a setting whose result is a float32 number, and the other way round)."""
        try:
            config = get_profile(cand.profile).resolve(dict(cand.overrides))
        except BleuError:
            return True
        single = config.arithmetic == "float32" or config.result_float == "float32"
        return self.precision.admits(single)

    def agrees(self, index: int, got: Outcome, scale: float, tolerance: Tolerance) -> bool:
        """Whether ``got`` reproduces the answer to observation ``index`` (any failure
        reproduces a failure: a foreign implementation's failure kinds are unknown)."""
        if got is NOT_ASKED:
            return False
        want = self.observed[index].outcome
        if want.failure is not None or got.failure is not None:
            return want.failure is not None and got.failure is not None
        assert want.score is not None and got.score is not None
        return tolerance.agree(got.score, want.score / scale)

    # -- candidates --------------------------------------------------------------------
    def candidate(
        self, profile: str, key: Key, scale: float, based_on: str | None = None, changes: Key = ()
    ) -> Candidate:
        """``profile`` + ``key`` counted on every observation."""
        tolerance, row = self.tolerance(profile, key), self._predictions.row(profile, key)
        agreed = sum(
            self.agrees(i, row.outcome(i), scale, tolerance) for i in range(len(self.observed))
        )
        return Candidate(profile, key, agreed, len(self.observed), scale, based_on, changes)

    def recount(self, cand: Candidate) -> Candidate:
        fresh = self.candidate(cand.profile, cand.overrides, cand.scale)
        return replace(cand, agreed=fresh.agreed, compared=fresh.compared)

    def misses(self, cand: Candidate) -> list[int]:
        tolerance = self.tolerance(cand.profile, cand.overrides)
        row = self._predictions.row(cand.profile, cand.overrides)
        return [
            i
            for i in range(len(self.observed))
            if not self.agrees(i, row.outcome(i), cand.scale, tolerance)
        ]

    def improved(
        self, state: Candidate, missed: Sequence[int], key: Key, changes: Key, floor: int = 0
    ) -> Candidate | None:
        """``state``'s profile with overrides ``key`` if it reproduces strictly more answers
        than ``state`` (which misses ``missed``) and at least ``floor``, else None (decided
        as soon as the answers left cannot get it there)."""
        profile, scale = state.profile, state.scale
        tolerance, row = self.tolerance(profile, key), self._predictions.row(profile, key)
        need = max(floor - state.agreed, 1)  # answers it must gain, net
        fixed = 0
        for asked, i in enumerate(missed, start=1):
            fixed += self.agrees(i, row.outcome(i), scale, tolerance)
            if fixed + len(missed) - asked < need:  # even if every one left is fixed
                return None
        missed_set = set(missed)
        broken = 0
        for i in range(len(self.observed)):
            if i in missed_set:
                continue
            if not self.agrees(i, row.outcome(i), scale, tolerance):
                broken += 1
                if fixed - broken < need:
                    return None
        agreed = state.agreed + fixed - broken
        return Candidate(profile, key, agreed, len(self.observed), scale, state.based_on, changes)

    def indistinguishable(self, a: Candidate, b: Candidate) -> bool:
        """Whether ``a`` and ``b`` predict the same outcome for every answer."""
        tolerance = self.tolerance(a.profile, a.overrides).widened(
            self.tolerance(b.profile, b.overrides)
        )
        for i in range(len(self.observed)):
            pa = self.predict(i, a.profile, a.overrides)
            pb = self.predict(i, b.profile, b.overrides)
            if not _same(pa, pb, a.scale, b.scale, tolerance):
                return False
        return True

    def semantics(self, cand: Candidate) -> tuple[Any, ...]:
        """What ``cand`` computes: its resolved config at both levels (two candidates with
        the same semantics are one setting written two ways, e.g. ``effective_order=False``
        and ``absent_order=zero``)."""
        try:
            prof = get_profile(cand.profile)
            configs = tuple(prof.resolve(dict(cand.overrides), level) for level in _LEVELS)
        except BleuError:
            return (cand.profile, cand.overrides)
        return (*configs, cand.scale)

    def sorted(self, candidates: Iterable[Candidate]) -> list[Candidate]:
        """Most answers reproduced first; among equals one the answers' precision admits,
        then a tool's setting before the generic profile, fewer overrides, the tighter
        tolerance (float64 before float32), then the fewest knobs away from the paper's
        definition (ties are still reported as ties)."""
        return sorted(candidates, key=self._order)

    def _order(self, c: Candidate) -> tuple[Any, ...]:
        loose = self.tolerance(c.profile, c.overrides).rel > self.subject.tolerance.rel
        return (
            -c.share,
            not self.admitted(c),
            c.generic,
            len(c.overrides),
            loose,
            self._distance(c),
            c.profile,
        )

    def _distance(self, c: Candidate) -> int:
        """How many knobs ``c`` sets away from the generic profile's defaults."""
        try:
            config = get_profile(c.profile).resolve(dict(c.overrides)).as_dict()
            defaults = get_profile(GENERIC).resolve({}).as_dict()
        except BleuError:
            return 1_000
        return sum(config[k] != defaults[k] for k in config if k != "scale")

    # -- separation --------------------------------------------------------------------
    def probe(self, subject: Subject, leaders: Sequence[Candidate], probes: Sequence[Case]) -> int:
        """Ask ``subject`` the probes on which the leaders' predictions differ; returns how
        many answers were added."""
        added = 0
        for case in probes:
            evaluator = self._predictions.evaluator(case)
            predicted = [_predict_one(evaluator, c) for c in leaders]
            tolerance = Tolerance()
            for c in leaders:
                tolerance = tolerance.widened(self.tolerance(c.profile, c.overrides))
            if all(
                _same(predicted[0], p, leaders[0].scale, c.scale, tolerance)
                for p, c in zip(predicted[1:], leaders[1:])
            ):
                continue
            reply = subject.reply(case)
            outcome = reply.outcome(subject.scale)
            if reply.status != ANSWERED or outcome is None:
                continue
            # evidence between the leaders only when some of them reproduce it
            if any(_same(p, outcome, c.scale, 1, tolerance) for p, c in zip(predicted, leaders)):
                self.add(Observation(case, outcome), evaluator)
                added += 1
        return added

    # -- the report --------------------------------------------------------------------
    def rows(self, shown: Sequence[Candidate], limit: int = 8) -> list[dict[str, Any]]:
        """Inputs that separate the shown candidates (from each other or from the answer),
        the best candidate's misses first."""
        unique = list({c.label: c for c in shown}.values())
        if not unique:
            return []
        best = unique[0]
        misses = set(self.misses(best))
        order = sorted(range(len(self.observed)), key=lambda i: (i not in misses, i))
        rows = []
        for i in order:
            predictions = {c.label: self.predict(i, c.profile, c.overrides) for c in unique}
            if i not in misses and len({p.describe() for p in predictions.values()}) == 1:
                continue
            rows.append(
                {
                    "item": self.observed[i].case.id,
                    "observed": self.observed[i].outcome.describe(),
                    **{
                        label: "cannot be asked" if p is NOT_ASKED else p.describe()
                        for label, p in predictions.items()
                    },
                }
            )
            if len(rows) >= limit:
                break
        return rows


def _same(a: Outcome, b: Outcome, scale_a: float, scale_b: float, tolerance: Tolerance) -> bool:
    if a.failure is not None or b.failure is not None:
        return (a.failure is None) == (b.failure is None)
    assert a.score is not None and b.score is not None
    return tolerance.agree(a.score * scale_a, b.score * scale_b)


def _predict_one(evaluator: Evaluator, cand: Candidate) -> Outcome:
    try:
        config = get_profile(cand.profile).resolve(
            {**evaluator.case.config, **dict(cand.overrides)}, evaluator.level
        )
    except KnobError:
        return NOT_ASKED
    except BleuError as exc:
        return outcome_of(exc)
    return evaluator.predict(config)


def rank_profiles(evidence: Evidence, profiles: Sequence[str]) -> list[Candidate]:
    """Every profile as it is (at each possible scale), best first."""
    return evidence.sorted(
        evidence.candidate(name, (), scale) for name in profiles for scale in evidence.scales
    )


def _moves(profile: str, config: Config) -> list[tuple[str, Any]]:
    """The single knob changes to try: the options of the profile's tool (every knob for
    the generic profile), each to a value other than the current one (a knob the profile
    sets by level, e.g. sacrebleu's sentence-level effective order, to every value)."""
    prof = get_profile(profile)
    by_level = {k for rule in prof.rules if "level" in rule.when for k in rule.then}
    options = prof.options
    if options is None:
        choices: dict[str, tuple[Any, ...]] = {**CHOICES, **_NUMERIC_TRIALS}
    else:
        choices = {
            knob: option.values
            if option.values is not None
            else CHOICES.get(knob, _NUMERIC_TRIALS.get(knob, ()))
            for knob, option in options.items()
        }
    return [
        (knob, value)
        for knob, values in choices.items()
        if knob not in _NOT_SEARCHED
        for value in values
        if knob in by_level or value != getattr(config, knob)
    ]


def _beam(evidence: Evidence, start: Candidate, moves: list[tuple[str, Any]]) -> list[Candidate]:
    """Beam search from ``start`` over ``moves``; every improving state found. When no
    single move improves a state and the moves are few (a tool's options), pairs are
    tried: some settings differ from the start in two options that only help together."""
    beam, found = [start], []
    for _ in range(_DEPTH):
        following: dict[Key, Candidate] = {}
        for state in beam:
            _extend(evidence, state, [(m,) for m in moves], following)
        if not following and len(moves) <= _PAIRED_MOVES:
            for state in beam:
                _extend(evidence, state, list(combinations(moves, 2)), following)
        if not following:
            break
        beam = evidence.sorted(following.values())[:_BEAM_WIDTH]
        found += beam
        if beam[0].share == 1.0:
            break
    return found


def _extend(
    evidence: Evidence,
    state: Candidate,
    steps: list[tuple[tuple[str, Any], ...]],
    following: dict[Key, Candidate],
) -> None:
    """Add to ``following`` every step (one or more knob changes) that improves ``state``."""
    missed = evidence.misses(state)
    current, changed = dict(state.overrides), dict(state.changes)
    for step in steps:
        knobs = dict(step)
        if len(knobs) < len(step) or any(k in changed or current.get(k) == v for k, v in step):
            continue
        key = tuple(sorted({**current, **knobs}.items()))
        if key in following:
            continue
        changes = tuple(sorted({**changed, **knobs}.items()))
        better = evidence.improved(state, missed, key, changes, _floor(following))
        if better is not None:
            following[key] = better


def _floor(following: dict[Key, Candidate]) -> int:
    """The answers a step must reproduce to be able to enter the next beam: as many as the
    beam's last place so far (fewer can never rank above it: the share sorts first)."""
    if len(following) < _BEAM_WIDTH:
        return 0
    return sorted((c.agreed for c in following.values()), reverse=True)[_BEAM_WIDTH - 1]


def option_search(evidence: Evidence, base: Candidate) -> list[Candidate]:
    """Settings of ``base``'s tool (changes of its options) that reproduce more answers."""
    try:
        config = get_profile(base.profile).resolve(dict(base.overrides))
    except BleuError:
        return []
    found = _beam(evidence, base, _moves(base.profile, config))
    if base.profile == GENERIC:  # the paper's profile with knobs changed: no tool's setting
        return [replace(c, based_on=GENERIC, changes=c.overrides) for c in found]
    return [replace(c, changes=()) for c in found]


def _flat(config: Config) -> dict[str, Any]:
    """``config`` as the generic profile's overrides: every knob off its default."""
    defaults = get_profile(GENERIC).resolve({})
    flat = {k: v for k, v in config.as_dict().items() if v != getattr(defaults, k) and k != "scale"}
    if flat.get("weights") is not None:
        flat["weights"] = tuple(flat["weights"])
    return flat


def generic_search(evidence: Evidence, best: Candidate) -> list[Candidate]:
    """Settings no tool has: the generic profile with ``best``'s knobs, then any knob
    changed (labelled as based on ``best``)."""
    try:
        config = get_profile(best.profile).resolve(dict(best.overrides))
    except BleuError:
        return []
    key = tuple(sorted(_flat(config).items()))
    start = evidence.candidate(GENERIC, key, best.scale, based_on=best.label)
    found = [c for c in _beam(evidence, start, _moves(GENERIC, config)) if c.changes]
    return found + [t for t in map(partial(float64_twin, evidence), found) if t is not None]


def float64_twin(evidence: Evidence, cand: Candidate) -> Candidate | None:
    """``cand`` computed in float64 instead of float32 (the generic profile with its
    knobs), when it still reproduces as many answers under the tighter tolerance; None when
    ``cand`` computes in float64 already."""
    try:
        flat = _flat(get_profile(cand.profile).resolve(dict(cand.overrides)))
    except BleuError:
        return None
    if flat.pop("arithmetic", None) is None and flat.pop("result_float", None) is None:
        return None
    key = tuple(sorted(flat.items()))
    based_on = cand.based_on or cand.label
    changes = tuple(sorted({**dict(cand.changes), "arithmetic": "float64"}.items()))
    tight = evidence.candidate(GENERIC, key, cand.scale, based_on, changes)
    return tight if tight.agreed >= cand.agreed else None


def dying_knobs(evidence: Evidence, best: Candidate) -> dict[str, Any]:
    """The dying settings (``_DYING``) that ``best`` lacks and can take reproducing as many
    answers: the implementation raised where ``best`` scores (a raise is never evidence)."""
    try:
        flat = _flat(get_profile(best.profile).resolve(dict(best.overrides)))
    except BleuError:
        return {}
    return {
        k: v
        for k, v in _DYING
        if flat.get(k) != v
        and evidence.candidate(GENERIC, _key({**flat, k: v}), best.scale).agreed >= best.agreed
    }


def with_knobs(evidence: Evidence, best: Candidate, knobs: Mapping[str, Any]) -> Candidate:
    """``best`` with ``knobs`` set: its tool's setting where the tool has those options, else
    the generic profile's (labelled as based on ``best``)."""
    changes = _key({**dict(best.changes), **knobs}) if best.generic else ()
    key = _key({**dict(best.overrides), **knobs})
    try:
        get_profile(best.profile).resolve(dict(key))
        return evidence.candidate(best.profile, key, best.scale, best.based_on, changes)
    except BleuError:
        flat = _flat(get_profile(best.profile).resolve(dict(best.overrides)))
        key, changes = _key({**flat, **knobs}), _key({**dict(best.changes), **knobs})
        return evidence.candidate(GENERIC, key, best.scale, best.based_on or best.label, changes)


def _key(knobs: Mapping[str, Any]) -> Key:
    return tuple(sorted(knobs.items()))
