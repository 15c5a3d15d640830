"""Every release of a library on every case, grouped into behaviour classes.

Each release runs as ``--impl LIBRARY==RELEASE`` (:mod:`conformance.adapters.releases`: its
own cached environment). Its answers become a :class:`Release` record; consecutive
releases whose answers are all equal (scores within the library's arithmetic tolerance,
failures of the same kind, the same skips) form a :class:`Behaviour`, named by the profile
of the library that reproduces every answer it can express (or none), with the first case
on which it differs from the previous class.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from bleu_impl import PROFILES

from ..adapters.bleu_impl_adapter import BleuImplAdapter
from ..adapters.libraries import release_key
from ..adapters.releases import pinned
from ..cases import Case, Tolerance
from ..protocol import AdapterError
from ..results.records import Behaviour, Release, Side
from ..results.vocab import ANSWERED
from .asking import ask, build_request
from .compare.pairs import side_of
from .subjects import FLOAT32_TOLERANCE

__all__ = [
    "available_releases",
    "behaviour_classes",
    "run_release",
    "run_releases",
    "same_side",
]

#: Two float64 answers of one library's releases agree to 1e-9 relative (sums of logs in
#: another order); float32 libraries to float32's tolerance.
_TOLERANCE = Tolerance(rel=1e-9)


def available_releases(package: str) -> list[str]:
    """The final releases of ``package`` on the index, oldest first (``pip index
    versions``); RuntimeError with pip's words when it cannot say."""
    run = subprocess.run(
        [sys.executable, "-m", "pip", "index", "versions", package],
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"Available versions: (.*)", run.stdout)
    if run.returncode != 0 or found is None:
        said = (run.stderr or run.stdout).strip().splitlines()[-1:] or ["no answer"]
        raise RuntimeError(f"cannot list the releases of {package}: {said[0]}")
    names = [v.strip() for v in found.group(1).split(",")]
    final = [v for v in names if re.fullmatch(r"[0-9]+(\.[0-9]+)*(\.post[0-9]+)?", v)]
    return sorted(final, key=release_key)


def run_release(library: str, release: str, cases: Sequence[Case]) -> Release:
    """``library==release`` asked every case (an install or start failure: ``error``)."""
    try:
        adapter = pinned(f"{library}=={release}")
    except AdapterError as exc:
        return Release(library, release, error=exc.message)
    try:
        scale = adapter.capabilities.scale
        answers = {}
        for case in cases:
            reply = ask(adapter, build_request(case))
            answers[case.id] = side_of(reply, reply.outcome(scale))
        return Release(library, release, adapter.capabilities.version, answers=answers)
    finally:
        adapter.close()


def run_releases(
    library: str,
    releases: Sequence[str],
    cases: Sequence[Case],
    jobs: int,
    done: Callable[[Release], None],
) -> None:
    """:func:`run_release` for each release, ``jobs`` at a time; ``done`` gets each record
    in release order."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for record in pool.map(lambda r: run_release(library, r, cases), releases):
            done(record)


def same_side(a: Side, b: Side, tolerance: Tolerance = _TOLERANCE) -> bool:
    """Whether two answers are the same behaviour (skips and errors by status only)."""
    if a.status != b.status or a.failure != b.failure:
        return False
    if a.status != ANSWERED or a.score is None or b.score is None:
        return a.score == b.score
    return tolerance.agree(a.score, b.score)


def _same(a: Release, b: Release, tolerance: Tolerance) -> bool:
    if a.error or b.error:
        return bool(a.error and b.error) and _short(a.error) == _short(b.error)
    return a.answers.keys() == b.answers.keys() and all(
        same_side(a.answers[k], b.answers[k], tolerance) for k in a.answers
    )


def _short(error: str) -> str:
    """An error without the release number (two releases failing alike are one class)."""
    return re.sub(r"==[0-9][^ :]*|[0-9]+(\.[0-9]+)+", "", error)


def _profiles_of(library: str) -> list[str]:
    return [p for p in PROFILES if p == library or p.startswith(f"{library}-")]


def _agreement(
    profile: str, answers: Mapping[str, Side], cases: Iterable[Case], tolerance: Tolerance
) -> tuple[int, int]:
    """(agreed, compared): of the cases the profile can express and the release answered."""
    adapter = BleuImplAdapter(profile)
    agreed = compared = 0
    for case in cases:
        theirs = answers.get(case.id)
        if theirs is None or theirs.status != ANSWERED:
            continue
        reply = ask(adapter, build_request(case))
        if reply.status != ANSWERED:
            continue
        compared += 1
        agreed += same_side(side_of(reply, reply.outcome(1)), theirs, tolerance)
    return agreed, compared


def _named(
    behaviour: Behaviour, first: Release, cases: Sequence[Case], tol: Tolerance
) -> Behaviour:
    """``behaviour`` with the profile that reproduces every answer it can express (else the
    nearest: the largest share reproduced)."""
    scored = []
    for profile in _profiles_of(first.library):
        agreed, compared = _agreement(profile, first.answers, cases, tol)
        scored.append(
            (
                compared > 0 and agreed == compared,
                agreed / max(compared, 1),
                profile,
                agreed,
                compared,
            )
        )
    if not scored:
        return behaviour
    matched, _, profile, agreed, compared = max(scored)
    return replace(
        behaviour,
        profile=profile if matched else None,
        nearest=profile,
        agreed=agreed,
        compared=compared,
    )


def behaviour_classes(records: Sequence[Release], cases: Sequence[Case]) -> list[Behaviour]:
    """The behaviour classes of ``records`` (in release order)."""
    if not records:
        return []
    library = records[0].library
    arithmetic = PROFILES[library].resolve({}).arithmetic if library in PROFILES else "float64"
    tol = FLOAT32_TOLERANCE if arithmetic != "float64" else _TOLERANCE
    groups: list[list[Release]] = []
    for record in records:
        if groups and _same(groups[-1][0], record, tol):
            groups[-1].append(record)
        else:
            groups.append([record])
    classes: list[Behaviour] = []
    previous: Release | None = None
    for group in groups:
        first = group[0]
        behaviour = Behaviour(library, tuple(r.release for r in group), error=first.error)
        if not first.error:
            behaviour = _named(behaviour, first, cases, tol)
            if previous is not None:
                behaviour = _separated(behaviour, previous, first, tol)
            previous = first
        classes.append(behaviour)
    return classes


def _separated(behaviour: Behaviour, before: Release, after: Release, tol: Tolerance) -> Behaviour:
    """``behaviour`` with the first case where ``after`` answers otherwise than ``before``,
    preferring a case both answered with a score."""
    differing = [
        k
        for k in after.answers
        if k in before.answers and not same_side(before.answers[k], after.answers[k], tol)
    ]
    scored = [
        k
        for k in differing
        if before.answers[k].score is not None and after.answers[k].score is not None
    ]
    case = (scored or differing or [""])[0]
    return Behaviour(
        **{
            **behaviour.__dict__,
            "differing": len(differing),
            "case": case,
            "before": before.answers.get(case),
            "after": after.answers.get(case),
        }
    )
