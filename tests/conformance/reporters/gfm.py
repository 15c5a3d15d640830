"""Markdown read back with a real CommonMark parser (markdown-it-py, GFM table rule on)."""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it import MarkdownIt

PARSER = MarkdownIt("commonmark").enable("table")


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]


def tables(text: str) -> list[Table]:
    """Every table the parser finds, cells as their inline source."""
    out: list[Table] = []
    row: list[str] | None = None
    in_head = False
    for token in PARSER.parse(text):
        if token.type == "table_open":
            out.append(Table([], []))
        elif token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(token.content)
        elif token.type == "tr_close" and row is not None:
            if in_head:
                out[-1].headers = row
            else:
                out[-1].rows.append(row)
            row = None
    return out


def stray_table_lines(text: str) -> list[str]:
    """Lines that look like table rows (start with ``|``) but are not inside a parsed table
    or a code block: a table that does not render."""
    covered: set[int] = set()
    for token in PARSER.parse(text):
        if token.type in ("table_open", "fence", "code_block") and token.map:
            covered.update(range(*token.map))
    return [
        line
        for number, line in enumerate(text.splitlines())
        if line.lstrip().startswith("|") and number not in covered
    ]


def check(text: str) -> list[Table]:
    """The tables of ``text``, after checking that every table-like line is in one and every
    row has as many cells as its header."""
    assert not stray_table_lines(text), stray_table_lines(text)[:3]
    found = tables(text)
    for table in found:
        for row in table.rows:
            assert len(row) == len(table.headers), (table.headers, row)
    return found
