"""GitHub-flavoured Markdown: the one way reports write a Markdown table (every cell
escaped, so it renders as a table: a bare ``|`` in a cell, as in ``max |Δ|``, would split it
into two cells), inline code and collapsed blocks."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["cell", "code", "details", "fence", "table", "text"]


#: A backslash Markdown would read as an escape: one before ASCII punctuation.
_ESCAPE = re.compile(r"\\(?=[!-/:-@\[-`{-~])")


def cell(value: object) -> str:
    """One table cell: ``|`` and the backslashes Markdown would read as escapes escaped
    (``\\x0a`` stays as written), ``<`` as an entity (no tag renders), line breaks as
    ``<br>``."""
    text = _ESCAPE.sub(r"\\\\", str(value)).replace("|", "\\|").replace("<", "&lt;")
    return "<br>".join(part.strip() for part in text.splitlines()) if "\n" in text else text


#: Inline Markdown syntax a quoted text must not start: emphasis, code, links, tables,
#: strikethrough, and the backslash itself.
_INLINE = re.compile(r"([\\`*_\[\]|~])")


def _one_line(value: object) -> str:
    """Line breaks as spaces: a quoted text never starts a heading, list or table line."""
    return " ".join(str(value).splitlines())


def text(value: object) -> str:
    """Quoted text (a message, a name) in running Markdown: on one line, HTML's ``&<>``
    as entities (no tag renders), inline syntax backslash-escaped (no emphasis or link)."""
    escaped = _one_line(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _INLINE.sub(r"\\\1", escaped)


def code(value: object) -> str:
    """Inline code (no emphasis inside, no tag renders), for ids and causes; on one line,
    backticks in it are doubled around."""
    quoted = _one_line(value)
    return f"`` {quoted} ``" if "`" in quoted else f"`{quoted}`"


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


def fence(body: str) -> str:
    """A fenced code block around ``body``, its fence longer than any run of backticks in
    it (a quoted ```` ``` ```` cannot close it early)."""
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    bar = "`" * max(3, longest + 1)
    return f"{bar}\n{body}\n{bar}"


def details(summary: str, body: str) -> str:
    """A collapsed block (GitHub renders ``<details>``); blank lines keep the Markdown inside
    it parsed as Markdown."""
    return f"<details><summary>{summary}</summary>\n\n{body}\n\n</details>"
