"""The numbers of an implementation's answer, read by one rule for every adapter.

A number of any Python kind (``int``, ``float``, ``Fraction``, ``Decimal``, numpy and torch
scalars) is accepted and normalized to ``int`` or ``float``; a ``bool`` (also numpy's), a string, a
container, an object whose conversion fails and an integer too large for a float are
garbage: an :class:`~conformance.protocol.AdapterError` naming the field, never a
conversion that guesses (``"1.0"`` is not a score, ``6.5`` is not a count) nor a crash of
the harness. Counts, totals and ``hyp_len`` must be whole numbers (``6.0`` reads as 6).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any

from ..protocol import AdapterError

__all__ = ["read_count", "read_integers", "read_number", "read_optional"]

_SHOWN = 80
#: Boolean types of array libraries (``numpy.bool_``, ``numpy.bool``): a truth value is
#: never a number, whatever ``float()`` makes of it.
_BOOLS = frozenset({"bool_", "bool"})


def _garbage(name: str, value: Any, expected: str) -> AdapterError:
    try:
        shown = repr(value)
    except Exception:  # an object whose repr fails
        shown = f"a {type(value).__name__}"
    if len(shown) > _SHOWN:
        shown = shown[:_SHOWN] + "..."
    return AdapterError("garbage", f"{name} is {shown}, not {expected}")


def _not_real(value: Any) -> bool:
    """A truth value, text or a complex number, whatever ``float()`` makes of it: also
    inside an array (numpy's ``array("0.5")``, ``array(True)``, ``array(x, dtype=object)``,
    ``complex128``, a torch bool tensor), whose ``float()`` parses, counts or drops."""
    if isinstance(value, bool | str | bytes) or type(value).__name__ in _BOOLS:
        return True
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        return True
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        return False
    kind = getattr(dtype, "kind", None)  # numpy (and the arrays built on its dtypes)
    if isinstance(kind, str):
        return kind not in "iuf"
    return any(word in str(dtype) for word in ("bool", "complex"))  # torch.bool...


def read_number(value: Any, name: str) -> int | float:
    """``value`` as an ``int`` (integers) or ``float`` (anything else numeric)."""
    if _not_real(value):
        raise _garbage(name, value, "a number")
    try:
        if isinstance(value, numbers.Integral):
            number: int | float = int(value)
            float(number)  # an integer beyond a float's range is no answer
            return number
        if isinstance(value, numbers.Number) or hasattr(value, "__float__"):
            return float(value)
    except (OverflowError, ValueError):
        raise _garbage(name, value, "a number within a float's range") from None
    except Exception:  # a conversion the implementation's object breaks
        raise _garbage(name, value, "a number") from None
    raise _garbage(name, value, "a number")


def _whole(value: Any, name: str) -> int:
    number = read_number(value, name)
    if isinstance(number, float):
        if not (math.isfinite(number) and number.is_integer()):
            raise _garbage(name, value, "a whole number")
        return int(number)
    return number


def read_optional(value: Any, name: str) -> int | float | None:
    """:func:`read_number` of a field that may be absent (None)."""
    return None if value is None else read_number(value, name)


def read_count(value: Any, name: str) -> int | None:
    """A whole number (``6.0`` reads as 6) of a field that may be absent (None)."""
    return None if value is None else _whole(value, name)


def read_integers(value: Any, name: str) -> tuple[int, ...] | None:
    """A sequence of whole numbers (a list, tuple or array) as a tuple; None when absent."""
    if value is None:
        return None
    if isinstance(value, str | bytes | Mapping) or not hasattr(value, "__iter__"):
        raise _garbage(name, value, "a list of integers")
    try:
        items = list(value)
    except Exception:
        raise _garbage(name, value, "a list of integers") from None
    try:
        return tuple(_whole(item, name) for item in items)
    except AdapterError:
        raise _garbage(name, value, "a list of integers") from None
