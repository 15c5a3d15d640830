"""The HTML page shell: self-contained, escaped text, numbers formatted and aligned; bars
and heat maps in HTML and CSS that show their values."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from conformance.reporters import figures, html


class Collector(HTMLParser):
    """Tags with their attributes, and the text of every table cell."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.cells: list[tuple[str, str]] = []
        self._cell: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("td", "th"):
            self._cell = (dict(attrs).get("class") or "", [])

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell:
            self.cells.append((self._cell[0], "".join(self._cell[1])))
            self._cell = None

    def handle_data(self, data):
        if self._cell:
            self._cell[1].append(data)


def collect(markup: str) -> Collector:
    parser = Collector()
    parser.feed(markup)
    parser.close()
    return parser


def test_page_is_self_contained():
    figure = figures.bump_chart(["a"], {"s": [1]}, title="t", desc="d")
    bars = html.bar([("a", 1.0, "#123456")], 2.0)
    heat = html.heat_table(["r"], ["c"], [[1.0]], [["1"]], caption="h")
    page = html.page(
        "Report", html.section("One", html.figure(figure, "caption"), bars, heat), meta={"v": 1}
    )
    tags = collect(page).tags
    names = [t for t, _ in tags]
    assert names[:2] == ["html", "head"] and "style" in names and "svg" in names
    assert "script" not in names and "link" not in names and "img" not in names
    for _, attrs in tags:  # nothing is fetched: no src/href to anything but an in-page id
        for key in ("src", "href"):
            assert not attrs.get(key) or attrs[key].startswith("#")
    assert "prefers-color-scheme: dark" in page and "@import" not in page


def test_text_is_escaped_and_markup_passes():
    page = html.page(
        "a <b> & c",
        html.paragraph("<script>alert(1)</script>"),
        html.table(["h"], [["x | y"], [html.badge("fail", "bad")]]),
    )
    tags = [t for t, _ in collect(page).tags]
    assert "script" not in tags and "b" not in tags
    assert "&lt;script&gt;" in page and '<span class="badge bad">fail</span>' in page


def test_numbers_are_formatted_and_right_aligned():
    rows = [["case one", 1e-77, 0.59512, 12345, None]]
    cells = collect(html.table(["case", "A", "|Δ|", "n", "x"], rows)).cells
    body = dict((text, cls) for cls, text in cells[5:])
    assert body == {"case one": "", "1×10⁻⁷⁷": "num", "0.595": "num", "12,345": "num", "–": "num"}


def test_numeric_columns_flagged_align_their_headers():
    cells = collect(html.table(["name", "score"], [["a", "31.20"]], numeric=[False, True])).cells
    assert cells == [("", "name"), ("num", "score"), ("", "a"), ("num", "31.20")]


def test_details_section_and_key_values():
    block = html.section("S", html.details("every row", html.pre("a\nb")))
    assert block.startswith("<section><h2>S</h2><details>")
    assert "<summary>every row</summary><pre>a\nb</pre>" in block
    assert html.key_values({"k": "<v>"}) == '<dl class="meta"><dt>k</dt><dd>&lt;v&gt;</dd></dl>'


def _segments(markup: str) -> list[tuple[str, float, str]]:
    """Each bar segment's tooltip, its share of the bar's room and its color."""
    found = re.findall(
        r'<span style="width:calc\(\(100% - 7ch\) \* ([0-9.]+)\);background:([^"]+)" '
        r'title="([^"]*)"></span>',
        markup,
    )
    return [(title, float(share), color) for share, color, title in found]


def test_bar_segments_are_proportional_to_their_values_with_the_total_as_text():
    markup = html.bar([("pass", 6, "#0a0"), ("fail", 0, "#a00"), ("skip", 3, "#aa0")], 12)
    assert _segments(markup) == [("pass: 6", 0.5, "#0a0"), ("skip: 3", 0.25, "#aa0")]
    assert markup.endswith("<span>9</span></div>")  # the total, shown
    assert 'aria-label="pass 6, fail 0, skip 3"' in markup
    largest = html.bar([("pass", 12, "#0a0")], 12)
    assert _segments(largest) == [("pass: 12", 1.0, "#0a0")]


def test_bar_text_and_names_are_escaped():
    markup = html.bar([("<b>", 0.25, "#000")], 1.0, "0.25 <i>")
    assert "<b>" not in markup and "<i>" not in markup and "&lt;b&gt;: 0.25" in markup
    assert html.bar([("x", 0.0, "#000")], 0.0, "–").endswith("<span>–</span></div>")


def test_heat_table_shades_by_value_the_largest_fullest():
    names = ["ours", "nltk", "sacrebleu"]
    values = [[None, 85.0, 3.0], [85.0, None, 90.0], [3.0, 90.0, None]]
    texts = [[str(v) if v is not None else "" for v in row] for row in values]
    markup = html.heat_table(names, names, values, texts, caption="Disagreements")
    cells = re.findall(
        r"<td( class=\"\w+\")?(?: style=\"--share:([0-9.]+)%\")? title=\"([^\"]+)\"", markup
    )
    shares = {title: float(share) for _, share, title in cells if share}
    assert shares["nltk × sacrebleu: 90.0"] == 100.0
    assert shares["ours × nltk: 85.0"] == pytest.approx(100 * 85 / 90, abs=0.05)
    assert shares["ours × sacrebleu: 3.0"] == pytest.approx(100 * 3 / 90, abs=0.05)
    empty = [title for cls, _, title in cells if cls == ' class="none"']
    assert empty == [f"{n} × {n}: no value" for n in names]
    parsed = collect(markup)
    assert [a.get("scope") for t, a in parsed.tags if t == "th"] == ["col"] * 3 + ["row"] * 3
    assert "<caption>Disagreements</caption>" in markup


def test_legend_names_every_color():
    markup = html.legend({"material": "#d1495b", "a < b": "#8d99ae"})
    assert re.findall(r'background:(#\w+)"></span>([^<]*)<', markup) == [
        ("#d1495b", "material"),
        ("#8d99ae", "a &lt; b"),
    ]
