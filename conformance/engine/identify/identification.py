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
3. **verdict**: ``match`` when every answer is reproduced, ``closest`` at or above
   :data:`MATCH_THRESHOLD`, else ``no profile matches``, with the nearest candidates and the
   inputs that separate them.

Errors are never evidence: a case the implementation gave no usable answer on (a crash, a
timeout, garbage, a ``BaseException``) is counted as errored and predicts nothing; a case a
candidate cannot be asked (its knobs do not resolve) counts neither for nor against it. An
implementation that takes any knob (``**config``) may ignore them, so only cases that set no
knob are used for it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bleu_impl import PROFILES

from ...cases import Case, Input, Segment, generate_cases
from ..asking import ANSWERED, SKIPPED
from ..attribution import UNKNOWN_FAILURE
from ..compare.differ import Subject
from .knobsearch import (
    Candidate,
    Evidence,
    Observation,
    generic_search,
    option_search,
    rank_profiles,
)

__all__ = [
    "MATCH_THRESHOLD",
    "Candidate",
    "Identification",
    "identify",
]

#: Below this share of reproduced answers no candidate is named: "no profile matches".
MATCH_THRESHOLD = 0.95

#: Generated corpora tried per separation round, and rounds at most.
_PROBES_PER_ROUND = 120

#: How many of the best profiles have their tools' options searched (all: a tool whose
#: setting differs in two options may rank low as it is).
_SEARCHED_BASES = len(PROFILES)
_ROUNDS = 4


@dataclass
class Identification:
    """Ranked candidates, the verdict, ties, and the separating evidence."""

    implementation: str
    version: str
    candidates: list[Candidate]
    answered: int
    skipped: int
    errored: int
    evidence: list[dict[str, Any]] = field(default_factory=list)
    verdict: str = "no-match"
    ties: list[Candidate] = field(default_factory=list)
    threshold: float = MATCH_THRESHOLD
    separating: int = 0
    knob_free_only: bool = False
    #: Failures of unknown kind (the implementation raised): not evidence either.
    failed: int = 0


def identify(
    subject: Subject,
    cases: Sequence[Case],
    *,
    refine: bool = True,
    threshold: float = MATCH_THRESHOLD,
    seed: int = 0,
) -> Identification:
    """Run ``subject`` on ``cases`` and name the profile (and options) it implements."""
    knob_free_only = subject.adapter.capabilities.knobs is None
    cases = _distinct(c for c in cases if not (knob_free_only and c.config))
    evidence = Evidence(subject)
    tally = _observe(subject, cases, evidence)
    found = Identification(
        subject.name,
        subject.version,
        [],
        len(evidence.observed),
        tally["skipped"],
        tally["errored"],
        failed=tally["failed"],
    )
    found.threshold, found.knob_free_only = threshold, knob_free_only
    if not evidence.scores:
        return found
    ranked = rank_profiles(evidence, list(PROFILES))
    if refine and ranked[0].share < 1.0:
        ranked = _refined(evidence, ranked)
    ranked = _separate(subject, evidence, ranked, seed, found)
    found.candidates = ranked
    best = ranked[0]
    found.ties = [
        c
        for c in ranked[1:]
        if c.generic == best.generic
        and c.share == best.share
        and evidence.tolerance(c.profile, c.overrides).rel
        <= evidence.tolerance(best.profile, best.overrides).rel
        and evidence.indistinguishable(c, best)
    ]
    found.verdict = (
        "match" if best.share == 1.0 else "closest" if best.share >= threshold else "no-match"
    )
    found.evidence = evidence.rows([best, *found.ties, *ranked[1:3]])
    return found


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


def _observe(subject: Subject, cases: Sequence[Case], evidence: Evidence) -> Counter[str]:
    """Add the usable observations to ``evidence``; count the cases skipped, errored or
    failed with an unknown kind (the implementation raised): none of these is evidence."""
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
            evidence.add(Observation(case, outcome))
    return tally


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
    found: Identification,
) -> list[Candidate]:
    """Ask generated corpora on which the leading candidates' predictions differ until one
    leads alone (or the probes run out); the candidates are re-counted on all evidence."""
    for round_ in range(_ROUNDS):
        leaders = [c for c in ranked if c.agreed == ranked[0].agreed and c.share > 0][:6]
        if len(leaders) < 2:
            break
        probes = generate_cases(_PROBES_PER_ROUND, seed=10_007 * (seed + 1) + round_)
        added = evidence.probe(subject, leaders, [*probes, *map(_tokenized, probes)])
        found.separating += added
        if not added:
            break
        ranked = evidence.sorted([evidence.recount(c) for c in ranked])
    found.answered = len(evidence.observed)
    return _unique(evidence, ranked)


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


def _tokenized(case: Case) -> Case:
    """``case`` as token lists, every third pair of neighbouring tokens joined into one
    token with a space inside (it separates tuple n-grams from joined strings)."""

    def tokens(text: Any) -> Any:
        if text is None:
            return None
        words, merged, i = text.split(), [], 0
        while i < len(words):
            if i % 3 == 1 and i + 1 < len(words):
                merged.append(f"{words[i]} {words[i + 1]}")
                i += 2
            else:
                merged.append(words[i])
                i += 1
        return tuple(merged)

    segments = tuple(
        Segment(tokens(s.hypothesis), tuple(tokens(r) for r in s.references))
        for s in case.input.segments
    )
    return replace(case, id=f"{case.id}-tokenized", input=Input("tokenized", segments))
