"""Records from JSON, read off the records' type hints (which also give the log's schema:
``tools/log_schema.py``).

A record is a frozen dataclass whose fields are JSON-like: ``str``, ``int``, ``float``,
``bool``, ``None``, ``Literal`` values, tuples, ``Mapping[str, ...]``, other records, and
``Any`` (kept as it is). :func:`~conformance.protocol.jsonable` writes one; :func:`from_json`
rebuilds it from data already validated against the log's schema, which is derived from the
same types, so the field types, the schema and the reader cannot drift apart. Non-finite
floats are the strings ``"nan"``, ``"inf"``, ``"-inf"`` in JSON (which has no such numbers).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

__all__ = ["field_types", "from_json", "optional_type"]

T = TypeVar("T")


@functools.cache
def field_types(cls: type) -> dict[str, Any]:
    """A record's fields and their types."""
    return get_type_hints(cls)


def optional_type(tp: Any) -> tuple[bool, Any]:
    """(True, X) for ``X | None``; (False, ``tp``) otherwise."""
    if get_origin(tp) in (Union, types.UnionType):
        rest = [a for a in get_args(tp) if a is not type(None)]
        if len(rest) < len(get_args(tp)):
            return True, (rest[0] if len(rest) == 1 else Union[tuple(rest)])  # noqa: UP007
    return False, tp


def _build(tp: Any, value: Any) -> Any:
    if value is None or tp is Any:
        return value
    optional, inner = optional_type(tp)
    if optional:
        return _build(inner, value)
    origin = get_origin(tp)
    if dataclasses.is_dataclass(tp):
        return from_json(typing.cast(type, tp), value)
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], v) for v in value)
        return tuple(_build(a, v) for a, v in zip(args, value))
    if origin in (Mapping, dict) or tp in (dict, Mapping):
        args = get_args(tp) or (str, Any)
        return {k: _build(args[1], v) for k, v in value.items()}
    if tp is float:
        return float(value)  # an int, or one of the non-finite strings
    return value


def from_json(cls: type[T], data: Mapping[str, Any]) -> T:
    """The record ``cls`` from ``data`` (validated against its schema); unknown fields are
    ignored, absent ones take their defaults."""
    hints = field_types(typing.cast(type, cls))
    names = {f.name for f in dataclasses.fields(typing.cast(Any, cls)) if f.init}
    values = {k: _build(hints[k], v) for k, v in data.items() if k in names}
    return cls(**values)
