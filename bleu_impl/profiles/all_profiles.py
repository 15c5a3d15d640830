"""Every profile by name, and resolution with a cache for per-segment callers."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..errors import KnobError
from ..knobs import Config
from . import (
    allennlp,
    coco,
    codexglue,
    comparemt,
    fairseq,
    fastbleu,
    google,
    ignite,
    kerashub,
    nltk,
    paper,
    parlai,
    perl,
    sacrebleu,
    torcheval,
    torchmetrics,
    torchtext,
)
from .model import Profile

__all__ = ["PROFILES", "get_profile", "resolve_cached"]

#: Every profile, in documentation order: the paper, the scripts, the libraries.
PROFILES: Mapping[str, Profile] = MappingProxyType(
    {
        p.name: p
        for family in (
            paper,
            perl,
            nltk,
            sacrebleu,
            google,
            torchmetrics,
            coco,
            ignite,
            torcheval,
            fastbleu,
            torchtext,
            codexglue,
            fairseq,
            kerashub,
            allennlp,
            parlai,
            comparemt,
        )
        for p in family.PROFILES
    }
)


def get_profile(name: str) -> Profile:
    """Return the profile called ``name`` (the error lists the valid names)."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KnobError(
            f"unknown profile {name!r}; valid profiles: {', '.join(PROFILES)}"
        ) from None


_RESOLVED: dict[tuple[int, str, tuple[tuple[str, Any], ...]], tuple[Profile, Config]] = {}
_RESOLVED_MAX = 256


def resolve_cached(profile: Profile, knobs: Mapping[str, Any], level: str) -> Config:
    """``profile.resolve(knobs, level)``, remembered for hashable knob values (a
    ``sentence_bleu`` per segment resolves the same knobs over and over)."""
    try:
        key = (id(profile), level, tuple(sorted(knobs.items())))
        hash(key)
    except TypeError:
        return profile.resolve(knobs, level)
    hit = _RESOLVED.get(key)
    if hit is not None and hit[0] is profile:
        return hit[1]
    config = profile.resolve(knobs, level)
    if len(_RESOLVED) >= _RESOLVED_MAX:
        _RESOLVED.clear()
    _RESOLVED[key] = (profile, config)  # holding the profile keeps its id unique
    return config
