"""Logs written by the previous release (tests/conformance/results/data/README.md) read
with today's reader render what that release rendered (headers and counts line for line, in
order; every word and number of its tables, though today's tables are laid out otherwise;
today's screens add lines), and in every format."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.reporters import FORMATS, View, render
from conformance.results.log import read_log

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("log", "command", "verbose"),
    [
        ("run-v1", "run", False),
        ("compare-v2", "compare", False),
        ("compare-errors-v2", "compare", True),
    ],
)
def test_an_old_log_renders_as_its_release_printed_it(log, command, verbose):
    report = read_log(DATA / f"{log}.jsonl")
    assert report.command == command and report.complete
    printed = (DATA / f"{log}.table.txt").read_text(encoding="utf-8")
    # one glyph for "missing" now: the run table's "n/a" conformance of an implementation
    # that ran nothing is "–"
    expected = printed.replace(" n/a\n", " –\n")
    shown = render(report, "table", View(width=100, verbose=verbose))
    if command == "run":  # today's run report also says what was checked: without that
        assert _cells(_without_coverage(shown)) == _cells(expected)
    else:  # its header and pair table line for line; its tables' rows cell for cell
        head, rows = _kept(expected).split("\nWhy: causes", 1)
        missing = _not_in_order(head.splitlines(), _without_legends(shown).splitlines())
        assert not missing, f"lines of the old rendering missing or out of order: {missing}"
        packed = "".join(shown.split())
        # (a header today's screen leaves out when there is one pair: the pair column)
        lost = [w for w in rows.split() if w not in packed and w not in ("pair", "pairs")]
        assert not lost, f"words of the old rendering's tables missing: {lost}"
        today = _numbered(shown)
        for number, cells in _numbered(expected).items():  # 1st, 2nd, 2nd − 1st
            at = today[number].index(cells[3])
            assert today[number][at : at + 3] == cells[3:6], (number, cells, today[number])
    for fmt in FORMATS:
        assert render(report, fmt).strip()


def _kept(printed: str) -> str:
    """The old rendering without the knob legend's prose (today's legend explains each value
    a cause names, one line each) and the old order note: every header, count and cell stays."""
    lines, legend = [], False
    for line in printed.splitlines():
        legend = (legend or line == "The knobs:") and bool(line.strip())
        if not legend and not line.startswith("BLEU on 0–100; 1st and 2nd"):
            lines.append(line)
    return "\n".join(lines)


def _numbered(table: str) -> dict[str, list[str]]:
    """The cells of each numbered row's first line (columns are two or more spaces apart)."""
    rows = re.findall(r"^ *(\d+  \S.*)$", table, flags=re.M)
    return {cells[0]: cells for cells in (re.split(r" {2,}", row.strip()) for row in rows)}


def _not_in_order(wanted: list[str], shown: list[str]) -> list[str]:
    """The lines of ``wanted`` that do not appear in ``shown`` in the same order (today's
    screens add lines: column legends, what the cases are)."""
    rest = iter(shown)
    return [line for line in wanted if line not in rest]


def _cells(table: str) -> list[list[str]]:
    """A table's cells, whatever its layout (rules left out)."""
    return [line.split() for line in table.splitlines() if line.strip("-─ ")]


def _without_coverage(shown: str) -> str:
    """A run's table without the rule's warning (sacrebleu was checked on no case), the
    ``checked`` column and what was added below it (each column's meaning, the cases)."""
    warning, table = shown.split("\n\n", 1)
    assert (
        warning.startswith("TOO LITTLE CHECKED")
        and "bleu_impl:sacrebleu: checked on none" in warning
    )
    table = table.split("\n\n", 1)[0]
    header = table.splitlines()[0]
    start, end = header.index("checked"), header.index("conformance")
    return "\n".join(line[:start] + line[end:] for line in table.splitlines())


#: The lines added since: each column's meaning under its table, a longer order note.
_ADDED = re.compile(
    r"^  (pair|compared|identical|within tol|both failed|differing|material|negligible"
    r"|unexplained|errored|skipped|max \|Δ\||cause|pairs|cases|example)  .*\n"
    r"|^1st, 2nd: .*\n(difference; cause: as above\n)?",
    re.M,
)


def _without_legends(shown: str) -> str:
    old_note = "BLEU on 0–100; 1st and 2nd: the pair's implementations in its order (A–B: A, B)\n"
    return _ADDED.sub(lambda m: old_note if m.group().startswith("1st") else "", shown)


def test_old_compare_sides_read_as_typed_sides():
    report = read_log(DATA / "compare-errors-v2.jsonl")
    statuses = {side.status for pair in report.pairs for side in (pair.side_a, pair.side_b)}
    assert statuses == {"answered", "skipped"}
    failed = [p.side_b for p in report.pairs if p.side_b.failure is not None]
    assert failed and all(s.score is None for s in failed)
    skipped = [s for p in report.pairs for s in (p.side_a, p.side_b) if s.status == "skipped"]
    assert skipped and all(s.message for s in skipped)
