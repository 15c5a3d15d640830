"""An implementation that could not be started, kept so that a report can say so.

A corpus report asks every implementation about every system; one that fails to start (an
import error, ``sys.exit`` at import, a worker that gives no hello in time) becomes a column
of error cells carrying the reason, while the other implementations' report is complete.
"""

from __future__ import annotations

from typing import NoReturn

from ..protocol import AdapterError, Request
from .base import Adapter, Capabilities

__all__ = ["Unstarted"]


class Unstarted(Adapter):
    """Answers every request with the error that stopped ``spec`` from starting."""

    def __init__(self, spec: str, error: AdapterError) -> None:
        self.capabilities = Capabilities(name=spec, version="?", knobs=None)
        self.error = error

    def check(self, request: Request) -> None:
        return None  # nothing is skipped: every request is the start-up error

    def run(self, request: Request) -> NoReturn:
        raise self.error
