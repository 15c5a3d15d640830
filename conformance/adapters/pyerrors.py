"""Turn an exception raised by an in-process implementation into a :class:`Failure`."""

from __future__ import annotations

import traceback

from ..protocol import Failure

#: Python exception type -> fixture error kind, where the mapping is unambiguous.
_KINDS = {"AssertionError": "assertion"}


def failure_from(exc: BaseException, kind: str | None = None) -> Failure:
    """The implementation raised: keep the type, message and traceback; ``kind``: what an
    adapter knows the failure means (its library's documented error)."""
    kind = kind or getattr(exc, "kind", None) or _KINDS.get(type(exc).__name__)
    message = f"{type(exc).__name__}: {exc}".rstrip(": ")
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return Failure(kind=kind if isinstance(kind, str) else None, message=message, stderr=trace)
