"""Adapters: every implementation under test behind one interface (:class:`Adapter`)."""

from .base import Adapter, Capabilities, call_with_timeout, unexpressible
from .registry import ENTRY_POINT_GROUP, make_adapter

__all__ = [
    "ENTRY_POINT_GROUP",
    "Adapter",
    "Capabilities",
    "call_with_timeout",
    "make_adapter",
    "unexpressible",
]
