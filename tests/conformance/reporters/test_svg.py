"""The SVG figures: well-formed, accessible, and their marks placed where the data says."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from conformance.reporters import svg

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(markup: str) -> ET.Element:
    root = ET.fromstring(markup)
    assert root.tag == f"{{{NS['s']}}}svg"
    return root


def accessible(root: ET.Element) -> tuple[str, str]:
    """The figure's title and description, checked to be referenced by aria-labelledby."""
    title = root.find("s:title", NS)
    desc = root.find("s:desc", NS)
    assert title is not None and desc is not None
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert title.text and desc.text
    return title.text, desc.text


def floats(element: ET.Element, name: str) -> float:
    return float(element.get(name) or "nan")


def marks(root: ET.Element, tag: str) -> list[tuple[ET.Element, str]]:
    """Elements of ``tag`` that carry a tooltip, with the tooltip text."""
    out = []
    for element in root.iter(f"{{{NS['s']}}}{tag}"):
        tip = element.find("s:title", NS)
        if tip is not None:
            out.append((element, tip.text or ""))
    return out


def test_hbars_lengths_are_proportional_and_labelled():
    root = parse(
        svg.hbars(
            [("float-min", 85), ("tokenizer", 17), ("none", 0)], title="Causes", x_label="cases"
        )
    )
    title, desc = accessible(root)
    assert title == "Causes" and "float-min: 85" in desc
    bars = {tip.split(":")[0]: floats(el, "width") for el, tip in marks(root, "rect")}
    assert bars["float-min"] / bars["tokenizer"] == pytest.approx(85 / 17, rel=1e-3)
    assert bars["none"] <= 1.0
    assert "cases" in "".join(root.itertext())


def test_long_labels_are_clipped_with_the_full_text_as_tooltip():
    label = "a cause with a very long explanation that does not fit in the label column"
    root = parse(svg.hbars([(label, 3)], title="t"))
    texts = [el for el in root.iter(f"{{{NS['s']}}}text") if el.find("s:title", NS) is not None]
    assert texts and texts[0].find("s:title", NS).text == label
    assert "".join(texts[0].itertext()).endswith("…")


def test_text_is_escaped():
    root = parse(svg.hbars([("<script>&", 1)], title="a < b & c"))
    assert accessible(root)[0] == "a < b & c"
    assert root.find(".//s:script", NS) is None


def test_heatmap_darker_for_larger_values_and_hatched_for_none():
    names = ["ours", "nltk", "sacrebleu"]
    values = [[None, 85, 3], [85, None, 90], [3, 90, None]]
    root = parse(svg.heatmap(names, names, values, title="Disagreements", legend_label="cases"))
    accessible(root)
    fills: dict[str, str] = {}
    for group, tip in marks(root, "g"):
        rect = group.find("s:rect", NS)
        fills[tip] = rect.get("fill")
    hatched = [tip for el, tip in marks(root, "rect") if "url(#" in (el.get("fill") or "")]
    assert len(hatched) == 3 and all("no value" in tip for tip in hatched)

    def luminance(color: str) -> float:
        r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
        return 0.299 * r + 0.587 * g + 0.114 * b

    assert luminance(fills["nltk × sacrebleu: 90"]) < luminance(fills["ours × sacrebleu: 3"])
    # the hatch pattern and gradient ids exist in this figure
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    refs = set(re.findall(r"url\(#([^)]+)\)", ET.tostring(root, encoding="unicode")))
    assert refs <= ids


def test_two_figures_on_one_page_have_distinct_ids():
    a = parse(svg.heatmap(["x"], ["y"], [[1.0]], title="one"))
    b = parse(svg.heatmap(["x"], ["y"], [[1.0]], title="two"))
    ids_a = {el.get("id") for el in a.iter() if el.get("id")}
    ids_b = {el.get("id") for el in b.iter() if el.get("id")}
    assert ids_a and not ids_a & ids_b


def test_log_scatter_equal_ratios_equal_distances_and_zero_in_its_lane():
    points = [
        svg.Point(1.0, 1.0, "a"),
        svg.Point(10.0, 10.0, "b"),
        svg.Point(100.0, 100.0, "c"),
        svg.Point(0.0, 1e-77, "zero vs float-min"),
    ]
    root = parse(svg.scatter(points, title="A vs B", x_label="A", y_label="B", decades=4))
    accessible(root)
    at = {tip: (floats(el, "cx"), floats(el, "cy")) for el, tip in marks(root, "circle")}
    assert at["b"][0] - at["a"][0] == pytest.approx(at["c"][0] - at["b"][0], abs=0.02)
    assert at["b"][1] < at["a"][1]  # larger values higher up
    # 0 and 1e-77 sit in the out-of-range lanes: left of and below every in-range point
    assert at["zero vs float-min"][0] < at["a"][0] and at["zero vs float-min"][1] > at["a"][1]
    text = "".join(root.itertext())
    assert "< 0.01" in text  # the lane's label: 4 decades under 100


def test_linear_scatter_orders_points():
    points = [svg.Point(1.0, 5.0, "p"), svg.Point(3.0, 2.0, "q")]
    root = parse(svg.scatter(points, title="t", log=False, diagonal=False))
    at = {tip: (floats(el, "cx"), floats(el, "cy")) for el, tip in marks(root, "circle")}
    assert at["p"][0] < at["q"][0] and at["p"][1] < at["q"][1]


