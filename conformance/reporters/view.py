"""How a person reads a report: the :class:`View` every reporter takes, and whether the
terminal it is printed on takes colors (its width is the command's to find)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

__all__ = ["View", "use_color"]


@dataclass(frozen=True)
class View:
    """How a person reads the report: terminal ``width`` (the table format fits it),
    ``verbose`` (every row), ``decimals`` (materiality, overriding the log's policy),
    ``color`` (ANSI colors on a terminal)."""

    width: int = 100
    verbose: bool = False
    decimals: int | None = None
    color: bool = False


def use_color(stream: Any) -> bool:
    """Color only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return "NO_COLOR" not in os.environ and bool(getattr(stream, "isatty", lambda: False)())
