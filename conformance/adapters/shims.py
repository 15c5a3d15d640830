"""Import-time shims an old release needs on a current Python, applied in its worker only.

Old NLTK releases (before 3.3) call ``inspect.getargspec``/``inspect.formatargspec``
(removed in Python 3.11) while importing, and old releases of several libraries import the
ABCs from ``collections`` (removed in Python 3.10). Each shim restores only the missing name,
with the standard library's current equivalent; none touches a library's BLEU code. The
worker of a pinned release (``--impl nltk==3.2.5``) applies the ones whose name is missing
and reports them with its version, so a report says what was patched.
"""

from __future__ import annotations

import collections
import collections.abc
import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

__all__ = ["SHIMS", "apply_shims"]

_ABCS = ("Sequence", "Mapping", "MutableMapping", "Iterable", "Callable", "Hashable", "Sized")


class _ArgSpec(NamedTuple):
    args: list[str]
    varargs: str | None
    keywords: str | None
    defaults: tuple[Any, ...] | None


def _getargspec(func: Callable[..., Any]) -> _ArgSpec:
    spec = inspect.getfullargspec(func)
    return _ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)


def _formatargspec(
    args: list[str],
    varargs: str | None = None,
    varkw: str | None = None,
    defaults: tuple[Any, ...] | None = None,
    *_: Any,
    **__: Any,
) -> str:
    """``(a, b=1, *rest, **kw)``: the part of the removed function old NLTK's decorators use."""
    defaults = defaults or ()
    first_default = len(args) - len(defaults)
    parts = [
        a if i < first_default else f"{a}={defaults[i - first_default]!r}"
        for i, a in enumerate(args)
    ]
    parts += [f"*{varargs}"] if varargs else []
    parts += [f"**{varkw}"] if varkw else []
    return "(" + ", ".join(parts) + ")"


def _missing(module: Any, name: str) -> bool:
    return not hasattr(module, name)


def _alias_abcs() -> None:
    for name in _ABCS:
        setattr(collections, name, getattr(collections.abc, name))


#: (the name restored, whether this Python lacks it, restore it).
SHIMS: tuple[tuple[str, Callable[[], bool], Callable[[], None]], ...] = (
    (
        "inspect.getargspec",
        lambda: _missing(inspect, "getargspec"),
        lambda: setattr(inspect, "getargspec", _getargspec),
    ),
    (
        "inspect.formatargspec",
        lambda: _missing(inspect, "formatargspec"),
        lambda: setattr(inspect, "formatargspec", _formatargspec),
    ),
    (
        "collections ABC aliases",
        lambda: any(_missing(collections, n) for n in _ABCS),
        _alias_abcs,
    ),
)


def apply_shims() -> tuple[str, ...]:
    """Apply every shim whose name this Python lacks; the names applied."""
    applied = []
    for name, needed, restore in SHIMS:
        if needed():
            restore()
            applied.append(name)
    return tuple(applied)
