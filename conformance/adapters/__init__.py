"""Adapters: every implementation under test behind one interface (:class:`Adapter`)."""

from .base import Adapter, Capabilities, distinct_name, unexpressible
from .specs import ENTRY_POINT_GROUP, make_adapter
from .unstarted import Unstarted

__all__ = [
    "ENTRY_POINT_GROUP",
    "Adapter",
    "Capabilities",
    "Unstarted",
    "distinct_name",
    "make_adapter",
    "unexpressible",
]
