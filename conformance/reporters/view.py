"""How a person reads a report: the :class:`View` every reporter takes, and what the terminal
it is printed on allows (its width, colors)."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_WIDTH", "MIN_WIDTH", "View", "terminal_width", "use_color"]

MIN_WIDTH, MAX_WIDTH = 60, 200


@dataclass(frozen=True)
class View:
    """How a person reads the report: terminal ``width`` (the table format fits it),
    ``verbose`` (every row), ``decimals`` (materiality, overriding the log's policy),
    ``color`` (ANSI colors on a terminal)."""

    width: int = 100
    verbose: bool = False
    decimals: int | None = None
    color: bool = False


def terminal_width(default: int = 100) -> int:
    """The terminal's columns (``COLUMNS`` wins; ``default`` when not a terminal), kept
    within [MIN_WIDTH, MAX_WIDTH] so a report stays a report in very narrow or wide windows."""
    columns = shutil.get_terminal_size((default, 24)).columns
    return max(MIN_WIDTH, min(MAX_WIDTH, columns))


def use_color(stream: Any) -> bool:
    """Color only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return "NO_COLOR" not in os.environ and bool(getattr(stream, "isatty", lambda: False)())
