"""Fingerprint an unknown BLEU implementation: which profile, with which options, it matches.

The implementation answers the cases once. Every bleu_impl profile predicts the same inputs;
a candidate's agreement is the share of answers it reproduces (the same score within the
candidate's own tolerance -- 1e-6 relative when the candidate or the implementation computes
in float32 -- or a failure where the implementation failed). Then:

1. **search** (:mod:`.knobsearch`): from the best profiles, a beam search over the options
   their tools expose, objective = the answers reproduced; when no tool's setting reproduces
   everything, the same search over every knob from the best setting, labelled
   ``generic profile + knobs`` (no tool has that setting);
2. **separation**: candidates reproducing the same answers are told apart with generated
   corpora on which their predictions differ, asked of the implementation, until the
   evidence separates them or the budget is spent -- then they are reported as a tie;
3. **precision and scale** (:mod:`.numerics`): float64 answers are never named as a float32
   setting (the same setting in float64 is), and a constant factor is reported as such;
4. **verdict** (:mod:`.confirm`): ``match`` only when ``run --as`` with the best candidate's
   profile and knobs passes every fixture case it checks -- the same code judges both --
   else ``no profile matches``, with the nearest candidate, the outcomes ``run --as`` gave
   it and its smallest failing cases.

Errors are never evidence: a case the implementation gave no usable answer on (a crash, a
timeout, garbage, a ``BaseException``) is counted as errored and predicts nothing; a case a
candidate cannot be asked (its knobs do not resolve) counts neither for nor against it. An
implementation that takes any knob (``**config``) may ignore them, so only cases that set no
knob are used for it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bleu_impl import PROFILES

from ...cases import Case, ExpectationKey, generate_cases, tokenized
from ...results.records import Candidate, Identification
from ...results.vocab import ERROR, FAIL
from ..asking import ANSWERED, SKIPPED, Remembering
from ..attribution import UNKNOWN_FAILURE
from ..subjects import Subject
from .confirm import Check, confirm
from .knobsearch import (
    Evidence,
    Observation,
    dying_knobs,
    float64_twin,
    generic_search,
    option_search,
    rank_profiles,
    with_knobs,
)
from .numerics import precision_of, scale_finding

__all__ = [
    "Candidate",
    "Identification",
    "identify",
]

#: Generated corpora tried per separation round, and rounds at most.
_PROBES_PER_ROUND = 120

#: How many of the best profiles have their tools' options searched (all: a tool whose
#: setting differs in two options may rank low as it is).
_SEARCHED_BASES = len(PROFILES)
_ROUNDS = 4


def identify(
    subject: Subject,
    cases: Sequence[Case],
    *,
    keys: Mapping[str, ExpectationKey],
    checked: Sequence[Case],
    refine: bool = True,
    seed: int = 0,
) -> Identification:
    """Run ``subject`` on ``cases`` and name the profile (and options) it implements: the
    best candidate that ``run --as`` passes on ``checked`` (the fixture cases ``run``
    would select), else "no profile matches" with the nearest one."""
    subject = replace(subject, adapter=Remembering(subject.adapter))  # asked once per request
    knob_free_only = subject.adapter.capabilities.knobs is None
    cases = _distinct(c for c in cases if not (knob_free_only and c.config))
    evidence = Evidence(subject)
    tally, raw = _observe(subject, cases, evidence)
    evidence.precision = precision_of(raw, evidence.scales[-1])
    found = Identification(
        subject.name,
        subject.version,
        (),
        len(evidence.observed),
        tally["skipped"],
        tally["errored"],
        knob_free_only=knob_free_only,
        failed=tally["failed"],
    )
    if not evidence.scores:
        return found
    ranked = rank_profiles(evidence, list(PROFILES))
    if refine and ranked[0].share < 1.0:
        ranked = _refined(evidence, ranked)
    ranked = _precise(evidence, ranked)
    ranked, separating = _separate(subject, evidence, ranked, seed)
    best = ranked[0]
    ties = [
        c
        for c in ranked[1:]
        if c.generic == best.generic
        and c.share == best.share
        and evidence.admitted(c)
        and evidence.tolerance(c.profile, c.overrides).rel
        <= evidence.tolerance(best.profile, best.overrides).rel
        and evidence.indistinguishable(c, best)
    ]
    check = confirm(subject, [best, *ties], keys, checked, evidence.precision.decimals)
    died = _dying(subject, evidence, check, keys, checked) if _died_only(check) else None
    if died is not None:
        check, ranked = died, [died.candidate, *ranked]
    findings = [evidence.precision.evidence] if evidence.precision.kind else []
    findings += [scale_finding(check.candidate.scale, subject.scale)] * (check.candidate.scale != 1)
    findings += _unchecked_misses(evidence, check.candidate) if check.passed else []
    return replace(
        found,
        candidates=tuple(ranked),
        answered=len(evidence.observed),
        evidence=tuple(evidence.rows([best, *ties, *ranked[1:3]])),
        verdict="match" if check.passed else "no-match",
        ties=tuple(t for t in ties if t is not check.candidate),
        separating=separating,
        run_as=check.command,
        checked=check.outcomes,
        failing=check.failing,
        findings=tuple(findings),
    )


def _died_only(check: Check) -> bool:
    """Whether ``run --as`` failed only where the implementation raised."""
    return not check.passed and not check.outcomes.get(FAIL) and bool(check.outcomes.get(ERROR))


def _dying(
    subject: Subject,
    evidence: Evidence,
    failed: Check,
    keys: Mapping[str, ExpectationKey],
    checked: Sequence[Case],
) -> Check | None:
    """The nearest setting made to die where the implementation raised (``dying_knobs``,
    each left out again where the cases it failed pass without it), when ``run --as``
    passes it."""
    best, knobs = failed.candidate, dying_knobs(evidence, failed.candidate)
    died = [c for c in checked if c.id in failed.failed]
    for name in list(knobs):
        fewer = {k: v for k, v in knobs.items() if k != name}
        if confirm(subject, [with_knobs(evidence, best, fewer)], keys, died).passed:
            knobs = fewer
    if not knobs:
        return None
    check = confirm(subject, [with_knobs(evidence, best, knobs)], keys, checked)
    return check if check.passed else None


def _unchecked_misses(evidence: Evidence, cand: Candidate) -> list[str]:
    """A match whose candidate misses answers: they are on inputs ``run --as`` does not
    check (generated corpora), and a maintainer must see them beside the verdict."""
    misses = evidence.misses(cand)
    if not misses:
        return []
    shown = "; ".join(
        f"{evidence.observed[i].case.id}: {evidence.observed[i].outcome.describe()} where "
        f"{cand.profile} gives {evidence.predict(i, cand.profile, cand.overrides).describe()}"
        for i in misses[:3]
    )
    n = len(misses)
    return [
        f"{n} answer{'s' * (n > 1)} {'differ' if n > 1 else 'differs'} from {cand.label} on "
        f"inputs `run --as` does not check (generated corpora; {shown})"
    ]


def _precise(evidence: Evidence, ranked: list[Candidate]) -> list[Candidate]:
    """With answers the precision rules a leader out of (float64 answers, a float32
    setting), the same setting computed in the answers' precision, ranked in."""
    twins = [float64_twin(evidence, c) for c in ranked[:6] if not evidence.admitted(c)]
    return evidence.sorted([*ranked, *(t for t in twins if t is not None)])


