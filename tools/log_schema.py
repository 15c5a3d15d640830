"""Write conformance/schemas/log.schema.json from the records' type hints.

usage: python -m tools.log_schema   (tests/conformance/results/test_log.py checks it is current)
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Union, get_args, get_origin

from conformance.results.codec import field_types, optional_type
from conformance.results.records import RECORDS

_NON_FINITE = ("nan", "inf", "-inf")

PATH = Path(__file__).resolve().parent.parent / "conformance" / "schemas" / "log.schema.json"


def _schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if tp is Any:
        return {}
    optional, inner = optional_type(tp)
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
    hints = field_types(cls)
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


def text() -> str:
    schema = json_schema(RECORDS, "A line of a bleu-conformance log (format version 3)")
    return json.dumps(schema, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(text(), encoding="utf-8")
    print(f"wrote {PATH}")
