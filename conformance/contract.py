"""The published JSON Schemas and the one check of data against them.

``schemas/protocol.schema.json`` is the implementation protocol's contract
(``docs/protocol.md`` is its prose): each definition is one message;
``schemas/log.schema.json`` is the log's: each definition is one record kind.
:func:`violation` checks data against one definition, then the rule a schema cannot state
(every number finite, within a float's range), and names the first problem: the field, the
value, the rule. The first schema error is taken as it is found, so an oversized list is
refused by its ``maxItems`` before any item is looked at.
"""

from __future__ import annotations

import difflib
import json
import math
import numbers
from collections import deque
from collections.abc import Iterable, Mapping
from functools import cache
from importlib.resources import files
from typing import Any, TypeGuard

__all__ = [
    "LOG_SCHEMA",
    "PROTOCOL_SCHEMA",
    "brief",
    "definition",
    "finite_number",
    "load_schema",
    "nearest",
    "plain",
    "violation",
]

PROTOCOL_SCHEMA = "protocol.schema.json"
LOG_SCHEMA = "log.schema.json"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema of ``conformance/schemas/`` (the protocol's, the log's)."""
    text = (files(__package__) / "schemas" / name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def definition(name: str, schema: str = PROTOCOL_SCHEMA) -> dict[str, Any]:
    """The definition ``name`` of ``schema`` (its ``$defs`` entry)."""
    found: dict[str, Any] = load_schema(schema)["$defs"][name]
    return found


@cache
def _validator(name: str, schema: str) -> Any:
    """A validator of definition ``name``, built once. A number is an ``int`` or a
    ``float``: a complex number, a ``Decimal`` or an array is not (see :func:`plain`)."""
    import jsonschema  # imported on the first check, not with the harness

    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine(
        "number", lambda _, v: isinstance(v, int | float) and not isinstance(v, bool)
    )
    strict = jsonschema.validators.extend(base, type_checker=checker)
    return strict({"$ref": f"#/$defs/{name}", "$defs": load_schema(schema)["$defs"]})


def violation(
    data: Any, name: str, schema: str = PROTOCOL_SCHEMA, prefix: str = "", finite: bool = True
) -> str | None:
    """What makes ``data`` (JSON data, see :func:`plain`) no valid ``name`` message, as
    ``field: problem``, or None; ``prefix`` goes before top-level field names. ``finite``:
    every number must be finite (an implementation's answer; a log keeps what it was
    given, a baseline's score beyond a float's range included)."""
    try:
        error = next(_validator(name, schema).iter_errors(data), None)
        if error is not None:
            return _named(error.absolute_path, prefix, _problem(error, prefix))
    except RecursionError:  # the repr of a value nested a thousand deep
        return "nested too deeply to be read"
    return _non_finite(data, prefix) if finite else None


#: How a type error names what was expected.
_KINDS = {
    "number": "a number",
    "integer": "a whole number",
    "string": "a string",
    "array": "a list",
    "object": "an object",
    "boolean": "true or false",
}


def _problem(error: Any, prefix: str) -> str:
    instance, rule, bound = error.instance, error.validator, error.validator_value
    if rule == "additionalProperties":
        return _unknown(instance, error.schema.get("properties", {}), prefix)
    about = error.schema.get("description") if isinstance(error.schema, dict) else None
    if rule == "type":  # null stands for absent: no need to name it
        kinds = [_KINDS[k] for k in ([bound] if isinstance(bound, str) else bound) if k != "null"]
        text = f"{brief(instance)} is not {' or '.join(kinds or ['null'])}"
    elif rule in ("maxLength", "maxItems"):
        unit = "characters" if isinstance(instance, str) else "items"
        text = f"must be at most {bound:,} {unit} (got {len(instance):,})"
    elif rule == "pattern" and about:
        return f"{brief(instance)} is not {about}"
    elif rule == "not":
        text = f"{brief(instance)} is not allowed here"
    else:
        text = error.message
        full = repr(instance)
        if text.startswith(full):  # a long value is cut
            text = brief(instance) + text[len(full) :]
    return f"{text} ({about})" if about else text


def _unknown(given: Iterable[Any], known: Iterable[str], prefix: str) -> str:
    names = [f"{prefix}{k}" for k in known]
    name = next(f"{prefix}{k}" for k in given if f"{prefix}{k}" not in names)
    return f"unknown field {name!r}{nearest(name, names)}; known: {', '.join(names)}"


def nearest(name: Any, names: Iterable[str]) -> str:
    """`` (did you mean 'NAME'?)`` for the name of ``names`` nearest to ``name``, or ``""``."""
    near = difflib.get_close_matches(str(name), list(names), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _named(path: Iterable[Any], prefix: str, problem: str) -> str:
    where = ""
    for part in path:
        if isinstance(part, int):
            where += f"[{part}]"
        else:
            where += f".{part}" if where else f"{prefix}{part}"
    return f"{where}: {problem}" if where else problem


def _non_finite(data: Any, prefix: str) -> str | None:
    """The first number in ``data`` that is NaN, infinite or beyond a float's range (read
    breadth first, without recursion: JSON may nest deeper than Python's stack)."""
    waiting: deque[tuple[tuple[Any, ...], Any]] = deque([((), data)])
    while waiting:
        path, value = waiting.popleft()
        if isinstance(value, Mapping | list):
            items = value.items() if isinstance(value, Mapping) else enumerate(value)
            waiting.extend(((*path, key), item) for key, item in items)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if finite_number(value):
                continue
            return _named(path, prefix, f"{brief(value)} is not a finite number")
    return None


def finite_number(value: object) -> TypeGuard[int | float]:
    """A finite int or float, not a bool (an integer too large for a float is not)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


#: How deep :func:`plain` converts (the schemas look a few levels deep).
_DEPTH = 16


def plain(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data: mappings as dicts, sequences and sets as lists, numbers of any
    Python kind (numpy and torch scalars and arrays, ``Fraction``, ``Decimal``) as ``int`` or
    ``float``. Anything else stays as it is, for the schema to name: a truth value or text
    is no number, whatever ``float()`` makes of it; so does what is nested beyond the
    schema's reach (a Python stack is no deeper than JSON may nest)."""
    if value is None or isinstance(value, bool | str) or depth > _DEPTH:
        return value
    if isinstance(value, int | float):
        return int(value) if isinstance(value, int) else float(value)
    if isinstance(value, Mapping):
        return {k: plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v, depth + 1) for v in value]
    try:
        tolist = getattr(value, "tolist", None)  # numpy and torch values
        if callable(tolist):
            item = tolist()
            number = isinstance(item, int | float | list) and not isinstance(item, bool)
            return plain(item, depth + 1) if number else value
        if isinstance(value, numbers.Integral):
            return int(value)
        real = isinstance(value, numbers.Real) or not isinstance(value, numbers.Complex)
        if real and hasattr(value, "__float__"):  # Fraction, Decimal
            return float(value)
    except Exception:  # a conversion the implementation's object breaks
        return value
    return value


def brief(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters (a 400-digit number stays readable)."""
    try:
        text = repr(value)
    except Exception:  # an object whose repr fails
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."