def _distinct(cases: Iterable[Case]) -> list[Case]:
    """Each question once (fixture files record the same input for several tools); tokens
    with spaces inside are left out: a wrapper that joins tokens into a string cannot pass
    them on, so they are used only as separating probes (kept when a leader reproduces
    the answer)."""
    seen: set[Any] = set()
    distinct = []
    for case in cases:
        if "token-whitespace" in case.tags:
            continue
        key = (case.level, repr(sorted(case.config.items())), case.input)
        if key not in seen:
            seen.add(key)
            distinct.append(case)
    return distinct


def _observe(
    subject: Subject, cases: Sequence[Case], evidence: Evidence
) -> tuple[Counter[str], list[float]]:
    """Add the usable observations to ``evidence``; count the cases skipped, errored or
    failed with an unknown kind (the implementation raised): none of these is evidence.
    Also the raw scores (on the implementation's scale: their precision is evidence)."""
    tally: Counter[str] = Counter()
    raw: list[float] = []
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
            evidence.add(Observation(case, outcome))
            if reply.answer is not None and reply.answer.score is not None:
                raw.append(reply.answer.score)
    return tally, raw


def _refined(evidence: Evidence, ranked: list[Candidate]) -> list[Candidate]:
    """Option searches from the best profiles; then, if no tool's setting reproduces every
    answer, a search over every knob from the best one found."""
    found = list(ranked)
    for base in ranked[:_SEARCHED_BASES]:
        found += option_search(evidence, base)
    found = evidence.sorted(found)
    if found[0].share < 1.0:
        found += generic_search(evidence, found[0])
    return evidence.sorted(found)


def _separate(
    subject: Subject,
    evidence: Evidence,
    ranked: list[Candidate],
    seed: int,
) -> tuple[list[Candidate], int]:
    """Ask generated corpora on which the leading candidates' predictions differ until one
    leads alone (or the probes run out); the candidates re-counted on all evidence, and how
    many probes were asked."""
    separating = 0
    for round_ in range(_ROUNDS):
        leaders = [c for c in ranked if c.agreed == ranked[0].agreed and c.share > 0][:6]
        if len(leaders) < 2:
            break
        probes = generate_cases(_PROBES_PER_ROUND, seed=10_007 * (seed + 1) + round_)
        raw = [p for p in probes if p.input.format == "raw"]
        added = evidence.probe(subject, leaders, [*probes, *map(tokenized, raw)])
        separating += added
        if not added:
            break
        ranked = evidence.sorted([evidence.recount(c) for c in ranked])
    return _unique(evidence, ranked), separating


def _unique(evidence: Evidence, ranked: list[Candidate]) -> list[Candidate]:
    """The first of the candidates that compute the same thing (the simplest writing)."""
    seen: set[tuple[Any, ...]] = set()
    unique = []
    for cand in ranked:
        key = evidence.semantics(cand)
        if key not in seen:
            seen.add(key)
            unique.append(cand)
    return unique
