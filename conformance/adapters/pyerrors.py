"""Turn an exception raised by an in-process implementation into a :class:`Failure`."""

from __future__ import annotations

import traceback

from ..protocol import Failure

__all__ = ["failure_from", "message_of"]

#: Python exception type -> fixture error kind, where the mapping is unambiguous.
_KINDS = {"AssertionError": "assertion"}
#: How much of a message and of a traceback a failure keeps (a 100 MB message is no help).
_MESSAGE_CHARS, _TRACE_CHARS = 4000, 8000


def message_of(exc: BaseException) -> str:
    """``str(exc)``, or a note saying it cannot be shown (an ``__str__`` that raises)."""
    try:
        return str(exc)
    except Exception:
        return "(its message cannot be shown: str() failed)"


def failure_from(exc: BaseException, kind: str | None = None) -> Failure:
    """The implementation raised: keep the type, message and traceback; ``kind``: what an
    adapter knows the failure means (its library's documented error). An exception whose
    ``__str__`` or ``kind`` fails still becomes a failure."""
    try:
        kind = kind or getattr(exc, "kind", None) or _KINDS.get(type(exc).__name__)
    except Exception:
        kind = None
    message = f"{type(exc).__name__}: {message_of(exc)}".rstrip(": ")[:_MESSAGE_CHARS]
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return Failure(
        kind=kind if isinstance(kind, str) else None,
        message=message,
        stderr=trace[-_TRACE_CHARS:],
    )
