"""The SVG figures: well-formed, accessible, and their marks placed where the data says."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from conformance.reporters import figures

NS = {"s": "http://www.w3.org/2000/svg"}
COLORS = {"": "#000", "same": "#111", "off": "#222"}


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


def marks(root: ET.Element, tag: str) -> dict[str, ET.Element]:
    """Elements of ``tag`` that carry a tooltip, by tooltip text."""
    out = {}
    for element in root.iter(f"{{{NS['s']}}}{tag}"):
        tip = element.find("s:title", NS)
        if tip is not None:
            out[tip.text or ""] = element
    return out


def texts(root: ET.Element) -> dict[str, ET.Element]:
    """Every text element by what it shows."""
    return {"".join(el.itertext()): el for el in root.iter(f"{{{NS['s']}}}text")}


def _scatter(points: list[figures.Point], decades: int = 10) -> ET.Element:
    return parse(
        figures.scatter(
            points,
            title="A vs B",
            desc="d",
            x_label="A",
            y_label="B",
            decades=decades,
            colors=COLORS,
        )
    )


def test_log_scatter_equal_ratios_equal_distances_and_zero_in_its_lane():
    points = [
        figures.Point(1.0, 1.0, "a"),
        figures.Point(10.0, 10.0, "b"),
        figures.Point(100.0, 100.0, "c"),
        figures.Point(0.0, 1e-77, "zero vs float-min"),
    ]
    root = _scatter(points, decades=4)
    accessible(root)
    at = {tip: (floats(el, "cx"), floats(el, "cy")) for tip, el in marks(root, "circle").items()}
    assert at["b"][0] - at["a"][0] == pytest.approx(at["c"][0] - at["b"][0], abs=0.02)
    assert at["b"][1] - at["a"][1] == pytest.approx(at["c"][1] - at["b"][1], abs=0.02)
    assert at["b"][1] < at["a"][1]  # larger values higher up
    # 0 and 1e-77 sit in the out-of-range lanes: left of and below every in-range point
    assert at["zero vs float-min"][0] < at["a"][0] and at["zero vs float-min"][1] > at["a"][1]
    assert "< 0.01" in texts(root)  # the lane's label: 4 decades under 100


def test_scatter_points_with_equal_scores_lie_on_the_diagonal_and_others_off_it():
    points = [
        figures.Point(3.0, 3.0, "same"),
        figures.Point(50.0, 50.0, "same too"),
        figures.Point(50.0, 5.0, "off", "off"),
    ]
    root = _scatter(points)
    diagonal = next(
        el for el in root.iter(f"{{{NS['s']}}}line") if el.get("stroke-dasharray") == "4 4"
    )
    x1, y1, x2, y2 = (floats(diagonal, k) for k in ("x1", "y1", "x2", "y2"))

    def off_diagonal(el: ET.Element) -> float:
        cx, cy = floats(el, "cx"), floats(el, "cy")
        return (x2 - x1) * (cy - y1) - (y2 - y1) * (cx - x1)  # cross product: 0 on the line

    circles = marks(root, "circle")
    assert off_diagonal(circles["same"]) == pytest.approx(0, abs=50)  # 2-decimal coordinates
    assert off_diagonal(circles["same too"]) == pytest.approx(0, abs=50)
    assert abs(off_diagonal(circles["off"])) > 10_000
    assert circles["off"].get("fill") == COLORS["off"]


def _positions(values: list[float]) -> list[float]:
    spans = [figures.Span(str(i), v, v + 1) for i, v in enumerate(values)]
    root = parse(figures.range_plot(spans, title="t", desc="d", x_label="x"))
    return [floats(g.find("s:line", NS), "x1") for g in marks(root, "g").values()]


def test_range_plot_places_the_point_inside_its_interval_and_lengths_scale():
    spans = [figures.Span("A", 30.1, 32.5, 31.2), figures.Span("B", -0.5, 1.2, 0.3)]
    root = parse(figures.range_plot(spans, title="CIs", desc="d", reference=0.0, x_label="BLEU"))
    accessible(root)
    groups = marks(root, "g")
    assert set(groups) == {"A: 31.2 [30.1, 32.5]", "B: 0.3 [−0.5, 1.2]"}
    for group in groups.values():
        line, dot = group.find("s:line", NS), group.find("s:circle", NS)
        assert floats(line, "x1") < floats(dot, "cx") < floats(line, "x2")
    a, b = (groups[k].find("s:line", NS) for k in sorted(groups))
    length = [floats(el, "x2") - floats(el, "x1") for el in (a, b)]
    assert length[0] / length[1] == pytest.approx((32.5 - 30.1) / (1.2 + 0.5), rel=1e-3)
    zero = next(el for el in root.iter(f"{{{NS['s']}}}line") if el.get("stroke-dasharray"))
    assert floats(b, "x1") < floats(zero, "x1") < floats(b, "x2")  # 0 lies inside B's span
    assert "31.2 [30.1, 32.5]" in texts(root)


def test_range_plot_ticks_are_round_and_enclose_the_data():
    spans = [figures.Span("a", 37.61, 45.04)]
    root = parse(figures.range_plot(spans, title="t", desc="d", x_label="BLEU"))
    ticks = [t for t in texts(root) if t.replace(".", "").isdigit()]
    assert ticks == ["36", "38", "40", "42", "44", "46"]
    xs = _positions([0, 1, 2])
    assert xs[1] - xs[0] == pytest.approx(xs[2] - xs[1])


def test_bump_chart_lines_pass_through_their_ranks_with_gaps_for_missing():
    ranks = {"sys-a": [1, 2, None], "sys-b": [2, 1, 1], "sys-c": [3, 3, 2]}
    root = parse(figures.bump_chart(["BLEU", "chrF", "TER"], ranks, title="Ranks", desc="d"))
    accessible(root)
    shown = texts(root)
    # the y of each rank's axis label, and the x of each column's name
    rank_y = {r: floats(shown[str(r)], "y") - 4 for r in (1, 2, 3)}
    column_x = [floats(shown[c], "x") for c in ("BLEU", "chrF", "TER")]
    groups = {tip.split(":")[0]: g for tip, g in marks(root, "g").items()}
    for name, seq in ranks.items():
        dots = [(floats(c, "cx"), floats(c, "cy")) for c in groups[name].findall("s:circle", NS)]
        expected = [(x, rank_y[r]) for x, r in zip(column_x, seq) if r is not None]
        flat = [v for point in expected for v in point]
        assert [v for dot in dots for v in dot] == pytest.approx(flat, abs=0.05)
        line = groups[name].find("s:polyline", NS)
        vertices = [float(v) for p in line.get("points").split() for v in p.split(",")]
        assert vertices == pytest.approx(flat[: len(vertices)], abs=0.05)
    assert len(groups["sys-a"].findall("s:polyline", NS)) == 1  # stops at the gap


def test_a_narrow_chart_is_as_wide_as_its_title():
    """Two columns of short labels with a long title: the title is not clipped."""
    title = "Rank of each system under each distinct ranking of the implementations"
    root = parse(figures.bump_chart(["a", "b"], {"s": [1, 1]}, title=title, desc="d"))
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


def test_wide_column_names_do_not_overlap_and_long_ones_are_clipped():
    names = ["papineni2002 +7", "multi-bleu-detok +2", "tensor2tensor +2", "a very long name +3"]
    root = parse(figures.bump_chart(names, {"s": [1, 2, 1, 2]}, title="Ranks", desc="d"))
    labels = sorted(_column_labels(root))
    assert len(labels) == 4
    for (x1, y1, w1), (x2, y2, w2) in pairwise(labels):
        assert y1 != y2 or x2 - x1 > (w1 + w2) / 2  # another line, or room side by side
    assert "a very long name +3" in marks(root, "text")  # clipped, in full as a tooltip
    short = sorted(
        _column_labels(
            parse(figures.bump_chart(["a", "b", "c"], {"s": [1, 2, 3]}, title="t", desc="d"))
        )
    )
    assert len({y for _, y, _ in short}) == 1  # short names stay on one line


def test_many_series_stay_distinct():
    styles = {(figures.color_for(i), figures.dash_for(i)) for i in range(30)}
    assert len(styles) == 30
    ranks = {f"system {i}": [i + 1, 30 - i] for i in range(30)}
    root = parse(figures.bump_chart(["a", "b"], ranks, title="30 systems", desc="d"))
    assert len(marks(root, "g")) == 30


def test_text_is_escaped_and_two_figures_have_distinct_ids():
    a = parse(figures.bump_chart(["<script>&"], {"x": [1]}, title="a < b & c", desc="d"))
    b = parse(figures.bump_chart(["<script>&"], {"x": [1]}, title="other", desc="d"))
    assert accessible(a)[0] == "a < b & c" and "<script>&" in texts(a)
    assert a.find(".//s:script", NS) is None
    ids_a = {el.get("id") for el in a.iter() if el.get("id")}
    ids_b = {el.get("id") for el in b.iter() if el.get("id")}
    assert ids_a and not ids_a & ids_b


@pytest.mark.parametrize("values", [[0.0], [1e-300, 1.0], [math.inf], [5.0, 5.0], []])
def test_degenerate_data_still_gives_a_well_formed_figure(values):
    parse(
        figures.scatter(
            [figures.Point(v, v) for v in values],
            title="t",
            desc="d",
            x_label="",
            y_label="",
            colors=COLORS,
        )
    )
    finite = [v for v in values if math.isfinite(v)]
    spans = [figures.Span("a", v, v) for v in finite]
    parse(figures.range_plot(spans, title="t", desc="d", x_label=""))
    parse(
        figures.bump_chart([str(v) for v in values], {"s": [1] * len(values)}, title="t", desc="d")
    )
