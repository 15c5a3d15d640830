"""Fingerprint an unknown BLEU implementation: which profile, with which knobs, it matches.

The implementation answers the fixtures and generated corpora once. Every bleu_impl profile
is scored on the same inputs; candidates are ranked by the share of answers they reproduce
(same failure, or the same score within 1e-9 relative / half a printed digit). The best
profile is then refined by single knob changes that raise its agreement. The evidence is
the inputs on which the leading candidates disagree, with what the implementation said.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import bleu_impl
from bleu_impl import CHOICES, PROFILES, BleuError, EmulatedFailure

from .attribution import Outcome, Tolerance, matches
from .differ import Implementation, Item


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


def predict(item: Item, profile: str, overrides: Mapping[str, Any]) -> Outcome:
    """bleu_impl's outcome for ``item`` under ``profile`` + the item's knobs + ``overrides``."""
    knobs = {**item.config, **overrides}
    try:
        if item.level == "sentence":
            result = bleu_impl.sentence_bleu(
                item.hypotheses[0], list(item.references[0]), profile=profile, **knobs
            )
        else:
            result = bleu_impl.corpus_bleu(
                list(item.hypotheses), [list(r) for r in item.references], profile=profile, **knobs
            )
    except EmulatedFailure as exc:
        return Outcome(failure=exc.kind)
    except BleuError as exc:
        return Outcome(failure=type(exc).__name__)
    return Outcome(score=result.score)


def _agreement(
    observed: Sequence[tuple[Item, Outcome]],
    profile: str,
    overrides: Mapping[str, Any],
    tolerance: Tolerance,
    scale: int,
) -> Candidate:
    agreed = 0
    for item, outcome in observed:
        want = outcome
        if outcome.score is not None and scale != 1:
            want = Outcome(score=outcome.score / scale)
        if _matches_any_failure(predict(item, profile, overrides), want, tolerance):
            agreed += 1
    return Candidate(profile, tuple(sorted(overrides.items())), agreed, len(observed), scale)


def _matches_any_failure(got: Outcome, want: Outcome, tolerance: Tolerance) -> bool:
    # A foreign implementation's failure kinds are unknown: any failure matches any failure.
    if want.failure is not None and got.failure is not None:
        return True
    return matches(got, want, tolerance)


def identify(impl: Implementation, items: Sequence[Item], *, refine: bool = True) -> Identification:
    """Run ``impl`` on ``items`` and rank bleu_impl profiles by how well they reproduce it."""
    observed: list[tuple[Item, Outcome]] = []
    skipped = errored = 0
    for item in items:
        side = impl.answer(item)
        if side.status == "skip":
            skipped += 1
        elif side.status == "error" or side.outcome is None:
            errored += 1
        else:
            observed.append((item, side.outcome))
    tolerance = Tolerance(rel=1e-9, abs=impl.half_unit)
    scores = [o.score for _, o in observed if o.score is not None and math.isfinite(o.score)]
    scales = [1, 100] if scores and max(scores) > 1.0 + 1e-9 else [1]
    ranked = sorted(
        (_agreement(observed, name, {}, tolerance, scale) for name in PROFILES for scale in scales),
        key=lambda c: (-c.share, c.profile),
    )
    if refine and ranked and ranked[0].share < 1.0:
        ranked = _refine(ranked, observed, tolerance) + ranked
        ranked.sort(key=lambda c: (-c.share, len(c.overrides), c.profile))
    unique: list[Candidate] = []
    for cand in ranked:
        if all(
            (c.profile, c.overrides, c.scale) != (cand.profile, cand.overrides, cand.scale)
            for c in unique
        ):
            unique.append(cand)
    result = Identification(impl.name, impl.version, unique, len(observed), skipped, errored)
    result.evidence = _evidence(unique[:3], observed, tolerance)
    return result


def _refine(
    ranked: list[Candidate], observed: Sequence[tuple[Item, Outcome]], tolerance: Tolerance
) -> list[Candidate]:
    """Single knob changes on the best profiles that raise their agreement."""
    better = []
    for base in ranked[:2]:
        config = bleu_impl.get_profile(base.profile).resolve({})
        for knob, values in CHOICES.items():
            for value in values:
                if value == getattr(config, knob) or knob == "scale":
                    continue
                cand = _agreement(observed, base.profile, {knob: value}, tolerance, base.scale)
                if cand.agreed > base.agreed:
                    better.append(cand)
    return better


def _evidence(
    leaders: Sequence[Candidate],
    observed: Sequence[tuple[Item, Outcome]],
    tolerance: Tolerance,
    limit: int = 8,
) -> list[dict[str, Any]]:
    """Inputs on which the leading candidates disagree with each other, with the answer."""
    rows = []
    for item, outcome in observed:
        predictions = {c.label: predict(item, c.profile, dict(c.overrides)) for c in leaders}
        values = list(predictions.values())
        if all(_matches_any_failure(v, values[0], tolerance) for v in values[1:]):
            continue
        rows.append(
            {
                "item": item.id,
                "observed": outcome.describe(),
                **{label: p.describe() for label, p in predictions.items()},
            }
        )
        if len(rows) >= limit:
            break
    return rows
