"""A tiny request that in-process adapters answer once to warm up (imports, first call)."""

from __future__ import annotations

from ..protocol import Request

__all__ = ["WARM_UP_REQUEST"]

#: One four-token segment, matched exactly: valid for every tool at every order up to 4.
WARM_UP_REQUEST = Request(
    level="corpus",
    config={},
    hypotheses=("the cat sat down",),
    references=(("the cat sat down",),),
)
