"""Fingerprint an unknown BLEU implementation: which profile, with which knobs, it matches.

The implementation answers the cases once. Every bleu_impl profile is scored on the same
inputs; candidates are ranked by the share of answers they reproduce (same failure, or the
same score within the candidate's tolerance). The best profile is then refined by single
knob changes that raise its agreement. Errors are never evidence: a case the implementation
gave no usable answer on is counted as errored, and a case a candidate cannot even be asked
(its knobs do not resolve) does not count for or against it. The evidence is the inputs on
which the leading candidates disagree, with what the implementation said.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bleu_impl import CHOICES, PROFILES, BleuError, KnobError, get_profile

from ..cases import Case, Tolerance
from .asking import ANSWERED, SKIPPED, Outcome
from .attribution import UNKNOWN_FAILURE, matches
from .differ import FLOAT32_PROFILES, Subject
from .evaluate import Evaluator, outcome_of

__all__ = ["Candidate", "Identification", "identify", "predict"]


@dataclass(frozen=True)
class Candidate:
    """A profile plus knob overrides, and how many answers it reproduces."""

    profile: str
    overrides: tuple[tuple[str, Any], ...] = ()
    agreed: int = 0
    compared: int = 0
    scale: int = 1

    @property
    def share(self) -> float:
        return self.agreed / self.compared if self.compared else 0.0

    @property
    def label(self) -> str:
        knobs = ", ".join(f"{k}={v}" for k, v in self.overrides)
        return self.profile + (f" + {knobs}" if knobs else "")


@dataclass
class Identification:
    """Ranked candidates, the observed answers and the separating evidence."""

    implementation: str
    version: str
    candidates: list[Candidate]
    answered: int
    skipped: int
    errored: int
    evidence: list[dict[str, Any]] = field(default_factory=list)
    #: Failures of unknown kind (the implementation raised): not evidence either.
    failed: int = 0


#: The case could not be asked of a candidate (its knobs do not resolve under the profile).
_NOT_ASKED = Outcome(failure="not-asked")


def predict(evaluator: Evaluator, profile: str, overrides: Mapping[str, Any]) -> Outcome:
    """bleu_impl's outcome for the evaluator's case under ``profile`` + the case's knobs +
    ``overrides``."""
    knobs = {**evaluator.case.config, **overrides}
    try:
        config = get_profile(profile).resolve(knobs, evaluator.level)
    except KnobError:
        return _NOT_ASKED
    except BleuError as exc:
        return outcome_of(exc)
    return evaluator.outcome(config, profile)[0]


@dataclass(frozen=True)
class _Observation:
    evaluator: Evaluator
    outcome: Outcome


def _reproduces(got: Outcome, want: Outcome, tolerance: Tolerance) -> bool:
    # A foreign implementation's failure kinds are unknown: any failure matches any failure.
    if want.failure is not None and got.failure is not None:
        return True
    return matches(got, want, tolerance)


def _candidate_tolerance(subject: Subject, profile: str) -> Tolerance:
    rel = 1e-6 if profile in FLOAT32_PROFILES else 0.0
    return subject.tolerance.widened(Tolerance(rel=rel))


def _agreement(
    observed: Sequence[_Observation],
    profile: str,
    overrides: Mapping[str, Any],
    tolerance: Tolerance,
    scale: int,
) -> Candidate:
    agreed = compared = 0
    for obs in observed:
        want = obs.outcome
        if want.score is not None and scale != 1:
            want = Outcome(score=want.score / scale)
        got = predict(obs.evaluator, profile, overrides)
        if got is _NOT_ASKED:
            continue
        compared += 1
        agreed += _reproduces(got, want, tolerance)
    return Candidate(profile, tuple(sorted(overrides.items())), agreed, compared, scale)


def _observe(subject: Subject, cases: Sequence[Case]) -> tuple[list[_Observation], Counter[str]]:
    """The usable observations, and how many cases were skipped, errored or failed with
    an unknown kind (none of which is evidence)."""
    observed: list[_Observation] = []
    tally: Counter[str] = Counter()
    for case in cases:
        reply = subject.reply(case)
        outcome = reply.outcome(subject.scale)
        if reply.status == SKIPPED:
            tally["skipped"] += 1
        elif reply.status != ANSWERED or outcome is None:
            tally["errored"] += 1
        elif outcome.failure == UNKNOWN_FAILURE:
            tally["failed"] += 1
        else:
            observed.append(_Observation(Evaluator(case), outcome))
    return observed, tally


def identify(subject: Subject, cases: Sequence[Case], *, refine: bool = True) -> Identification:
    """Run ``subject`` on ``cases`` and rank bleu_impl profiles by how well they reproduce
    it."""
    observed, tally = _observe(subject, cases)
    skipped, errored, failed = tally["skipped"], tally["errored"], tally["failed"]
    scores = [o.outcome.score for o in observed if o.outcome.score is not None]
    if not scores:
        return Identification(
            subject.name, subject.version, [], len(observed), skipped, errored, failed=failed
        )
    scales = [1, 100] if max(scores) > 1.0 + 1e-9 else [1]  # an undeclared 0-100 scale
    ranked = sorted(
        (
            _agreement(observed, name, {}, _candidate_tolerance(subject, name), scale)
            for name in PROFILES
            for scale in scales
        ),
        key=lambda c: (-c.share, c.profile),
    )
    if refine and ranked and ranked[0].share < 1.0:
        ranked = _refine(subject, ranked, observed) + ranked
        ranked.sort(key=lambda c: (-c.share, len(c.overrides), c.profile))
    unique: list[Candidate] = []
    for cand in ranked:
        if all(
            (c.profile, c.overrides, c.scale) != (cand.profile, cand.overrides, cand.scale)
            for c in unique
        ):
            unique.append(cand)
    result = Identification(
        subject.name, subject.version, unique, len(observed), skipped, errored, failed=failed
    )
    result.evidence = _evidence(subject, unique[:3], observed)
    return result


def _option_values(profile: str) -> list[tuple[str, Any]]:
    """The settings the profile's tool offers (every knob value for the generic profile)."""
    prof = get_profile(profile)
    config = prof.resolve({})
    choices = {
        knob: (CHOICES.get(knob, ()) if option.values is None else option.values)
        for knob, option in (prof.options or {}).items()
    }
    if prof.options is None:
        choices = dict(CHOICES)
    return [
        (knob, value)
        for knob, values in choices.items()
        for value in values
        if knob != "scale" and value != getattr(config, knob)
    ]


