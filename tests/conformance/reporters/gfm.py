"""Markdown read back with a real CommonMark parser (markdown-it-py, GFM table rule on)."""

from __future__ import annotations

import re
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


def _cells(line: str) -> int:
    """Cells of a table line: unescaped ``|`` separate them (GFM splits at a ``|`` even
    inside a code span unless it is escaped)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return 1 + len(re.findall(r"(?<!\\)\|", body))


def split_rows(text: str) -> list[str]:
    """Table lines with more or fewer cells than their header: GFM drops the extra cells of
    a row silently, so an unescaped ``|`` in a cell loses text without breaking the table."""
    lines = text.splitlines()
    bad = []
    for token in PARSER.parse(text):
        if token.type == "table_open" and token.map:
            start, end = token.map
            width = _cells(lines[start])
            bad.extend(line for line in lines[start:end] if line.strip() and _cells(line) != width)
    return bad


def check(text: str) -> list[Table]:
    """The tables of ``text``, after checking that every table-like line is in a table and
    every row has exactly its header's cells."""
    assert not stray_table_lines(text), stray_table_lines(text)[:3]
    assert not split_rows(text), split_rows(text)[:3]
    return tables(text)
