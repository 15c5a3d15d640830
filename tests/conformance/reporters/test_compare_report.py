"""The compare report from a log: the answer first, rows by size naming their pair, every
format from the same log."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from conformance.reporters.compare_text import SUMMARY_HEADERS, TOP_ROWS

from . import gfm
from .compare_logs import IMPLS, CompareLog, pair, render, three_way


@pytest.mark.parametrize("width", [60, 80, 120])
def test_table_fits_the_width_and_answers_first(width):
    text = render(three_way(), "table", width=width)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    assert lines[0] == "Compared 3 implementations on 6 cases:"
    assert lines[1:4] == [
        "  A  ours 1 (--impl bleu_impl)",
        "  B  lib 2",
        "  C  tool|x 3 (--impl tool)",
    ]
    head = " ".join(lines[4:9])
    assert "3 material differences" in head and "3 negligible differences" in head


def test_rows_are_sorted_by_size_and_name_their_pair():
    text = render(three_way(), "table", width=120)
    section = text.split("Material differences")[1].split("\n\n")[0]
    rows = [line.split() for line in section.splitlines()[3:] if re.match(r"\s*\d+ ", line)]
    assert [(r[1], r[2]) for r in rows] == [("boom", "B–C"), ("big", "A–B"), ("edge", "A–C")]
    assert rows[1][3:6] == ["30.00", "24.05", "-5.95"]
    assert rows[0][4:6] == ["fails", "(crash)"]
    assert "Negligible differences" not in text  # only with -v


def test_verbose_lists_every_row_statistics_and_skip_reasons():
    text = render(three_way(), "table", width=120, verbose=True)
    assert "Negligible differences (3)" in text
    numbers = re.findall(r"^\s*(\d+)  ", text, flags=re.M)
    assert numbers == ["1", "2", "3", "4", "5", "6"]
    assert "p4 0/3 vs 0/3" in text
    assert "ours cannot express smoothing='x'" in text


def test_only_the_largest_material_rows_without_verbose():
    pairs = [pair(f"c{i:02d}", "ours", "lib", 0.5, 0.5 + i / 1000) for i in range(1, 16)]
    log = CompareLog({"version": 2}, IMPLS[:2], pairs, {"pairs": "complete"})
    text = render(log, "table", width=100)
    assert f"… and {15 - TOP_ROWS} more (-v lists every row)" in text
    assert "c15" in text and "c01" not in text.split("Why:")[1]


def test_scores_get_the_decimals_that_tell_them_apart():
    log = CompareLog({"version": 2}, IMPLS[:2], [pair("x", "ours", "lib", 0.123451, 0.123501)])
    row = [line for line in render(log, "table").splitlines() if re.match(r"\s*1  x ", line)]
    assert row and "12.345 " in row[0] and "12.350 " in row[0]  # both 12.35 at two decimals


def test_an_answer_of_minus_zero_prints_as_zero():
    log = CompareLog({"version": 2}, IMPLS[:2], [pair("x", "ours", "lib", -0.0, 0.5)])
    for fmt in ("table", "markdown", "html"):
        text = render(log, fmt)
        assert "-0.00" not in text and "0.00" in text, fmt


def test_no_difference_says_so():
    log = CompareLog({"version": 2}, IMPLS[:2], [pair("x", "ours", "lib", 0.5, 0.5)])
    assert "No differences" in render(log, "table")


def test_incomplete_log_is_flagged_in_every_format():
    log = three_way()
    log.end = None
    for fmt in ("table", "markdown", "html"):
        assert "INCOMPLETE" in render(log, fmt), fmt
    assert json.loads(render(log, "json"))["complete"] is False


def test_markdown_is_gfm_tables():
    text = render(three_way(), "markdown")
    tables = gfm.check(text)
    headers = [t.headers for t in tables]
    assert headers[0][-1] == "max |Δ|"  # the escaped pipe stays inside its cell
    assert ["case", "pair", "first said", "second said"] not in headers  # nothing errored
    differences = [t for t in tables if t.headers[:3] == ["#", "case", "pair"]]
    assert len(differences) == 2  # material, and negligible inside <details>
    assert [r[2] for r in differences[0].rows] == ["B–C", "A–B", "A–C"]
    # an implementation named with a pipe stays one cell
    assert "**C** = `tool|x` 3" in text


def test_json_keeps_its_keys_and_adds_the_findings():
    data = json.loads(render(three_way(), "json"))
    assert {"complete", "implementations", "summary", "pairs"} <= set(data)
    assert set(SUMMARY_HEADERS) <= set(data["summary"][0])
    assert len(data["pairs"]) == len(three_way().pairs)
    assert data["letters"] == {"ours": "A", "lib": "B", "tool|x": "C"}
    assert [m["item"] for m in data["material"]] == ["boom", "big", "edge"]
    assert data["materiality"]["threshold_0_100"] == 0.005
    causes = {c["cause"]: c for c in data["causes"]}
    assert causes["zero_match: zero vs float-min"]["material"] == 0


def test_html_has_the_scatter_the_matrix_the_cause_bars_and_every_row():
    page = render(three_way(), "html")
    svgs = re.findall(r"<svg .*?</svg>", page, flags=re.S)
    titles = [ET.fromstring(s).find("{http://www.w3.org/2000/svg}title").text for s in svgs]
    assert titles == ["First against second score of each pair (BLEU, 0–100, log)"]
    # the matrix: every ordered pair's material / differing cases, as the pairs table says
    heat = page.split('<table class="heat">')[1].split("</table>")[0]
    names = ["A ours", "B lib", "C tool|x"]
    assert sorted(re.findall(r'title="([^"]+)"', heat)) == sorted(
        f"{a} × {b}: " + ("no value" if a == b else "1/2") for a in names for b in names
    )
    # each cause's bar: its material and negligible cases, as its row's numbers say
    why = page.split("Why: causes")[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", why)[1:]
    assert len(rows) == 4
    for row in rows:
        cases, material = (int(n) for n in re.findall(r'<td class="num">(\d+)</td>', row)[:2])
        segments = re.findall(r'title="(\w+) difference: (\d+)"', row)
        assert [(k, int(n)) for k, n in segments] == [
            (k, n) for k, n in (("material", material), ("negligible", cases - material)) if n
        ]
    for item in ("boom", "big", "edge", "tiny", "near"):
        assert f">{item}<" in page
    assert "<script" not in page and "1×10⁻⁷⁷" not in page.split("<svg")[0]


def test_the_knob_legend_explains_the_values_in_the_causes_and_no_others(capsys, monkeypatch):
    """The output that showed the bug: sacrebleu's profile against live NLTK on the paper's
    'the the the' explains ``smoothing: exp vs nltk-method0`` and listed coco-eps,
    allennlp-eps and add-one-fmin (the smoothing knob's whole documentation)."""
    from conformance.cli import main

    monkeypatch.setenv("COLUMNS", "150")
    main(["compare", "--impl", "bleu_impl:sacrebleu", "--impl", "nltk", "-k", "live.the_the_the"])
    text = capsys.readouterr().out
    assert "smoothing: exp vs nltk-method0; zero_match: zero" in text
    legend = text.split("The knobs:\n")[1].split("\n\n")[0].splitlines()
    assert [line.split(":")[0] for line in legend] == [
        "smoothing=exp",
        "smoothing=nltk-method0",
        "zero_match=zero",
        "zero_match=float-min",
    ]
    assert not any(v in text for v in ("coco-eps", "allennlp-eps", "add-one-fmin", "floor"))
