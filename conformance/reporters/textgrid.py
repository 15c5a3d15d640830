"""Plain-text tables that fit a terminal: columns narrowed to ``width`` by wrapping the text
columns (and the words of long headers), numbers kept on one line and right-aligned."""

from __future__ import annotations

import re
import shutil
import textwrap
import unicodedata
from collections.abc import Sequence

__all__ = [
    "MAX_WIDTH",
    "MIN_WIDTH",
    "clip",
    "columns",
    "grid",
    "records",
    "terminal_width",
    "wrap",
]

GAP = "  "
MIN_WIDTH, MAX_WIDTH = 60, 200


def terminal_width(default: int = 100) -> int:
    """The terminal's columns (``COLUMNS`` wins; ``default`` when not a terminal), kept
    within [MIN_WIDTH, MAX_WIDTH] so a report stays a report in very narrow or wide windows."""
    columns = shutil.get_terminal_size((default, 24)).columns
    return max(MIN_WIDTH, min(MAX_WIDTH, columns))


def wrap(text: str, width: int, indent: str = "") -> str:
    """``text`` as a paragraph of at most ``width`` columns; continuation lines indented."""
    return "\n".join(
        textwrap.wrap(
            text,
            width=max(10, width),
            subsequent_indent=indent,
            break_on_hyphens=False,
        )
        or [""]
    )


def _char_columns(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def columns(text: str) -> int:
    """The terminal columns ``text`` takes: Chinese, Japanese and Korean characters (East
    Asian wide and fullwidth) two, combining marks and format characters none, others one."""
    return sum(_char_columns(char) for char in text)


def clip(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` terminal columns (:func:`columns`), ``…`` marking
    the cut."""
    if columns(text) <= width:
        return text
    kept, used = [], 0
    for char in text:
        used += _char_columns(char)
        if used > width - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"


# Where a word too long for its column may break: after punctuation (ids like
# ``nltk.smoothing.ship-3tok.method3`` break at their dots and dashes).
_BREAK = re.compile(r"(?<=[.\-_/:;,|=])")


def _pieces(word: str, width: int) -> list[str]:
    if len(word) <= width:
        return [word]
    parts = [p for p in _BREAK.split(word) if p]
    return [p[i : i + width] for p in parts for i in range(0, len(p), width)]


def _lines(cell: str, width: int) -> list[str]:
    """``cell`` wrapped to ``width``: at spaces, inside long words after punctuation, and
    only as a last resort anywhere."""
    out: list[str] = []
    for paragraph in cell.split("\n"):
        line = ""
        for word in paragraph.split():
            for k, piece in enumerate(_pieces(word, width)):
                sep = " " if k == 0 and line else ""
                if len(line) + len(sep) + len(piece) <= width:
                    line += sep + piece
                else:
                    out.append(line)
                    line = piece
        out.append(line)
    return [line for line in out if line] or [""]


def _natural(cell: str) -> int:
    return max((len(line) for line in cell.split("\n")), default=0)


def _longest_word(cell: str) -> int:
    return max((len(word) for word in cell.split()), default=0)


def _fit(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    flexible: Sequence[bool],
    width: int,
    weights: Sequence[float],
) -> list[int]:
    """Column widths whose total (with gaps) is at most ``width`` where possible: the flexible
    column widest for its weight gives a column at a time, then the headers of fixed columns
    wrap."""
    n = len(headers)
    natural = [max([_natural(headers[c])] + [_natural(r[c]) for r in rows]) for c in range(n)]
    floor = [
        max(
            [_longest_word(headers[c])]
            + [(min(_natural(r[c]), 12) if flexible[c] else _natural(r[c])) for r in rows]
        )
        for c in range(n)
    ]
    widths = list(natural)
    budget = width - len(GAP) * (n - 1)
    while sum(widths) > budget:
        shrinkable = [c for c in range(n) if widths[c] > floor[c]]
        if not shrinkable:
            break
        preferred = [c for c in shrinkable if flexible[c]] or shrinkable
        widest = max(preferred, key=lambda c: widths[c] / weights[c])
        widths[widest] -= 1
    return widths


def grid(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    width: int,
    align: str = "",
    indent: str = "",
    weights: Sequence[float] = (),
) -> str:
    """A table of at most ``width`` columns (when the cells allow it): a header, a rule, the
    rows. ``align`` has one letter per column: ``l`` (text, wraps) or ``r`` (numbers, never
    wrap); missing letters are ``l``. A text column with a larger weight (default 1) keeps
    more of its width when the table must narrow."""
    align = align.ljust(len(headers), "l")
    flexible = [a == "l" for a in align]
    weight = [*weights, *([1.0] * (len(headers) - len(weights)))]
    widths = _fit(headers, rows, flexible, width - len(indent), weight)
    if sum(widths) + len(GAP) * (len(widths) - 1) > width - len(indent):
        return records(headers, rows, width=width, indent=indent)
    lines = [*_row(headers, widths, align, indent)]
    lines.append(indent + GAP.join("─" * w for w in widths))
    for row in rows:
        lines.extend(_row(row, widths, align, indent))
    return "\n".join(line.rstrip() for line in lines)


def records(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, width: int, indent: str = ""
) -> str:
    """Rows as wrapped ``header: value`` records, for when no table fits ``width``: the first
    cell opens each record, the rest follow indented."""
    out = []
    for row in rows:
        first, *rest = [" ".join(str(cell).split()) for cell in row]
        items = [f"{h}: {v}" for h, v in zip(headers[1:], rest) if v]
        out.append(wrap(f"{indent}{first}  " + " · ".join(items), width, indent + "    "))
    return "\n".join(out)


def _row(cells: Sequence[str], widths: Sequence[int], align: str, indent: str) -> list[str]:
    wrapped = [_lines(str(cell), w) for cell, w in zip(cells, widths)]
    height = max(len(w) for w in wrapped)
    out = []
    for i in range(height):
        parts = []
        for c, lines in enumerate(wrapped):
            text = lines[i] if i < len(lines) else ""
            parts.append(text.rjust(widths[c]) if align[c] == "r" else text.ljust(widths[c]))
        out.append(indent + GAP.join(parts))
    return out
