"""Which cases to run (``-k``, ``--tag``) and which expectation of a case an adapter meets."""

from __future__ import annotations

import argparse
import fnmatch
import re
from collections.abc import Mapping, Sequence
from typing import Any

from conformance.fixtures import Case

from ..adapters.base import Capabilities


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    """``-k``, ``--tag`` and ``--fixtures``: which fixture cases a command works on."""
    parser.add_argument(
        "-k",
        dest="keywords",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only cases whose id, file or tag contains PATTERN (or matches "
        "it as a glob); repeatable, any matches",
    )
    parser.add_argument(
        "--tag",
        dest="tags",
        action="append",
        default=[],
        metavar="TAG",
        help="only cases with this tag (repeatable, any matches)",
    )
    parser.add_argument(
        "--fixtures",
        action="append",
        default=[],
        metavar="PATH",
        help="fixture files or directories (default: the bundled library)",
    )


def node_id(case: Case) -> str:
    return f"{case.file}::{case.id}" if case.file else case.id


def matches_keyword(case: Case, patterns: Sequence[str]) -> bool:
    """Any pattern matches the case id, file or a tag: a glob, else a substring (any case)."""
    if not patterns:
        return True
    haystacks = [case.id, node_id(case), *case.tags]
    for pattern in patterns:
        p = pattern.lower()
        if any(ch in p for ch in "*?["):
            if any(fnmatch.fnmatchcase(h.lower(), p) for h in haystacks):
                return True
        elif any(p in h.lower() for h in haystacks):
            return True
    return False


def select_cases(
    cases: Sequence[Case], keywords: Sequence[str] = (), tags: Sequence[str] = ()
) -> list[Case]:
    """Cases matching any ``-k`` pattern and carrying any of ``tags`` (when given)."""
    wanted = set(tags)
    return [
        c
        for c in cases
        if matches_keyword(c, keywords) and (not wanted or wanted.intersection(c.tags))
    ]


def _version(text: str) -> tuple[int, ...] | None:
    match = re.match(r"\s*v?(\d+(?:\.\d+)*)", text)
    return tuple(int(p) for p in match.group(1).split(".")) if match else None


def candidate_keys(
    caps: Capabilities, implementations: Mapping[str, Any], override: Sequence[str] = ()
) -> list[str]:
    """Expectation keys this adapter answers for, most specific first.

    ``override`` (``--expect``) wins. Otherwise each name in ``caps.expect`` stands for the
    key itself and for version-range keys ``NAME>=X`` with X <= the adapter's live version.
    """
    if override:
        return list(override)
    live = _version(caps.version)
    keys: list[str] = []
    for name in caps.expect:
        ranged: list[tuple[tuple[int, ...], str]] = []
        for key in implementations:
            if key.startswith(f"{name}>="):
                low = _version(key[len(name) + 2 :])
                if low is not None and live is not None and low <= live:
                    ranged.append((low, key))
        keys.extend(k for _, k in sorted(ranged, reverse=True))
        keys.append(name)
    return list(dict.fromkeys(keys))


def choose_key(case: Case, candidates: Sequence[str]) -> str | None:
    """The first candidate key the case has an expectation for."""
    return next((k for k in candidates if k in case.expected), None)
