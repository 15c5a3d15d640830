"""GitHub-flavoured Markdown tables with every cell escaped, so they render as tables
(a bare ``|`` in a cell, as in ``max |Δ|``, would split it into two cells)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["cell", "code", "details", "table"]


def cell(value: object) -> str:
    """One table cell: ``|`` and ``\\`` escaped, line breaks as ``<br>``."""
    text = str(value).replace("\\", "\\\\").replace("|", "\\|")
    return "<br>".join(part.strip() for part in text.splitlines()) if "\n" in text else text


def code(value: object) -> str:
    """Inline code (no emphasis inside), for ids and causes; backticks in it are doubled
    around."""
    text = str(value)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str = "") -> str:
    """A GFM table; ``align`` has one letter per column, ``l`` or ``r``."""
    align = align.ljust(len(headers), "l")
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = [
        "| " + " | ".join(cell(h) for h in headers) + " |",
        "| " + " | ".join(rule) + " |",
    ]
    lines.extend("| " + " | ".join(cell(v) for v in row) + " |" for row in rows)
    return "\n".join(lines)


def details(summary: str, body: str) -> str:
    """A collapsed block (GitHub renders ``<details>``); blank lines keep the Markdown inside
    it parsed as Markdown."""
    return f"<details><summary>{summary}</summary>\n\n{body}\n\n</details>"
