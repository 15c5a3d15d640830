"""Run fixture cases through adapters and classify every (implementation, case) pair.

Per case: choose the expectation key the adapter answers for, build the request from the
case *without* its expectations, decide expressibility (skip) before sending anything, ask,
compare, then apply known failures. An adapter error never stops the run.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bleu_impl import BleuError, get_profile
from conformance.fixtures import Case

from .. import known_failures
from ..adapters.base import Adapter
from ..results import (
    ERROR,
    SKIP,
    AdapterError,
    CaseResult,
    ImplementationInfo,
    Request,
)
from .compare import compare, expected_summary
from .select import candidate_keys, choose_key, node_id


def build_request(case: Case, implementation: Any | None = None) -> Request:
    """The question for ``case``, without its expectations.

    ``config`` is the complete semantics being checked: the expectation key's profile
    resolved with the key's knobs and the case's knobs on top (just those knobs when the key
    has no profile). Raises KnobError when they do not resolve.
    """
    knobs = dict(getattr(implementation, "knobs", None) or {})
    knobs.update(case.config)
    profile = getattr(implementation, "profile", None)
    if profile:
        knobs = get_profile(profile).resolve(knobs, case.level).as_dict()
    return Request(
        level=case.level,
        config=knobs,
        hypotheses=tuple(case.input.hypotheses),
        references=tuple(tuple(refs) for refs in case.input.references),
        input_format=case.input.format,
        case_knobs=frozenset(case.config),
    )


def implementation_info(spec: str, adapter: Adapter, expect: Sequence[str]) -> ImplementationInfo:
    caps = adapter.capabilities
    return ImplementationInfo(
        name=caps.name,
        version=caps.version,
        spec=spec,
        signature=caps.signature,
        expect_key=", ".join(expect),
        capabilities=caps.to_json(),
    )


def run_case(
    adapter: Adapter,
    case: Case,
    implementations: Mapping[str, Any],
    candidates: Sequence[str],
    known: Sequence[known_failures.KnownFailure] = (),
    *,
    observe: bool = False,
) -> CaseResult:
    """Classify one case on one adapter (never raises for implementation problems).

    With ``observe`` a case without an expectation for the adapter is still run when it can
    be expressed: it stays a skip, but its answer is recorded (for regression baselines).
    """
    caps = adapter.capabilities
    base: dict[str, Any] = {
        "implementation": caps.name,
        "case_id": case.id,
        "file": case.file,
        "tags": tuple(case.tags),
    }
    key = choose_key(case, candidates)
    if key is None:
        wanted = ", ".join(candidates) or "(none declared)"
        reason = f"no expectation for {wanted}"
        if observe:
            return _observe(adapter, case, reason, base)
        return CaseResult(outcome=SKIP, reason=reason, **base)
    exp = case.expected[key]
    base.update(expect_key=key, expected=expected_summary(exp))
    try:
        request = build_request(case, implementations.get(key))
    except BleuError as exc:
        return CaseResult(outcome=ERROR, reason=f"the case's knobs do not resolve: {exc}", **base)
    reason = adapter.check(request)
    if reason is not None:
        return CaseResult(outcome=SKIP, reason=reason, **base)
    started = time.perf_counter()
    try:
        answer = adapter.run(request)
    except AdapterError as exc:
        outcome, why, mismatches = ERROR, f"{exc.kind}: {exc.message}", []
        got, stderr = {}, exc.stderr
    except Exception as exc:  # a bug in an adapter must not stop the run
        outcome, why, mismatches = ERROR, f"adapter bug: {type(exc).__name__}: {exc}", []
        got, stderr = {}, traceback.format_exc()
    else:
        outcome, why, mismatches = compare(exp, answer, caps)
        got = answer.reported()
        stderr = answer.failure.stderr if answer.failure else answer.stderr
    duration = time.perf_counter() - started
    entry = known_failures.find(known, caps.name, case.id, node_id(case))
    return CaseResult(
        outcome=known_failures.apply(outcome, entry),
        reason=why,
        mismatches=tuple(mismatches),
        got=got,
        stderr=stderr[-4000:],
        known_failure=entry.to_json() if entry else None,
        duration=round(duration, 6),
        **base,
    )


def _observe(adapter: Adapter, case: Case, reason: str, base: dict[str, Any]) -> CaseResult:
    """Run a case that has no expectation for this adapter, only to record the answer."""
    request = build_request(case)
    why = adapter.check(request)
    if why is not None:
        return CaseResult(outcome=SKIP, reason=f"{reason}; {why}", **base)
    try:
        got = adapter.run(request).reported()
    except AdapterError as exc:
        got = {"failure": {"kind": exc.kind, "message": exc.message}}
    except Exception as exc:  # a bug in an adapter must not stop the run
        got = {"failure": {"kind": "adapter-bug", "message": f"{type(exc).__name__}: {exc}"}}
    return CaseResult(outcome=SKIP, reason=f"{reason} (answer recorded)", got=got, **base)


def startup_failure(spec: str, error: AdapterError, cases: Iterable[Case]) -> list[CaseResult]:
    """Every case errors when the implementation cannot even be started or imported."""
    return [
        CaseResult(
            implementation=spec,
            case_id=case.id,
            file=case.file,
            outcome=ERROR,
            reason=f"{error.kind}: {error.message}",
            stderr=error.stderr[-4000:],
            tags=tuple(case.tags),
        )
        for case in cases
    ]


def run_adapter(
    adapter: Adapter,
    cases: Sequence[Case],
    implementations: Mapping[str, Any],
    *,
    expect: Sequence[str] = (),
    known: Sequence[known_failures.KnownFailure] = (),
    on_result: Callable[[CaseResult], None] | None = None,
    observe: bool = False,
) -> list[CaseResult]:
    """Run ``cases`` through ``adapter`` in order; ``on_result`` sees each result."""
    candidates = candidate_keys(adapter.capabilities, implementations, expect)
    results = []
    for case in cases:
        result = run_case(adapter, case, implementations, candidates, known, observe=observe)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results
