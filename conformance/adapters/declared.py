"""What an implementation declares about itself, checked field by field in one place.

The same fields arrive three ways -- a Python function's ``bleu_*`` attributes, an adapter
file, a JSON Lines program's ``hello`` -- and are checked here the same way: a wrong type,
an unknown value, an unknown or misspelled field is an :class:`AdapterError` naming the
field, what it got and what is expected (the implementation then cannot start: every case is
an error), never a crash or a silently empty run.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from bleu_impl import PROFILES, KnobError, get_profile
from bleu_impl.knobs import KNOB_NAMES, normalize_knob

from ..protocol import AdapterError

__all__ = ["ARITHMETICS", "FIELDS", "MAX_TIMEOUT", "check_declared", "unknown_fields"]

#: Every field an implementation may declare (see docs/protocol.md and docs/runner.md).
FIELDS = (
    "name",
    "version",
    "levels",
    "inputs",
    "knobs",
    "native",
    "native_knobs",
    "arithmetic",
    "scale",
    "precision",
    "signature",
    "expect",
    "timeout",
)
ARITHMETICS = ("float64", "float32")
#: The longest timeout, in seconds (a week; waits beyond ~3e9 s overflow the platform).
MAX_TIMEOUT = 7 * 24 * 3600
_LEVELS = ("sentence", "corpus")
_INPUTS = ("raw", "tokenized")


def unknown_fields(given: Iterable[str], known: Iterable[str], where: str, kind: str) -> None:
    """Raise for the first field of ``given`` not in ``known`` (suggesting the nearest)."""
    known = list(known)
    for name in given:
        if name not in known:
            near = difflib.get_close_matches(str(name), known, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise AdapterError(
                kind, f"{where}: unknown field {name!r}{hint}; known: {', '.join(known)}"
            )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choices(value: Any, allowed: tuple[str, ...]) -> frozenset[str]:
    if isinstance(value, str) or not isinstance(value, list | tuple | set | frozenset):
        raise ValueError(f"must be a list of {' and/or '.join(allowed)}, e.g. [{allowed[-1]!r}]")
    bad = [v for v in value if v not in allowed]
    if bad or not value:
        raise ValueError(f"must list values among {', '.join(allowed)} (at least one)")
    return frozenset(value)


def _knobs(value: Any) -> dict[str, tuple[Any, ...] | None] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ValueError("must be a mapping knob -> list of values (or null: any value), or null")
    out: dict[str, tuple[Any, ...] | None] = {}
    for knob, values in value.items():
        if knob not in KNOB_NAMES:
            raise ValueError(f"unknown knob {knob!r} ({_nearest(knob, KNOB_NAMES)})")
        if values is None:
            out[knob] = None
            continue
        if isinstance(values, str) or not isinstance(values, list | tuple):
            raise ValueError(f"{knob} must be a list of values or null")
        for item in values:
            _knob_value(knob, item)
        out[knob] = tuple(tuple(v) if isinstance(v, list) else v for v in values)
    return out


def _knob_value(knob: str, value: Any) -> None:
    try:
        normalize_knob(knob, tuple(value) if isinstance(value, list) else value)
    except KnobError as exc:
        raise ValueError(str(exc)) from None


def _nearest(name: Any, names: Iterable[str]) -> str:
    near = difflib.get_close_matches(str(name), list(names), n=1)
    return f"did you mean {near[0]!r}?" if near else "see `bleu-conformance profiles`"


def _native(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in PROFILES:
        raise ValueError(f"must be a bleu_impl profile ({_nearest(value, PROFILES)})")
    return value


def _native_knobs(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError("must be a mapping knob -> value")
    for knob, item in value.items():
        if knob not in KNOB_NAMES:
            raise ValueError(f"unknown knob {knob!r} ({_nearest(knob, KNOB_NAMES)})")
        _knob_value(knob, item)
    return {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()}


def _expect(value: Any) -> tuple[str, ...]:
    keys = (value,) if isinstance(value, str) else value
    if (
        not isinstance(keys, list | tuple)
        or not keys
        or not all(isinstance(k, str) and k for k in keys)
    ):
        raise ValueError("must be an expectation key or a list of them, e.g. ['sacrebleu>=2']")
    return tuple(keys)


#: Characters a report line cannot show as they are: control characters (ANSI escapes,
#: line breaks), bidirectional overrides and isolates (they reorder the text around them).
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: The longest name or version (a report row), and the longest signature.
_SHORT, _LONG = 200, 2000


def _line(value: str, limit: int) -> str:
    """``value`` if it is one showable line of at most ``limit`` characters."""
    found = _UNSHOWABLE.search(value)
    if found:
        raise ValueError(
            f"must be one line of text without control characters (found {found.group()!r})"
        )
    if len(value) > limit:
        raise ValueError(f"must be at most {limit} characters (got {len(value):,})")
    return value


def _text(value: Any, limit: int = _SHORT) -> str:
    if isinstance(value, str):
        return _line(value, limit)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _line(str(value), limit)  # a YAML version 1.4 reads as a number
    raise ValueError("must be a string")


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty string")
    return _line(value, _SHORT)


def _scale(value: Any) -> int:
    if not _is_int(value) or value not in (1, 100):
        raise ValueError("must be the integer 1 (scores in 0..1) or 100 (scores in 0..100)")
    return int(value)


def _precision(value: Any) -> int | None:
    if value is not None and not (_is_int(value) and 0 <= value <= 17):
        raise ValueError("must be the number of decimals printed (an integer 0..17), or null")
    return value


def _arithmetic(value: Any) -> str:
    if value not in ARITHMETICS:
        raise ValueError("must be " + " or ".join(repr(a) for a in ARITHMETICS))
    return str(value)


def _timeout(value: Any) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT:
        raise ValueError(f"must be a number of seconds > 0 and at most {MAX_TIMEOUT:,}")
    return float(value)


_CHECKS: dict[str, Any] = {
    "name": _name,
    "version": _text,
    "levels": lambda v: _choices(v, _LEVELS),
    "inputs": lambda v: _choices(v, _INPUTS),
    "knobs": _knobs,
    "native": _native,
    "native_knobs": _native_knobs,
    "arithmetic": _arithmetic,
    "scale": _scale,
    "precision": _precision,
    "signature": lambda v: _text(v, _LONG),
    "expect": _expect,
    "timeout": _timeout,
}
assert set(_CHECKS) == set(FIELDS)


def check_declared(
    fields: Mapping[str, Any], where: str, kind: str = "config", prefix: str = ""
) -> dict[str, Any]:
    """The declared ``fields`` (a subset of :data:`FIELDS`), checked and normalized for
    :class:`~conformance.adapters.Capabilities`; ``where`` prefixes every message, and
    ``prefix`` each field name (``bleu_`` for a function's attributes)."""
    unknown_fields(fields, FIELDS, where, kind)
    out: dict[str, Any] = {}
    for name, value in fields.items():
        try:
            out[name] = _CHECKS[name](value)
        except ValueError as exc:
            shown = f"{where}: {prefix}{name}: {exc} (got {value!r})"
            raise AdapterError(kind, shown[:400]) from None
    if out.get("native_knobs"):
        if not out.get("native"):
            raise AdapterError(kind, f"{where}: native_knobs needs native (a bleu_impl profile)")
        try:
            get_profile(out["native"]).resolve(dict(out["native_knobs"]), "corpus")
        except KnobError as exc:
            raise AdapterError(kind, f"{where}: native_knobs: {exc}") from None
    return out
