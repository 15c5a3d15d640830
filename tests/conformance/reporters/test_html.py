"""The HTML page shell: self-contained, escaped text, numbers formatted and aligned."""

from __future__ import annotations

from html.parser import HTMLParser

from conformance.reporters import html, svg


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
    figure = svg.hbars([("a", 1.0)], title="t")
    page = html.page("Report", html.section("One", html.figure(figure, "caption")), meta={"v": 1})
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
    block = html.section("S", html.details("every row", html.pre("a\nb")), anchor="s")
    assert block.startswith('<section id="s"><h2>S</h2><details>')
    assert "<summary>every row</summary><pre>a\nb</pre>" in block
    assert html.key_values({"k": "<v>"}) == '<dl class="meta"><dt>k</dt><dd>&lt;v&gt;</dd></dl>'
