"""Which cases a command works on: ``-k`` patterns and ``--tag``."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from .model import Case

__all__ = ["matches_keyword", "select_cases"]


def matches_keyword(case: Case, patterns: Sequence[str]) -> bool:
    """Any pattern matches the case id, file or a tag: a glob, else a substring (any case)."""
    if not patterns:
        return True
    haystacks = [case.id, case.node_id, *case.tags]
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
