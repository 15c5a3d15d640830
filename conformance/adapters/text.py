"""Text shapes across the adapter boundary: tokens, joined lines, reference streams."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..protocol import Request, Text

__all__ = ["as_line", "joinable", "split_tokens", "to_streams"]


def split_tokens(text: Text) -> list[str]:
    """Tokens of a raw string (``str.split()``) or a token sequence as given."""
    return text.split() if isinstance(text, str) else list(text)


def as_line(text: Text | None) -> str:
    """One line of a text file: a raw string as is, tokens joined by spaces, None empty."""
    if text is None:
        return ""
    return text if isinstance(text, str) else " ".join(text)


def joinable(request: Request) -> bool:
    """True when tokenized input can be joined with spaces without changing its tokens."""

    def ok(tokens: Any) -> bool:
        return tokens is None or all(t and not any(c.isspace() for c in t) for t in tokens)

    return all(ok(h) for h in request.hypotheses) and all(
        ok(r) for refs in request.references for r in refs
    )


def to_streams(references: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Per-segment reference lists -> reference streams ``refs[k][i]`` (sacrebleu's layout;
    ``None`` where segment i has no k-th reference)."""
    width = max((len(r) for r in references), default=0)
    return [[refs[k] if k < len(refs) else None for refs in references] for k in range(width)]
