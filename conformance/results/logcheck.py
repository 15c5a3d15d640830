"""The records of the run and compare logs, checked as they are read back.

A log is a file: cut short, edited by hand, written by another tool or version. Before any
report uses a record, :func:`check_record` checks that each field it reads has the type it
needs (a ValueError naming the field otherwise: the reader turns it into an error naming
the file and line, never a traceback in a reporter), and :func:`shown` makes every string
safe to print: control characters (ANSI escapes, carriage returns, NUL), bidirectional
overrides and characters XML cannot hold are written as ``\\x1b``-style escapes, so what an
implementation printed can neither rewrite a terminal or a CI log nor make JUnit XML
unreadable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ANY",
    "FLAG",
    "INTEGER",
    "MAPPING",
    "NUMBER",
    "TEXT",
    "Shape",
    "check_record",
    "list_of",
    "one_of",
    "optional",
    "shown",
    "shown_inline",
]


@dataclass(frozen=True)
class Shape:
    """What a field must be: ``what`` names it in messages, ``test`` checks a value."""

    what: str
    test: Callable[[Any], bool]


def _number(value: Any) -> bool:
    if isinstance(value, str):  # how the logs write non-finite numbers
        return value in ("nan", "inf", "-inf")
    return isinstance(value, int | float) and not isinstance(value, bool)


ANY = Shape("anything", lambda v: True)
TEXT = Shape("a string", lambda v: isinstance(v, str))
NUMBER = Shape("a number", _number)
INTEGER = Shape("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool))
FLAG = Shape("true or false", lambda v: isinstance(v, bool))
MAPPING = Shape("an object", lambda v: isinstance(v, dict))


def optional(shape: Shape) -> Shape:
    return Shape(f"{shape.what} or null", lambda v: v is None or shape.test(v))


def list_of(shape: Shape) -> Shape:
    return Shape(
        f"a list of {shape.what.removeprefix('a ').removeprefix('an ')}s",
        lambda v: isinstance(v, list) and all(shape.test(x) for x in v),
    )


def one_of(values: Iterable[str]) -> Shape:
    allowed = tuple(values)
    return Shape(f"one of {', '.join(allowed)}", lambda v: isinstance(v, str) and v in allowed)


def check_record(
    record: Mapping[str, Any], shapes: Mapping[str, Shape], required: Iterable[str] = ()
) -> None:
    """Raise ValueError for a missing required field or a field of the wrong shape."""
    for name in required:
        if name not in record:
            raise ValueError(f"no {name!r} field")
    for name, shape in shapes.items():
        if name in record and not shape.test(record[name]):
            value = repr(record[name])
            value = value if len(value) <= 60 else value[:60] + "..."
            raise ValueError(f"{name!r} must be {shape.what}, got {value}")


#: C0 controls but tab and newline, DEL and C1 controls, line and paragraph separators,
#: bidirectional embeddings, overrides and isolates, lone surrogates, U+FFFE and U+FFFF.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


#: The unsafe characters plus tab and newline: what one cell or line of a table must not hold.
_UNSAFE_INLINE = re.compile("[\t\n]|" + _UNSAFE.pattern)


def shown(value: Any, unsafe: re.Pattern[str] = _UNSAFE) -> Any:
    """``value`` (strings, lists and objects within, keys included) with every unsafe
    character written as an escape; other values unchanged."""
    if isinstance(value, str):
        return unsafe.sub(_escape, value) if unsafe.search(value) else value
    if isinstance(value, list):
        return [shown(v, unsafe) for v in value]
    if isinstance(value, dict):
        return {shown(k, unsafe): shown(v, unsafe) for k, v in value.items()}
    return value


def shown_inline(value: Any) -> Any:
    """:func:`shown`, tabs and line breaks escaped too (``\\x0a``): a file name or an
    implementation's message that must stay on one line of a table."""
    return shown(value, _UNSAFE_INLINE)
