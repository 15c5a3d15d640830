"""Records to JSON and back, and their JSON Schema, all read off the records' type hints.

A record is a frozen dataclass whose fields are JSON-like: ``str``, ``int``, ``float``,
``bool``, ``None``, ``Literal`` values, tuples, ``Mapping[str, ...]``, other records, and
``Any`` (kept as it is). :func:`~conformance.protocol.jsonable` writes one; :func:`from_json`
rebuilds it from
data already validated against :func:`json_schema` (the schema the log's readers apply), so
the field types, the schema and the reader cannot drift apart. Non-finite floats are the
strings ``"nan"``, ``"inf"``, ``"-inf"`` in JSON (which has no such numbers).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

__all__ = ["from_json", "json_schema"]

T = TypeVar("T")

_NON_FINITE = ("nan", "inf", "-inf")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def _optional(tp: Any) -> tuple[bool, Any]:
    """(True, X) for ``X | None``."""
    if get_origin(tp) in (Union, types.UnionType):
        rest = [a for a in get_args(tp) if a is not type(None)]
        if len(rest) < len(get_args(tp)):
            return True, (rest[0] if len(rest) == 1 else Union[tuple(rest)])  # noqa: UP007
    return False, tp


def _build(tp: Any, value: Any) -> Any:
    if value is None or tp is Any:
        return value
    optional, inner = _optional(tp)
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
    hints = _hints(typing.cast(type, cls))
    names = {f.name for f in dataclasses.fields(typing.cast(Any, cls)) if f.init}
    values = {k: _build(hints[k], v) for k, v in data.items() if k in names}
    return cls(**values)


def _schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if tp is Any:
        return {}
    optional, inner = _optional(tp)
    if optional:
        return {"anyOf": [_schema(inner, defs), {"type": "null"}]}
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema(a, defs) for a in args]}
    if origin is typing.Literal:
        return {"enum": list(args)}
    if dataclasses.is_dataclass(tp):
        name = typing.cast(type, tp).__name__
        if name not in defs:
            defs[name] = {}  # recursion guard
            defs[name] = _object(typing.cast(type, tp), defs)
        return {"$ref": f"#/$defs/{name}"}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema(args[0], defs)}
        items = [_schema(a, defs) for a in args]
        return {"type": "array", "prefixItems": items, "minItems": len(args), "maxItems": len(args)}
    if origin in (Mapping, dict) or tp in (dict, Mapping):
        value = args[1] if args else Any
        return {"type": "object", "additionalProperties": _schema(value, defs)}
    return _SIMPLE[tp]


_SIMPLE: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"$ref": "#/$defs/number"},
}


def _object(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    hints = _hints(cls)
    fields = dataclasses.fields(typing.cast(Any, cls))
    required = [
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {f.name: _schema(hints[f.name], defs) for f in fields},
    }
    if cls.__doc__:
        schema["description"] = " ".join(cls.__doc__.split())
    if required:
        schema["required"] = required
    return schema


def json_schema(records: Mapping[str, type], title: str) -> dict[str, Any]:
    """A JSON Schema (2020-12) with one definition per record kind (``records``: kind ->
    record class) and per nested record; a line of the log is valid when it is an object
    whose ``record`` names a kind and whose fields match that kind's definition."""
    defs: dict[str, Any] = {
        "number": {
            "description": "a number; JSON has no NaN or infinity: those are strings",
            "anyOf": [{"type": "number"}, {"enum": list(_NON_FINITE)}],
        }
    }
    kinds = {kind: _schema(cls, defs) for kind, cls in records.items()}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        "type": "object",
        "required": ["record"],
        "properties": {"record": {"enum": list(records)}},
        "allOf": [
            {"if": {"properties": {"record": {"const": kind}}}, "then": ref}
            for kind, ref in kinds.items()
        ],
        "$defs": dict(sorted(defs.items())),
    }
