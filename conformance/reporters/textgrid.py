"""Plain-text tables, the one way every text report draws them: tabulate's ``simple`` layout
(a header, a rule of dashes, the rows, columns two spaces apart) over cells that are already
text, wrapped to fit a width when one is given; and the text helpers that go with them."""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Mapping, Sequence
from types import MappingProxyType

__all__ = ["clip", "columns", "glossary", "grid", "records", "wrap"]

_ALIGN = {"l": "left", "r": "right", "d": "decimal"}


def wrap(text: str, width: int, indent: str = "", *, whole_words: bool = False) -> str:
    """``text`` as a paragraph of at most ``width`` columns; continuation lines indented.
    ``whole_words``: a word longer than the width (a path, a URL) stays whole."""
    return "\n".join(
        textwrap.wrap(
            text,
            width=max(10, width),
            subsequent_indent=indent,
            break_on_hyphens=False,
            break_long_words=not whole_words,
        )
        or [""]
    )


def glossary(entries: Sequence[tuple[str, str]], width: int) -> str:
    """Terms and what they mean, an entry a line (wrapped to ``width`` under its meaning):
    the terms in a column, indented two spaces."""
    pad = max((columns(term) for term, _ in entries), default=0)
    return "\n".join(
        "\n".join(
            textwrap.wrap(
                meaning,
                width=max(pad + 14, width),
                initial_indent=f"  {term}{' ' * (pad - columns(term))}  ",
                subsequent_indent=" " * (pad + 4),
                break_on_hyphens=False,
            )
        )
        for term, meaning in entries
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
) -> list[int] | None:
    """Column widths whose total (with gaps) is at most ``width``: the flexible column widest
    for its weight gives a column at a time, then the headers of fixed columns wrap; None
    when the cells cannot be narrowed that far."""
    n = len(headers)
    cells = [[r[c] for r in rows] for c in range(n)]
    natural = [max([_natural(headers[c])] + [_natural(v) for v in cells[c]]) for c in range(n)]
    floor = [
        max(
            [_longest_word(headers[c])]
            + [(min(_natural(v), 12) if flexible[c] else _natural(v)) for v in cells[c]]
        )
        for c in range(n)
    ]
    widths = list(natural)
    budget = width - 2 * (n - 1)  # the columns' gaps
    while sum(widths) > budget:
        shrinkable = [c for c in range(n) if widths[c] > floor[c]]
        if not shrinkable:
            return None
        preferred = [c for c in shrinkable if flexible[c]] or shrinkable
        widest = max(preferred, key=lambda c: widths[c] / weights[c])
        widths[widest] -= 1
    return widths


def grid(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    align: str = "",
    width: int = 0,
    weights: Sequence[float] = (),
    maxwidths: Sequence[int] = (),
    headings: Mapping[int, str] = MappingProxyType({}),
) -> str:
    """A table of ``rows`` (cells shown with ``str``). ``align`` has one letter per column:
    ``l`` text, ``r`` numbers, ``d`` numbers aligned on their decimal point (missing letters
    are ``l``). Cells wrap at ``maxwidths`` columns (0: never).

    With ``width``, the text columns wrap so that the table fits it (a text column with a
    larger weight, default 1, keeps more of its width) and numbers stay whole; such a table
    is drawn for the terminal: headers without padding (every column counts), a ``─`` rule,
    and ``headings`` (row index: a line above that row, opening a group of rows; the number
    of rows: a line below the last). When no table fits, the rows are :func:`records`."""
    from tabulate import tabulate  # it imports importlib.metadata: ~0.1 s that `score` skips

    align = align.ljust(len(headers), "l")
    colalign = [_ALIGN[a] for a in align]
    head = [str(h) for h in headers]
    body = [[str(cell) for cell in row] for row in rows]
    if not width:
        for c, limit in enumerate(maxwidths):
            for row in body if limit else ():
                row[c] = "\n".join(_lines(row[c], limit))
        return tabulate(body, head, tablefmt="simple", disable_numparse=True, colalign=colalign)
    weight = [*weights, *([1.0] * (len(head) - len(weights)))]
    widths = _fit(head, body, [a == "l" for a in align], width, weight)
    if widths is None:
        return records(head, body, width=width, headings=headings)
    wrapped = [["\n".join(_lines(v, w)) for v, w in zip(row, widths)] for row in [head, *body]]
    table = tabulate(
        [wrapped[0], ["─" * w for w in widths], *wrapped[1:]],
        tablefmt="plain",
        disable_numparse=True,
        colalign=colalign,
    ).split("\n")
    heights = [max(cell.count("\n") + 1 for cell in row) for row in wrapped]
    starts = [heights[0] + 1 + sum(heights[1 : r + 1]) for r in range(len(body) + 1)]
    for r in sorted(headings, reverse=True):
        table[starts[r] : starts[r]] = wrap(headings[r], width, "  ").split("\n")
    return "\n".join(table)


def records(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    width: int,
    headings: Mapping[int, str] = MappingProxyType({}),
) -> str:
    """Rows as wrapped ``header: value`` records, for when no table fits ``width``: the first
    cell opens each record, the rest follow indented; ``headings`` as in :func:`grid`."""
    out = []
    for r, row in enumerate(rows):
        if r in headings:
            out.append(wrap(headings[r], width, "  "))
        first, *rest = [" ".join(str(cell).split()) for cell in row]
        items = [f"{h}: {v}" for h, v in zip(headers[1:], rest) if v]
        out.append(wrap(f"{first}  " + " · ".join(items), width, "    "))
    if len(rows) in headings:
        out.append(wrap(headings[len(rows)], width, "  "))
    return "\n".join(out)
