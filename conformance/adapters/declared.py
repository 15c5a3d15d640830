"""What an implementation declares about itself, read by the protocol schema's ``declaration``.

The same fields arrive four ways -- a Python function's ``bleu_*`` attributes, an adapter
file, a JSON Lines program's ``hello``, the capabilities a worker reports -- and are read here
the same way: the schema (:mod:`conformance.contract`) checks each field's type and values,
then bleu_impl what only it knows (knob names and values, profiles). A violation is an
:class:`AdapterError` naming the field, what it got and what is expected (the implementation
then cannot start: every case is an error), never a crash or a silently empty run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from bleu_impl import PROFILES, KnobError, get_profile
from bleu_impl.knobs import KNOB_NAMES, normalize_knob

from ..contract import brief, definition, nearest, plain, violation
from ..protocol import AdapterError
from .base import Capabilities

__all__ = ["FIELDS", "MAX_TIMEOUT", "checked_capabilities", "read_declaration", "unknown_fields"]

_DECLARATION = definition("declaration")["properties"]
#: Every field an implementation may declare (see docs/protocol.md and docs/runner.md).
FIELDS = tuple(_DECLARATION)
#: The longest timeout, in seconds (a week; waits beyond ~3e9 s overflow the platform).
MAX_TIMEOUT: int = _DECLARATION["timeout"]["maximum"]


def unknown_fields(given: Iterable[str], known: Iterable[str], where: str, kind: str) -> None:
    """Raise for the first field of ``given`` not in ``known`` (suggesting the nearest)."""
    known = list(known)
    for name in given:
        if name not in known:
            raise AdapterError(
                kind,
                f"{where}: unknown field {name!r}{nearest(name, known)}; known: {', '.join(known)}",
            )


def read_declaration(
    fields: Mapping[str, Any], where: str, kind: str = "config", prefix: str = ""
) -> dict[str, Any]:
    """The declared ``fields`` (a subset of :data:`FIELDS`, values of any Python kind),
    checked and normalized for :class:`~conformance.adapters.Capabilities`; ``where``
    prefixes every message, and ``prefix`` each field name (``bleu_`` for attributes)."""
    data = plain(fields)
    problem = violation(data, "declaration", prefix=prefix)
    if problem is None and (unknown := _unknown_to_bleu_impl(data)) is not None:
        problem = prefix + unknown
    if problem is not None:
        raise AdapterError(kind, f"{where}: {problem}"[:400])
    return _normalized(data)


def _unknown_to_bleu_impl(data: dict[str, Any]) -> str | None:
    """A knob or knob value, a profile or a native setting bleu_impl does not have."""
    for field in ("knobs", "native_knobs"):
        for knob, values in (data.get(field) or {}).items():
            if knob not in KNOB_NAMES:
                hint = nearest(knob, KNOB_NAMES) or " (see `bleu-conformance profiles`)"
                return f"{field}: unknown knob {knob!r}{hint}"
            for value in [values] if field == "native_knobs" else values or ():
                try:
                    normalize_knob(knob, _hashable(value))
                except KnobError as exc:
                    return f"{field}: {exc}"
    native = data.get("native")
    if native is not None and native not in PROFILES:
        return f"native: {brief(native)} is not a bleu_impl profile{nearest(native, PROFILES)}"
    if not data.get("native_knobs"):
        return None
    if not native:
        return "native_knobs needs native (a bleu_impl profile)"
    try:
        get_profile(native).resolve(_normalized(data)["native_knobs"], "corpus")
    except KnobError as exc:
        return f"native_knobs: {exc}"
    return None


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _normalized(data: dict[str, Any]) -> dict[str, Any]:
    """Schema-valid declared fields as :class:`Capabilities` holds them."""
    out = dict(data)
    for name in ("levels", "inputs"):
        if name in out:
            out[name] = frozenset(out[name])
    if out.get("knobs") is not None:
        out["knobs"] = {
            k: None if v is None else tuple(map(_hashable, v)) for k, v in out["knobs"].items()
        }
    if "native_knobs" in out:
        out["native_knobs"] = {k: _hashable(v) for k, v in out["native_knobs"].items()}
    if "expect" in out:
        expect = out["expect"]
        out["expect"] = (expect,) if isinstance(expect, str) else tuple(expect)
    for name, cast in (("version", str), ("scale", int), ("precision", int), ("timeout", float)):
        if out.get(name) is not None:
            out[name] = cast(out[name])
    return out


_DEFAULTS = Capabilities(name="")


def checked_capabilities(caps: Any, where: str) -> Capabilities:
    """``caps`` (what a worker reports: its fields may hold anything) read again as a
    declaration; each field left at its default needs no check."""
    if not isinstance(caps, Capabilities):
        raise AdapterError("config", f"{where}: {brief(caps)}, not capabilities")
    fields = {"name": caps.name}
    for field in dataclasses.fields(Capabilities):
        value = getattr(caps, field.name)
        if not _same(value, getattr(_DEFAULTS, field.name)):
            fields[field.name] = value
    return Capabilities(**read_declaration(fields, where))


def _same(value: Any, default: Any) -> bool:
    try:
        return type(value) is type(default) and bool(value == default)
    except Exception:  # a comparison the value breaks
        return False