def _refine(
    subject: Subject, ranked: list[Candidate], observed: Sequence[_Observation]
) -> list[Candidate]:
    """Single option changes on the best profiles that raise their agreement (never a knob
    the profile's tool has no option for)."""
    better = []
    for base in ranked[:2]:
        tolerance = _candidate_tolerance(subject, base.profile)
        for knob, value in _option_values(base.profile):
            cand = _agreement(observed, base.profile, {knob: value}, tolerance, base.scale)
            if cand.agreed > base.agreed:
                better.append(cand)
    return better


def _evidence(
    subject: Subject,
    leaders: Sequence[Candidate],
    observed: Sequence[_Observation],
    limit: int = 8,
) -> list[dict[str, Any]]:
    """Inputs on which the leading candidates disagree with each other, with the answer."""
    rows = []
    for obs in observed:
        predictions = {
            c.label: predict(obs.evaluator, c.profile, dict(c.overrides)) for c in leaders
        }
        values = [v for v in predictions.values() if v is not _NOT_ASKED]
        tolerance = _candidate_tolerance(subject, leaders[0].profile) if leaders else Tolerance()
        if all(_reproduces(v, values[0], tolerance) for v in values[1:]):
            continue
        rows.append(
            {
                "item": obs.evaluator.case.id,
                "observed": obs.outcome.describe(),
                **{
                    label: ("cannot be asked" if p is _NOT_ASKED else p.describe())
                    for label, p in predictions.items()
                },
            }
        )
        if len(rows) >= limit:
            break
    return rows
