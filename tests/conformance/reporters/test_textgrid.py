"""Terminal tables that fit their width."""

from __future__ import annotations

import pytest

from conformance.reporters.textgrid import clip, columns, grid, wrap


def widths(text: str) -> list[int]:
    return [len(line) for line in text.splitlines()]


@pytest.mark.parametrize("width", [60, 80, 120])
def test_text_columns_wrap_to_fit_and_numbers_stay_whole(width):
    rows = [
        ["nltk.smoothing.ship-3tok.method3", "59.46", "zero_match: zero vs float-min; " * 3],
        ["edge.empty-hypothesis-in-corpus", "1.22e-75", "denominator_floor: none vs per-segment"],
    ]
    table = grid(["case", "score", "cause"], rows, width=width, align="lrl")
    assert max(widths(table)) <= width
    lines = table.splitlines()
    assert any("1.22e-75" in line for line in lines) and any("59.46" in line for line in lines)
    # ids break after punctuation, not inside a word
    pieces = [line.split("  ")[0].strip() for line in lines[2:]]
    assert all(
        not p or p.endswith((".", "-")) or p in rows[0][0] or p in rows[1][0] for p in pieces
    )


def test_fits_unchanged_when_there_is_room():
    table = grid(["a", "b"], [["x", "1"]], width=80, align="lr")
    assert table.splitlines() == ["a  b", "─  ─", "x  1"]


def test_headers_of_number_columns_wrap_by_words():
    table = grid(["case", "both failed"], [["c", "2"]], width=12, align="lr")
    assert table.splitlines()[:2] == ["case    both", "      failed"]


def test_wrap_indents_continuations():
    assert wrap("one two three four", 10, "  ") == "one two\n  three\n  four"


def test_records_when_no_table_fits():
    rows = [["1", "a-rather-long-case-identifier", "12.345678", "cause one; cause two"]]
    text = grid(["#", "case", "score", "cause"], rows, width=30, align="rlrl")
    assert max(widths(text)) <= 30
    assert text.splitlines()[0].startswith("1  case:")
    assert "score: 12.345678" in " ".join(text.split())


@pytest.mark.parametrize("width", [24, 80])
def test_headings_open_their_groups_of_rows_above_wrapped_cells(width):
    rows = [["1", "a.b.c.d.e.f.g.h.i.j.k", "9.5"], ["2", "x", "1.0"], ["3", "y", "0.5"]]
    headings = {0: "cause: first", 2: "cause: second, a longer heading than the table is wide"}
    lines = grid(["#", "case", "Δ"], rows, width=width, align="rlr", headings=headings).split("\n")
    assert max(len(line) for line in lines) <= width
    first, second = (
        lines.index("cause: first"),
        next(k for k, line in enumerate(lines) if line.startswith("cause: second")),
    )
    assert first == 2  # under the header and its rule
    numbered = [k for k, line in enumerate(lines) if line.lstrip()[:1].isdigit()]
    assert first < numbered[0] < numbered[1] < second < numbered[2]


def test_headings_stay_in_records_when_no_table_fits():
    rows = [["1", "a-rather-long-case-identifier", "12.345678"]]
    text = grid(["#", "case", "score"], rows, width=20, align="rlr", headings={0: "cause: c"})
    assert text.splitlines()[0] == "cause: c" and text.splitlines()[1].startswith("1  case:")


def test_weights_keep_the_heavier_column_wider():
    rows = [["x" * 10 + " " + "y" * 10 + " " + "z" * 10, "a" * 8 + " " + "b" * 8 + " " + "c" * 8]]
    even = grid(["cause", "example"], rows, width=40)
    heavy = grid(["cause", "example"], rows, width=40, weights=(3, 1))
    assert len(heavy.splitlines()[1].split()[0]) > len(even.splitlines()[1].split()[0])


def test_columns_count_wide_characters_twice_and_marks_not_at_all():
    assert columns("abc") == 3
    assert columns("日本語") == 6 and columns("ｶﾀｶﾅ") == 4  # half-width katakana: one each
    assert columns("e\u0301") == 1 and columns("a\u200bb") == 2


@pytest.mark.parametrize("width", [5, 20, 21])
def test_clip_cuts_chinese_text_to_terminal_columns(width):
    text = "日/夜循环—伴随着独特的天气和气候变化，游戏围绕着改变 NPC 行为"
    cut = clip(text, width)
    assert cut.endswith("…") and columns(cut) <= width and text.startswith(cut[:-1])
    assert columns(cut) >= width - 2  # nothing left out that fitted
    assert clip("short", width) == "short"
