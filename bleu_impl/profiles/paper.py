"""The paper's definition (Papineni et al. 2002): the generic profile every knob varies."""

from __future__ import annotations

from .model import Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="papineni2002",
        summary="The paper's definition: corpus modified precision, closest reference "
        "length, no smoothing (a zero precision makes the score 0).",
        source="Papineni, Roukos, Ward, Zhu (2002), ACL, P02-1040, sections 2.1-2.2",
        defaults={"tokenize": "none", "ref_length": "closest", "smoothing": "none"},
        options=None,  # the definition itself: every knob is a variation of it
    ),
)
