"""identify's verdict, decided by ``run --as``'s own check.

A candidate (profile + knobs, at a scale) is named only when
:func:`~conformance.engine.verify_as.verify_as` -- the code behind ``run --as P --knob k=v``
-- passes every fixture case with it; otherwise the verdict is "no profile matches" and the
nearest candidate's smallest failing cases (wrong answers before errors, fewest tokens
first) are what a maintainer acts
on. A candidate at a constant factor off the declared scale, or answers printed to fewer
decimals than declared, are checked as if declared (each is a finding of its own, and
never a match: ``run`` with what is declared fails them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...cases import Case, ExpectationKey
from ...results.records import Candidate, CaseResult
from ...results.vocab import ERROR, FAIL
from ..subjects import Subject
from ..verify_as import as_command, make_reference, passes, verify_as

__all__ = ["Check", "confirm", "worst_first"]

#: Failing cases shown with a "no profile matches" verdict.
_SHOWN = 5


@dataclass(frozen=True)
class Check:
    """``run --as`` on one candidate: whether it passed, its outcomes, its smallest
    failing cases, and the options that repeat it."""

    candidate: Candidate
    passed: bool
    command: str
    outcomes: Mapping[str, int]
    failing: tuple[Mapping[str, Any], ...]
    failed: frozenset[str] = frozenset()  # every failing case's id


def confirm(
    subject: Subject,
    candidates: Sequence[Candidate],
    keys: Mapping[str, ExpectationKey],
    cases: Sequence[Case],
    decimals: int | None = None,
) -> Check:
    """The first of ``candidates`` that ``run --as`` passes on ``cases``, else the check
    of the first one. A constant factor off the declared scale, and ``decimals`` printed
    but not declared, are checked as if declared (and never pass: ``run`` fails them)."""
    checks = []
    for cand in candidates:
        check = _check(subject, cand, keys, cases, decimals)
        if check.passed:
            return check
        checks.append(check)
    return checks[0]


def _check(
    subject: Subject,
    cand: Candidate,
    keys: Mapping[str, ExpectationKey],
    cases: Sequence[Case],
    decimals: int | None,
) -> Check:
    knobs = dict(cand.overrides)
    command = as_command(cand.profile, knobs)
    reference = make_reference(cand.profile, keys, knobs)
    adapter = subject.adapter
    declared = adapter.capabilities
    scale = round(declared.scale * cand.scale)
    undeclared: dict[str, Any] = (
        {"scale": scale} if scale != declared.scale and scale in (1, 100) else {}
    )
    if decimals is not None and declared.precision is None:
        undeclared["precision"] = decimals
    try:
        adapter.capabilities = replace(declared, **undeclared)
        results = verify_as(adapter, cases, reference)
    finally:
        adapter.capabilities = declared
    if undeclared:
        said = ", ".join(f"bleu_{k}={v}" for k, v in undeclared.items())
        command += f" (the implementation declaring {said})"
    outcomes: dict[str, int] = dict(Counter(r.outcome for r in results))
    failing = worst_first(results, cases)
    return Check(
        cand,
        passes(results) and not undeclared,
        command,
        outcomes,
        tuple(_shown(r) for r in failing[:_SHOWN]),
        frozenset(r.case_id for r in failing),
    )


def worst_first(results: Sequence[CaseResult], cases: Sequence[Case]) -> list[CaseResult]:
    """The failed and errored results, wrong answers first (a maintainer acts on a wrong
    number; an error may be a refusal), each group the smallest input first."""
    sizes = {c.id: _size(c) for c in cases}
    return sorted(
        (r for r in results if r.outcome in (FAIL, ERROR)),
        key=lambda r: (r.outcome != FAIL, sizes.get(r.case_id, 0), r.case_id),
    )


def _size(case: Case) -> int:
    """The tokens of the case's input: the smallest failing case is the easiest to read."""
    return sum(
        len(str(s.hypothesis).split()) + sum(len(str(r).split()) for r in s.references)
        for s in case.input.segments
    )


def _shown(result: CaseResult) -> dict[str, Any]:
    expected = result.expected or {}
    return {
        "item": result.case_id,
        "outcome": result.outcome,
        "expected": expected.get("score", expected.get("error", "")),
        "got": _answer(result.got),
        "why": result.reason,
    }


def _answer(got: Mapping[str, Any] | None) -> Any:
    """The score, or the failure in one line (its kind and message; the traceback is in
    the log)."""
    if not got:
        return ""
    failure = got.get("failure")
    if isinstance(failure, Mapping):
        return f"{failure.get('kind') or 'raised'}: {failure.get('message', '')}"
    return got.get("score", failure or "")
