"""Every release of a library on every case, grouped into behaviour classes.

Each release runs as ``--impl LIBRARY==RELEASE`` (:mod:`conformance.adapters.releases`: its
own cached environment). Its answers become a :class:`Release` record; consecutive
releases whose answers are all equal (scores within the library's arithmetic tolerance,
failures of the same kind, the same skips) form a :class:`Behaviour`, named by the profile
of the library that reproduces every answer it can express (or none), with the first case
on which it differs from the previous class.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from bleu_impl import PROFILES

from ..adapters.bleu_impl_adapter import BleuImplAdapter
from ..adapters.libraries import release_key
from ..adapters.releases import pinned
from ..cases import Case, ExpectationKey, Tolerance
from ..protocol import AdapterError
from ..results.records import Behaviour, Release, Side
from ..results.vocab import ANSWERED
from .asking import ask, build_request
from .compare.pairs import side_of
from .subjects import FLOAT32_TOLERANCE

__all__ = [
    "available_releases",
    "behaviour_classes",
    "candidates",
    "release_notes",
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
        return Release(library, release, error=_condensed(exc.message))
    try:
        scale = adapter.capabilities.scale
        answers = {}
        for case in cases:
            reply = ask(adapter, build_request(case))
            answers[case.id] = side_of(reply, reply.outcome(scale))
        return Release(library, release, adapter.capabilities.version, answers=answers)
    finally:
        adapter.close()


def _condensed(error: str) -> str:
    """An error on one line: terminal colors, rules of stars and runs of space removed."""
    plain = re.sub(r"\x1b\[[0-9;]*m|\*{3,}", " ", error)
    return " ".join(plain.split())[:400]


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


#: A candidate: its name in reports, its profile and the knobs on top.
Candidate = tuple[str, str, Mapping[str, Any]]


def candidates(library: str, keys: Mapping[str, ExpectationKey]) -> list[Candidate]:
    """The settings that may reproduce a release of ``library``: the profiles named for it
    and the expectation keys named for it (``nltk-3.1`` is papineni2002 as 3.1 behaved)."""
    own: list[Candidate] = [
        (p, p, {}) for p in PROFILES if p == library or p.startswith(f"{library}-")
    ]
    named = [
        (k, key.profile, key.knobs)
        for k, key in keys.items()
        if k.startswith(library) and key.profile and k not in PROFILES
    ]
    return [*own, *named]


def _agreement(
    candidate: Candidate, answers: Mapping[str, Side], cases: Iterable[Case], tol: Tolerance
) -> tuple[int, int, int]:
    """(agreed, compared, raised alike): of the cases the candidate can express, those the
    release answered with a score or a failure of a known kind; and of those it raised on
    (a failure of no known kind, not evidence), those on which the candidate fails too."""
    _, profile, knobs = candidate
    adapter = BleuImplAdapter(profile, knobs=knobs)
    agreed = compared = alike = 0
    for case in cases:
        theirs = answers.get(case.id)
        if theirs is None or theirs.status != ANSWERED:
            continue
        reply = ask(adapter, build_request(case))
        if reply.status != ANSWERED:
            continue
        ours = side_of(reply, reply.outcome(1))
        if theirs.failure == "unknown":
            alike += ours.failure is not None
            continue
        compared += 1
        agreed += same_side(ours, theirs, tol)
    return agreed, compared, alike


def _named(
    behaviour: Behaviour,
    first: Release,
    found: Sequence[Candidate],
    cases: Sequence[Case],
    tol: Tolerance,
) -> Behaviour:
    """``behaviour`` with the candidate that reproduces every answer it can express (else
    the nearest: the largest share reproduced); on a tie, the one failing where the release
    raised, then the first listed (a profile)."""
    scored = []
    for rank, candidate in enumerate(found):
        agreed, compared, alike = _agreement(candidate, first.answers, cases, tol)
        share = agreed / max(compared, 1)
        matched = compared > 0 and agreed == compared
        scored.append((matched, share, alike, compared, -rank, candidate[0], agreed))
    if not scored:
        return behaviour
    matched, _, _, compared, _, name, agreed = max(scored)
    failed = sum(a.status == ANSWERED and a.failure == "unknown" for a in first.answers.values())
    return replace(
        behaviour,
        profile=name if matched else None,
        nearest=name,
        agreed=agreed,
        compared=compared,
        failed=failed,
    )


def _groups(records: Sequence[Release], tol: Tolerance) -> list[list[Release]]:
    """Releases with the same answers, each group consecutive among the releases that
    answered (a release that could not run between two alike does not split them), and
    consecutive releases failing alike; in order of their first release."""
    groups: list[list[Release]] = []
    last_answering: list[Release] | None = None
    for record in records:
        if record.error:
            if groups and groups[-1][0].error and _same(groups[-1][0], record, tol):
                groups[-1].append(record)
            else:
                groups.append([record])
        elif last_answering is not None and _same(last_answering[0], record, tol):
            last_answering.append(record)
        else:
            last_answering = [record]
            groups.append(last_answering)
    return groups


def behaviour_classes(
    records: Sequence[Release], cases: Sequence[Case], keys: Mapping[str, ExpectationKey]
) -> list[Behaviour]:
    """The behaviour classes of ``records`` (in release order)."""
    if not records:
        return []
    library = records[0].library
    arithmetic = PROFILES[library].resolve({}).arithmetic if library in PROFILES else "float64"
    tol = FLOAT32_TOLERANCE if arithmetic != "float64" else _TOLERANCE
    found = candidates(library, keys)
    classes: list[Behaviour] = []
    previous: Release | None = None
    last = ""  # the previous answering class's last release
    for group in _groups(records, tol):
        first = group[0]
        behaviour = Behaviour(library, tuple(r.release for r in group), error=first.error)
        if not first.error:
            behaviour = _named(behaviour, first, found, cases, tol)
            if behaviour.profile is None:
                why = release_notes().get("unmatched", {}).get(library, {})
                behaviour = replace(behaviour, why=why.get(first.release, ""))
            if previous is not None:
                behaviour = _separated(behaviour, previous, first, tol)
                behaviour = replace(behaviour, notes=_notes_between(library, last, first.release))
            previous, last = first, group[-1].release
        classes.append(behaviour)
    return classes


@functools.cache
def release_notes() -> dict[str, Any]:
    """``fixtures/release-notes.yaml``: per library, its notes' ``sources``, per release
    the quotations that explain a change of BLEU, and (``unmatched``) per first release of
    a class no profile matches, why."""
    import yaml  # only a sweep reads the notes: `versions --help` loads no YAML

    from ..cases.implementations import BUNDLED_ROOT, RELEASE_NOTES_FILE

    data: dict[str, Any] = yaml.safe_load((BUNDLED_ROOT / RELEASE_NOTES_FILE).read_text("utf-8"))
    return data


def _notes_between(library: str, after: str, upto: str) -> tuple[str, ...]:
    """The quoted notes of the releases of ``library`` after ``after`` up to ``upto``."""
    data = release_notes()
    source = data["sources"].get(library, "")
    low, high = release_key(after), release_key(upto)
    return tuple(
        f'{release}: "{words}" ({source})'
        for release, quotes in data["notes"].get(library, {}).items()
        if low < release_key(release) <= high
        for words in quotes
    )


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
    ends = before.answers.get(case), after.answers.get(case)
    return replace(behaviour, differing=len(differing), case=case, before=ends[0], after=ends[1])
