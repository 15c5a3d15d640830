"""Text from implementations and users' files made safe to print.

What an implementation printed or a file held may carry control characters (ANSI escapes,
carriage returns, NUL), bidirectional overrides, lone surrogates and characters XML cannot
hold: :func:`shown` writes them as ``\\x1b``-style escapes, so they can neither rewrite a
terminal or a CI log nor make JUnit XML unreadable; :func:`shown_inline` also escapes tabs
and line breaks, for what must stay on one line of a table.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["shown", "shown_inline"]


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
    """``value`` (strings, and the strings in lists, tuples, mappings -- keys included --
    and records) with every unsafe character written as an escape; other values unchanged."""
    if isinstance(value, str):
        return unsafe.sub(_escape, value) if unsafe.search(value) else value
    if isinstance(value, list | tuple):
        return type(value)(shown(v, unsafe) for v in value)
    if isinstance(value, Mapping):
        return {shown(k, unsafe): shown(v, unsafe) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: shown(getattr(value, f.name), unsafe) for f in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    return value


def shown_inline(value: Any) -> Any:
    """:func:`shown`, tabs and line breaks escaped too (``\\x0a``): a file name or an
    implementation's message that must stay on one line of a table."""
    return shown(value, _UNSAFE_INLINE)