def test_bump_chart_rank_one_on_top_and_gaps_for_missing():
    ranks = {"sys-a": [1, 2, None], "sys-b": [2, 1, 1]}
    root = parse(svg.bump_chart(["BLEU", "chrF", "TER"], ranks, title="Ranks"))
    accessible(root)
    groups = dict((tip.split(":")[0], g) for g, tip in marks(root, "g"))
    a_first = [floats(c, "cy") for c in groups["sys-a"].findall("s:circle", NS)]
    b_first = [floats(c, "cy") for c in groups["sys-b"].findall("s:circle", NS)]
    assert len(a_first) == 2 and len(b_first) == 3
    assert a_first[0] < b_first[0] and a_first[1] > b_first[1]


def test_a_narrow_chart_is_as_wide_as_its_title():
    """Two columns of short labels with a long title: the title is not clipped."""
    title = "Rank of each system under each distinct ranking of the implementations"
    root = parse(svg.bump_chart(["a", "b"], {"s": [1, 1]}, title=title))
    width = float(root.get("viewBox").split()[2])
    assert width >= len(title) * 0.6 * 14  # the heading's estimated width at its font size


def _column_labels(root) -> list[tuple[float, float, float]]:
    """(x, y, estimated width) of every bold column name."""
    out = []
    for el in root.iter(f"{{{NS['s']}}}text"):
        if el.get("font-weight") == "bold" and el.get("text-anchor") == "middle":
            tip = el.find("s:title", NS)  # a clipped name: the full one in a tooltip
            shown = el.text if tip is None else tip.tail
            out.append((floats(el, "x"), floats(el, "y"), len(shown or "") * 0.6 * 13))
    return out


def test_wide_column_names_do_not_overlap():
    names = ["papineni2002 +7", "multi-bleu-detok +2", "tensor2tensor +2", "sacrebleu +3"]
    root = parse(svg.bump_chart(names, {"s": [1, 2, 1, 2]}, title="Ranks"))
    labels = sorted(_column_labels(root))
    assert len(labels) == 4
    for (x1, y1, w1), (x2, y2, w2) in pairwise(labels):
        assert y1 != y2 or x2 - x1 > (w1 + w2) / 2  # another line, or room side by side
    short = sorted(
        _column_labels(parse(svg.bump_chart(["a", "b", "c"], {"s": [1, 2, 3]}, title="t")))
    )
    assert len({y for _, y, _ in short}) == 1  # short names stay on one line


def test_many_series_stay_distinct():
    styles = {(svg.color_for(i), svg.dash_for(i)) for i in range(30)}
    assert len(styles) == 30
    ranks = {f"system {i}": [i + 1, 30 - i] for i in range(30)}
    root = parse(svg.bump_chart(["a", "b"], ranks, title="30 systems"))
    assert len(marks(root, "g")) == 30


def test_grouped_bars_heights_proportional_none_skipped():
    series = {"ours": [0.8, 0.4], "nltk": [0.8, None]}
    root = parse(svg.grouped_bars(["p1", "p2"], series, title="Precisions", y_max=1.0))
    accessible(root)
    heights = {tip: floats(el, "height") for el, tip in marks(root, "rect")}
    assert len(heights) == 3
    assert heights["ours, p1: 0.8"] / heights["ours, p2: 0.4"] == pytest.approx(2, rel=1e-3)
    assert heights["nltk, p1: 0.8"] == pytest.approx(heights["ours, p1: 0.8"])


def test_stacked_bars_segments_proportional_with_given_colors():
    series = {"pass": [280, 150], "fail": [4, 0], "skip": [10, 144]}
    colors = {"pass": "#2da44e", "fail": "#cf222e", "skip": "#bf8700"}
    root = parse(svg.stacked_bars(["ours", "nltk"], series, title="Outcomes", colors=colors))
    accessible(root)
    segments = {tip: el for el, tip in marks(root, "rect")}
    assert "nltk, fail: 0" not in "".join(segments)  # empty segments are not drawn
    assert segments["ours, pass: 280"].get("fill") == "#2da44e"
    ratio = floats(segments["ours, pass: 280"], "width") / floats(
        segments["nltk, skip: 144"], "width"
    )
    assert ratio == pytest.approx(280 / 144, rel=1e-3)


def test_range_plot_places_the_point_inside_its_interval():
    spans = [svg.Span("A", 30.1, 32.5, 31.2), svg.Span("B", -0.5, 1.2, 0.3)]
    root = parse(svg.range_plot(spans, title="CIs", reference=0.0, x_label="BLEU"))
    _, desc = accessible(root)
    assert "31.2 [30.1, 32.5]" in desc
    for group, _ in marks(root, "g"):
        line = group.find("s:line", NS)
        dot = group.find("s:circle", NS)
        assert floats(line, "x1") < floats(dot, "cx") < floats(line, "x2")


@pytest.mark.parametrize("values", [[0.0], [1e-300, 1.0], [math.inf], [5.0, 5.0]])
def test_degenerate_data_still_gives_a_well_formed_figure(values):
    pairs = [(str(i), v if math.isfinite(v) else 1.0) for i, v in enumerate(values)]
    parse(svg.hbars(pairs, title="t"))
    parse(svg.scatter([svg.Point(v, v) for v in values if math.isfinite(v)], title="t"))
    parse(svg.heatmap(["a"], [str(i) for i in range(len(values))], [values], title="t"))
    parse(svg.range_plot([svg.Span("a", 0.0, 0.0)], title="t"))
    parse(svg.grouped_bars(["a"], {"s": [0.0]}, title="t"))


def test_counts_get_whole_number_ticks():
    root = parse(svg.stacked_bars(["a", "b"], {"pass": [1.0, 2.0]}, title="t"))
    ticks = [el.text for el in root.iter(f"{{{NS['s']}}}text") if el.get("fill-opacity") == ".8"]
    assert ticks == ["0", "1", "2"]
