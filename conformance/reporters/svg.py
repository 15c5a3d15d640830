"""Inline SVG figures for the HTML reports: pure functions from data to an ``<svg>`` string.

Every figure carries an accessible ``<title>`` and ``<desc>``, labelled axes and a visible
title; text and axes are drawn in ``currentColor`` so a figure follows the page's light or
dark colors, and data marks use colors readable on both. Marks carry a ``<title>`` tooltip
with the exact value. Nothing is fetched: no fonts, no scripts.

The figures:

* :func:`hbars` — one horizontal bar per label (counts per cause, ...);
* :func:`heatmap` — a matrix of values (implementation × implementation disagreement);
* :func:`scatter` — points on linear or log axes, zero and negative values in their own
  lane on a log axis (A vs B scores);
* :func:`bump_chart` — ranks of series across columns (rankings under several metrics);
* :func:`grouped_bars` / :func:`stacked_bars` — several series per category;
* :func:`range_plot` — an interval and a point per row (confidence intervals).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from .numbers import pretty, superscript

__all__ = [
    "PALETTE",
    "Point",
    "Span",
    "bump_chart",
    "color_for",
    "dash_for",
    "grouped_bars",
    "hbars",
    "heatmap",
    "palette_for",
    "range_plot",
    "scatter",
    "stacked_bars",
]

# Okabe–Ito and Tableau-like hues of medium lightness: distinct for color-blind readers and
# readable on white and on near-black backgrounds.
PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#8cd17d",
)
# Dash patterns that tell series apart in line charts once the palette repeats.
_DASHES = ("", "6 3", "2 3", "8 3 2 3")

FONT = 12
CHAR = 0.6 * FONT  # average glyph width of a sans-serif at FONT px, for layout estimates
ROW = 22
Formatter = Callable[[float], str]


@dataclass(frozen=True)
class Point:
    """One point of a scatter plot; ``label`` is its tooltip, ``series`` its color group."""

    x: float
    y: float
    label: str = ""
    series: str = ""


@dataclass(frozen=True)
class Span:
    """One row of a range plot: an interval ``[low, high]`` and an optional point ``mid``."""

    label: str
    low: float
    high: float
    mid: float | None = None
    series: str = ""


def color_for(index: int) -> str:
    """The ``index``-th series color: the palette, then evenly spread hues (golden angle)."""
    if index < len(PALETTE):
        return PALETTE[index]
    hue = (index * 137.508) % 360
    lightness = 48 if index % 2 else 62
    return f"hsl({hue:.0f} 55% {lightness}%)"


def dash_for(index: int) -> str:
    """The ``index``-th series' line dash pattern: solid for the first ten series, then
    dashed patterns, so colors that repeat stay apart."""
    return _DASHES[(index // len(PALETTE)) % len(_DASHES)]


# --- text and layout --------------------------------------------------------------------


def _text_width(text: str, size: float = FONT) -> float:
    return len(text) * 0.6 * size


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(1, limit - 1)] + "…"


def _label_limit(width: float) -> int:
    """How many characters a row label may take: up to 40% of the figure's width."""
    return max(16, min(60, int(0.4 * width / CHAR)))


def _label_width(labels: Sequence[str], limit: int = 32) -> float:
    longest = max((len(_clip(label, limit)) for label in labels), default=0)
    return longest * CHAR + 10


def _attrs(**attrs: object) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None or value == "":
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = f"{value:.2f}".rstrip("0").rstrip(".")
        parts.append(f'{name}="{escape(str(value))}"')
    return " ".join(parts)


def _text(x: float, y: float, content: str, **attrs: object) -> str:
    return f"<text {_attrs(x=float(x), y=float(y), **attrs)}>{escape(content)}</text>"


def _label(x: float, y: float, content: str, limit: int = 32, **attrs: object) -> str:
    """A text clipped to ``limit`` characters, the full text in a tooltip when clipped."""
    shown = _clip(content, limit)
    tip = f"<title>{escape(content)}</title>" if shown != content else ""
    return f"<text {_attrs(x=float(x), y=float(y), **attrs)}>{tip}{escape(shown)}</text>"


def _svg(width: float, height: float, title: str, desc: str, body: Sequence[str]) -> str:
    """The root element: sized by its viewBox, scaled down to the container's width."""
    content = "".join(body)
    uid = "f" + hashlib.sha1(f"{title}\0{desc}\0{content}".encode()).hexdigest()[:10]
    content = content.replace("{uid}", uid)
    # never narrower than its heading (a narrow chart would clip its own title)
    w, h = math.ceil(max(width, 16 + _text_width(title, FONT + 2))), math.ceil(height)
    heading = _text(8, 18, title, font_weight="bold", font_size=FONT + 2)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
        f'height="{h}" role="img" aria-labelledby="{uid}-t {uid}-d" class="figure" '
        f'style="max-width:100%;height:auto" font-family="system-ui, sans-serif" '
        f'font-size="{FONT}" fill="currentColor">'
        f'<title id="{uid}-t">{escape(title)}</title><desc id="{uid}-d">{escape(desc)}</desc>'
        f"{heading}{content}</svg>"
    )


def palette_for(names: Sequence[str], colors: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each series' color: the one given in ``colors``, else the next of :func:`color_for`."""
    given = colors or {}
    return {name: given.get(name, color_for(i)) for i, name in enumerate(names)}


def _legend(
    names: Sequence[str], x: float, y: float, width: float, palette: Mapping[str, str] | None = None
) -> str:
    """Swatches and names, wrapped to ``width``; returns the markup (height: :func:`_legend_h`)."""
    palette = palette or palette_for(names)
    out, cx, cy = [], x, y
    for name in names:
        item = 18 + _text_width(_clip(name, 28)) + 14
        if cx + item > x + width and cx > x:
            cx, cy = x, cy + 18
        out.append(
            f"<rect {_attrs(x=cx, y=cy - 10, width=12, height=12, fill=palette[name])} rx='2'/>"
        )
        out.append(_label(cx + 18, cy, name, 28))
        cx += item
    return "".join(out)


def _legend_h(names: Sequence[str], width: float) -> float:
    rows, cx = 1, 0.0
    for name in names:
        item = 18 + _text_width(_clip(name, 28)) + 14
        if cx + item > width and cx > 0:
            rows, cx = rows + 1, 0.0
        cx += item
    return 18.0 * rows if names else 0.0


# --- scales -----------------------------------------------------------------------------


def _nice_step(span: float, target: int) -> float:
    raw = span / max(1, target)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


@dataclass(frozen=True)
class _Scale:
    """A linear or log10 map from a data domain onto pixels ``[a, b]``."""

    lo: float
    hi: float
    a: float
    b: float
    log: bool = False
    min_step: float = 0.0  # 1 for counts: no tick at 0.5 cases

    def __call__(self, value: float) -> float:
        if self.log:
            lo, hi, v = math.log10(self.lo), math.log10(self.hi), math.log10(value)
        else:
            lo, hi, v = self.lo, self.hi, value
        if hi == lo:
            return (self.a + self.b) / 2
        return self.a + (v - lo) / (hi - lo) * (self.b - self.a)

    def ticks(self, target: int = 5) -> list[float]:
        if self.log:
            first, last = math.floor(math.log10(self.lo)), math.ceil(math.log10(self.hi))
            every = max(1, math.ceil((last - first) / target))
            return [10.0**e for e in range(first, last + 1, every) if self.lo <= 10.0**e <= self.hi]
        step = _nice_step(self.hi - self.lo, target) if self.hi > self.lo else 1.0
        step = max(step, self.min_step)
        start = float(math.ceil(self.lo / step - 1e-9)) * step
        count = math.floor((self.hi - start) / step + 1e-9) + 1
        return [round(start + i * step, 12) for i in range(count)]


def _linear(
    lo: float, hi: float, a: float, b: float, target: int = 5, *, counts: bool = False
) -> _Scale:
    """A linear scale whose domain is widened to round tick values (whole numbers for
    ``counts``)."""
    if hi <= lo:
        hi = lo + 1
    step = max(_nice_step(hi - lo, target), 1.0 if counts else 0.0)
    low, high = math.floor(lo / step) * step, math.ceil(hi / step) * step
    return _Scale(low, high, a, b, min_step=1.0 if counts else 0.0)


def _whole(values: Sequence[float]) -> bool:
    return all(float(v).is_integer() for v in values)


def _log(values: Sequence[float], a: float, b: float) -> _Scale:
    """A log scale over the positive ``values`` widened to whole decades."""
    positive = [v for v in values if v > 0 and math.isfinite(v)]
    if not positive:
        return _Scale(0.1, 10.0, a, b, log=True)
    lo = 10.0 ** math.floor(math.log10(min(positive)))
    hi = 10.0 ** math.ceil(math.log10(max(positive)))
    return _Scale(lo, hi if hi > lo else lo * 10, a, b, log=True)


def _power(value: float) -> str:
    """A tick of a log axis: ``10⁻⁸`` for powers of ten far from 1, else the number."""
    exponent = round(math.log10(value)) if value > 0 else 0
    if value > 0 and abs(exponent) >= 4 and math.isclose(value, 10.0**exponent):
        return f"10{superscript(exponent)}"
    return pretty(value)


def _x_axis(scale: _Scale, y: float, label: str, fmt: Formatter, top: float) -> list[str]:
    """Grid lines from ``top`` to ``y``, tick labels below and the axis label."""
    fmt = _power if scale.log else fmt
    out = []
    for tick in scale.ticks():
        x = scale(tick)
        out.append(
            f'<line {_attrs(x1=x, y1=top, x2=x, y2=y)} stroke="currentColor" stroke-opacity=".15"/>'
        )
        out.append(_text(x, y + 14, fmt(tick), text_anchor="middle", fill_opacity=".8"))
    out.append(
        f'<line {_attrs(x1=scale.a, y1=y, x2=scale.b, y2=y)} stroke="currentColor" '
        'stroke-opacity=".5"/>'
    )
    if label:
        out.append(_text((scale.a + scale.b) / 2, y + 32, label, text_anchor="middle"))
    return out


def _y_axis(scale: _Scale, x: float, label: str, fmt: Formatter, right: float) -> list[str]:
    fmt = _power if scale.log else fmt
    out = []
    for tick in scale.ticks():
        y = scale(tick)
        out.append(
            f'<line {_attrs(x1=x, y1=y, x2=right, y2=y)} stroke="currentColor" '
            'stroke-opacity=".15"/>'
        )
        out.append(_text(x - 6, y + 4, fmt(tick), text_anchor="end", fill_opacity=".8"))
    out.append(
        f'<line {_attrs(x1=x, y1=scale.a, x2=x, y2=scale.b)} stroke="currentColor" '
        'stroke-opacity=".5"/>'
    )
    if label:
        cy = (scale.a + scale.b) / 2
        out.append(_text(14, cy, label, text_anchor="middle", transform=f"rotate(-90 14 {cy:.1f})"))
    return out


def _tick_width(scale: _Scale, fmt: Formatter) -> float:
    fmt = _power if scale.log else fmt
    return max((_text_width(fmt(t)) for t in scale.ticks()), default=0.0)


# --- figures ----------------------------------------------------------------------------


def hbars(
    items: Sequence[tuple[str, float]],
    *,
    title: str,
    desc: str = "",
    x_label: str = "",
    value_text: Formatter = pretty,
    color: str = PALETTE[0],
    width: int = 640,
) -> str:
    """One horizontal bar per ``(label, value)`` (values >= 0), in the given order, each with
    its value at the end of the bar."""
    labels = [label for label, _ in items]
    limit = _label_limit(width)
    left = _label_width(labels, limit) + 8
    texts = [value_text(v) for _, v in items]
    right = width - 12 - max((_text_width(t) for t in texts), default=0) - 6
    top, height = 32, ROW * max(1, len(items))
    values = [v for _, v in items]
    scale = _linear(0, max(values, default=1.0) or 1.0, left, right, counts=_whole(values))
    body = _x_axis(scale, top + height, x_label, pretty, top)
    for i, ((label, value), text) in enumerate(zip(items, texts)):
        y = top + i * ROW
        end = scale(max(0.0, value))
        body.append(_label(left - 8, y + 15, label, limit, text_anchor="end"))
        body.append(
            f"<rect {_attrs(x=left, y=y + 4, width=max(end - left, 1.0), height=ROW - 8)} "
            f'fill="{color}" rx="2"><title>{escape(label)}: {escape(text)}</title></rect>'
        )
        body.append(_text(end + 6, y + 15, text))
    total = top + height + (44 if x_label else 26)
    return _svg(width, total, title, desc or _describe_pairs(title, items, value_text), body)


def _describe_pairs(title: str, items: Sequence[tuple[str, float]], fmt: Formatter) -> str:
    shown = "; ".join(f"{label}: {fmt(value)}" for label, value in items[:12])
    more = f"; and {len(items) - 12} more" if len(items) > 12 else ""
    return f"{title}. {shown}{more}."


# Sequential ramp, light to dark (ColorBrewer YlGnBu stops), and the text color readable on it.
_RAMP = ((255, 255, 217), (199, 233, 180), (65, 182, 196), (34, 94, 168), (8, 29, 88))


def _ramp(t: float) -> tuple[str, str]:
    t = min(1.0, max(0.0, t))
    pos = t * (len(_RAMP) - 1)
    i = min(int(pos), len(_RAMP) - 2)
    frac = pos - i
    rgb = [round(a + (b - a) * frac) for a, b in zip(_RAMP[i], _RAMP[i + 1])]
    luminance = (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255
    return "#{:02x}{:02x}{:02x}".format(*rgb), ("#111" if luminance > 0.55 else "#fff")


def heatmap(
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    values: Sequence[Sequence[float | None]],
    *,
    title: str,
    desc: str = "",
    cell_text: Sequence[Sequence[str]] | None = None,
    x_label: str = "",
    y_label: str = "",
    legend_label: str = "",
    log: bool = False,
    value_text: Formatter = pretty,
) -> str:
    """A matrix of cells colored by value (light = low, dark = high; ``None`` is an empty,
    hatched cell), each showing ``cell_text`` or its value. ``log`` colors by log10 of the
    positive values."""
    flat = [v for row in values for v in row if v is not None and math.isfinite(v)]
    if log:
        flat = [v for v in flat if v > 0]
    lo, hi = (min(flat), max(flat)) if flat else (0.0, 1.0)

    def shade(v: float) -> float:
        if log:
            if v <= 0:
                return 0.0
            a, b, x = math.log10(lo), math.log10(hi), math.log10(v)
        else:
            a, b, x = lo, hi, v
        return 0.5 if b == a else (x - a) / (b - a)

    texts = cell_text or [[value_text(v) if v is not None else "" for v in row] for row in values]
    longest = max((len(t) for row in texts for t in row), default=1)
    cell = max(40.0, min(96.0, longest * CHAR + 12))
    left = _label_width(row_labels, 24) + (28 if y_label else 8)
    head = max((_text_width(_clip(c, 24)) for c in col_labels), default=0) * 0.72 + 16
    top = 32 + (18 if x_label else 0) + head
    body = [
        "<defs><pattern id='{uid}-hatch' width='6' height='6' patternUnits='userSpaceOnUse' "
        "patternTransform='rotate(45)'><line x1='0' y1='0' x2='0' y2='6' stroke='currentColor' "
        "stroke-opacity='.25' stroke-width='2'/></pattern></defs>"
    ]
    if x_label:
        mid = left + cell * len(col_labels) / 2
        body.append(_text(mid, 48, x_label, text_anchor="middle"))
    for j, col in enumerate(col_labels):
        x = left + j * cell + cell / 2
        body.append(_label(x, top - 6, col, 24, transform=f"rotate(-45 {x:.1f} {top - 6:.1f})"))
    for i, row in enumerate(row_labels):
        y = top + i * cell
        body.append(_label(left - 6, y + cell / 2 + 4, row, 24, text_anchor="end"))
        for j, value in enumerate(values[i]):
            body.append(
                _cell(left + j * cell, y, cell, value, texts[i][j], shade, row, col_labels[j])
            )
    if y_label:
        cy = top + cell * len(row_labels) / 2
        body.append(
            _text(14, cy, y_label, text_anchor="middle", transform=f"rotate(-90 14 {cy:.1f})")
        )
    bottom = top + cell * len(row_labels) + 16
    body.append(_ramp_legend(left, bottom, lo, hi, legend_label, log, value_text))
    legend_w = 170 + _text_width(legend_label + (" (log scale)" if log else "")) + 8
    width = max(left + cell * len(col_labels) + 12, left + legend_w)
    summary = (
        desc
        or f"{title}: {len(row_labels)} rows × {len(col_labels)} columns, "
        f"values from {value_text(lo)} to {value_text(hi)}."
    )
    return _svg(width, bottom + 44, title, summary, body)


def _cell(
    x: float,
    y: float,
    size: float,
    value: float | None,
    text: str,
    shade: Callable[[float], float],
    row: str,
    col: str,
) -> str:
    if value is None or not math.isfinite(value):
        return (
            f"<rect {_attrs(x=x + 1, y=y + 1, width=size - 2, height=size - 2)} "
            'fill="url(#{uid}-hatch)"><title>'
            f"{escape(row)} × {escape(col)}: no value</title></rect>"
        )
    fill, ink = _ramp(shade(value))
    return (
        f"<g><title>{escape(row)} × {escape(col)}: {escape(text)}</title>"
        f'<rect {_attrs(x=x + 1, y=y + 1, width=size - 2, height=size - 2, fill=fill)} rx="2"/>'
        f"{_text(x + size / 2, y + size / 2 + 4, text, text_anchor='middle', fill=ink)}</g>"
    )


def _ramp_legend(
    x: float, y: float, lo: float, hi: float, label: str, log: bool, fmt: Formatter
) -> str:
    stops = "".join(
        f"<stop offset='{k / 4:.2f}' stop-color='{_ramp(k / 4)[0]}'/>" for k in range(5)
    )
    scale = " (log scale)" if log else ""
    return (
        f"<defs><linearGradient id='{{uid}}-ramp'>{stops}</linearGradient></defs>"
        f"<rect {_attrs(x=x, y=y, width=160, height=10)} fill='url(#{{uid}}-ramp)'/>"
        + _text(x, y + 24, fmt(lo))
        + _text(x + 160, y + 24, fmt(hi), text_anchor="end")
        + _text(x + 170, y + 10, f"{label}{scale}")
    )


def scatter(
    points: Sequence[Point],
    *,
    title: str,
    desc: str = "",
    x_label: str = "",
    y_label: str = "",
    log: bool = True,
    diagonal: bool = True,
    floor: float | None = None,
    decades: int = 10,
    colors: Mapping[str, str] | None = None,
    width: int = 520,
    height: int = 440,
) -> str:
    """Points on log (default) or linear axes, colored by ``series`` with a legend.

    On a log axis, values <= 0 and values below ``floor`` (default: ``decades`` decades under
    the largest value) are drawn in a separate lane left of and below the axes, so a 0
    against a 1e-77 stays visible without squeezing the other points into one corner.
    ``diagonal`` draws y = x on one scale shared by both axes (A vs B plots). Each point's
    ``label`` (default: its coordinates) is its tooltip; ``colors`` fixes series colors."""
    series = list(dict.fromkeys(p.series for p in points))
    palette = palette_for(series, colors)
    legend_h = _legend_h(series, width - 80) if len(series) > 1 else 0.0
    xs, ys = [p.x for p in points], [p.y for p in points]
    box = _Box(left=0.0, right=width - 16.0, top=32 + legend_h + 8, bottom=height - 48.0)
    if log:
        floor = _floor(xs + ys, floor, decades)
        xs_scale, ys_scale, lane = _log_scales(xs, ys, floor, diagonal, box)
        inside = lambda v: v > 0 and (floor is None or v >= floor)  # noqa: E731
        lane_text = "≤ 0" if floor is None else f"< {_power(floor)}"
    else:
        xs_scale, ys_scale, lane = _linear_scales(xs, ys, diagonal, box)
        inside, lane_text = (lambda v: True), ""
    body = _x_axis(xs_scale, box.bottom, x_label, pretty, box.top)
    body += _y_axis(ys_scale, xs_scale.a - lane, y_label, pretty, box.right)
    if lane:
        body += _lanes(xs_scale, ys_scale, lane, lane_text, box)
    if diagonal:
        lo, hi = max(xs_scale.lo, ys_scale.lo), min(xs_scale.hi, ys_scale.hi)
        body.append(
            f"<line {_attrs(x1=xs_scale(lo), y1=ys_scale(lo), x2=xs_scale(hi), y2=ys_scale(hi))} "
            'stroke="currentColor" stroke-opacity=".4" stroke-dasharray="4 4">'
            "<title>y = x</title></line>"
        )
    for p in points:
        cx = xs_scale(p.x) if inside(p.x) else xs_scale.a - lane + _LANE / 2
        cy = ys_scale(p.y) if inside(p.y) else box.bottom - _LANE / 2
        tip = p.label or f"({pretty(p.x)}, {pretty(p.y)})"
        body.append(
            f"<circle {_attrs(cx=cx, cy=cy, r=3.5, fill=palette[p.series])} "
            f'fill-opacity=".75"><title>{escape(tip)}</title></circle>'
        )
    if legend_h:
        body.append(_legend(series, 40, 48, width - 80, palette))
    summary = desc or f"{title}: {len(points)} points."
    return _svg(width, height, title, summary, body)


@dataclass(frozen=True)
class _Box:
    left: float
    right: float
    top: float
    bottom: float


_LANE = 44.0


def _floor(values: Sequence[float], floor: float | None, decades: int) -> float | None:
    """The lowest value drawn on a log axis: ``floor``, else ``decades`` decades under the
    largest value when smaller values occur, else ``None`` (only values <= 0 are set apart)."""
    positive = [v for v in values if v > 0 and math.isfinite(v)]
    if floor is not None or not positive:
        return floor
    limit = 10.0 ** (math.ceil(math.log10(max(positive))) - decades)
    return limit if min(positive) < limit else None


def _log_scales(
    xs: Sequence[float], ys: Sequence[float], floor: float | None, diagonal: bool, box: _Box
) -> tuple[_Scale, _Scale, float]:
    """Both log scales and the gap between the y axis and the x scale's start (the lane)."""

    def shown(values: Sequence[float]) -> list[float]:
        kept = [v for v in values if v > 0 and (floor is None or v >= floor)]
        return [*kept, floor] if floor is not None else kept

    x_values, y_values = shown(xs), shown(ys)
    if diagonal:
        x_values = y_values = x_values + y_values
    outside = any(v <= 0 or (floor is not None and v < floor) for v in (*xs, *ys))
    probe = _log(y_values, 0, 1)
    ticks = probe.ticks()
    gap = _LANE + max(8.0, _text_width(_power(ticks[0])) / 2 if ticks else 0.0) if outside else 0
    left = 34 + _tick_width(probe, pretty) + gap
    bottom = box.bottom - (_LANE + 8 if outside else 0)
    return _log(x_values, left, box.right), _log(y_values, bottom, box.top), gap


def _linear_scales(
    xs: Sequence[float], ys: Sequence[float], diagonal: bool, box: _Box
) -> tuple[_Scale, _Scale, float]:
    both = [*xs, *ys]
    x_values, y_values = (both, both) if diagonal else (list(xs), list(ys))
    probe = _linear(min(y_values, default=0), max(y_values, default=1), 0, 1)
    left = 34 + _tick_width(probe, pretty)
    xs_scale = _linear(min(x_values, default=0), max(x_values, default=1), left, box.right)
    ys_scale = _linear(min(y_values, default=0), max(y_values, default=1), box.bottom, box.top)
    return xs_scale, ys_scale, 0.0


def _lanes(xs: _Scale, ys: _Scale, gap: float, label: str, box: _Box) -> list[str]:
    """The out-of-range lanes of a log scatter: a band along each axis and its label."""
    x0, y0 = xs.a - gap, box.bottom
    tint = 'fill="currentColor" fill-opacity=".05"'
    return [
        f"<rect {_attrs(x=x0, y=box.top, width=_LANE, height=y0 - box.top)} {tint}/>",
        f"<rect {_attrs(x=x0, y=y0 - _LANE, width=box.right - x0, height=_LANE)} {tint}/>",
        _text(x0 + _LANE / 2, box.bottom + 14, label, text_anchor="middle", font_size=10),
        _text(x0 - 6, y0 - _LANE / 2 + 4, label, text_anchor="end", font_size=10),
    ]


def bump_chart(
    columns: Sequence[str],
    ranks: Mapping[str, Sequence[int | None]],
    *,
    title: str,
    desc: str = "",
    y_label: str = "rank",
    width: int | None = None,
) -> str:
    """Each series' rank (1 = top) in every column, joined by lines, named at both ends;
    ``None`` leaves a gap. Colors repeat after ten series with a different dash pattern."""
    names = list(ranks)
    worst = max((r for seq in ranks.values() for r in seq if r is not None), default=1)
    label_w = _label_width(names, 24)
    step = 110.0
    # column names wider than the gap between columns: every other one a line higher
    stagger = len(columns) > 1 and _label_width(columns, 18) * 1.1 > step
    left, top = 44 + label_w + 8, 72 if stagger else 58
    width = width or int(left + step * max(1, len(columns) - 1) + label_w + 16)
    right = width - label_w - 16
    xs = [left + (right - left) * (j / max(1, len(columns) - 1)) for j in range(len(columns))]
    bottom = top + ROW * (worst - 1)
    body = []
    for j, col in enumerate(columns):
        y = 44 if stagger and j % 2 == 0 else top - 14
        body.append(_label(xs[j], y, col, 18, text_anchor="middle", font_weight="bold"))
        body.append(
            f"<line {_attrs(x1=xs[j], y1=top - 8, x2=xs[j], y2=bottom + 8)} "
            'stroke="currentColor" stroke-opacity=".12"/>'
        )
    for rank in range(1, worst + 1):
        y = top + ROW * (rank - 1)
        body.append(_text(36, y + 4, str(rank), text_anchor="end", fill_opacity=".7"))
    for i, name in enumerate(names):
        body.append(_bump_series(i, name, ranks[name], xs, top, label_w))
    cy = (top + bottom) / 2
    body.append(
        _text(
            14,
            cy,
            f"{y_label} (1 = top)",
            text_anchor="middle",
            transform=f"rotate(-90 14 {cy:.1f})",
        )
    )
    summary = desc or f"{title}: ranks of {len(names)} series across {len(columns)} columns."
    return _svg(width, bottom + 24, title, summary, body)


def _bump_series(
    index: int, name: str, seq: Sequence[int | None], xs: Sequence[float], top: float, lw: float
) -> str:
    color, dash = color_for(index), dash_for(index)
    at = [(xs[j], top + ROW * (r - 1)) for j, r in enumerate(seq) if r is not None]
    out = [
        f"<g><title>{escape(name)}: ranks {', '.join(str(r) if r else '–' for r in seq)}</title>"
    ]
    runs: list[list[tuple[float, float]]] = [[]]
    for j, r in enumerate(seq):
        if r is None:
            runs.append([])
        else:
            runs[-1].append((xs[j], top + ROW * (r - 1)))
    for run in runs:
        if len(run) > 1:
            d = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
            out.append(
                f'<polyline points="{d}" fill="none" stroke="{color}" stroke-width="2.5" '
                f"{_attrs(stroke_dasharray=dash)}/>"
            )
    out.extend(f"<circle {_attrs(cx=x, cy=y, r=4.5, fill=color)}/>" for x, y in at)
    if at:
        out.append(_label(at[0][0] - 10, at[0][1] + 4, name, 24, text_anchor="end"))
        out.append(_label(at[-1][0] + 10, at[-1][1] + 4, name, 24))
    out.append("</g>")
    return "".join(out)


def grouped_bars(
    categories: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    title: str,
    desc: str = "",
    x_label: str = "",
    y_label: str = "",
    y_max: float | None = None,
    value_text: Formatter = pretty,
    width: int | None = None,
) -> str:
    """Vertical bars: one group per category, one bar per series (``None``: no bar), a
    legend when there is more than one series, each bar's value in its tooltip and, when
    there is room, above it."""
    names = list(series)
    values = [v for seq in series.values() for v in seq if v is not None]
    bar = max(8.0, min(36.0, 240 / max(1, len(names))))
    group = bar * len(names) + 18
    width = width or int(max(360, 70 + group * len(categories) + 16))
    legend_h = _legend_h(names, width - 60) if len(names) > 1 else 0.0
    top, bottom = 40 + legend_h, 40 + legend_h + 220
    scale = _linear(0, y_max if y_max is not None else max(values, default=1.0) or 1.0, bottom, top)
    left = 28 + _tick_width(scale, pretty) + 10
    scale = _Scale(scale.lo, scale.hi, bottom, top)
    body = _y_axis(scale, left, y_label, pretty, width - 10)
    slot = (width - 10 - left) / max(1, len(categories))
    for c, category in enumerate(categories):
        x0 = left + c * slot + (slot - bar * len(names)) / 2
        body.append(
            _label(left + c * slot + slot / 2, bottom + 16, category, 16, text_anchor="middle")
        )
        for s, name in enumerate(names):
            value = series[name][c] if c < len(series[name]) else None
            if value is None:
                continue
            y = scale(max(scale.lo, min(value, scale.hi)))
            text = value_text(value)
            height = max(bottom - y, 0.5)
            body.append(
                f"<rect {_attrs(x=x0 + s * bar + 1, y=y, width=bar - 2, height=height)} "
                f'fill="{color_for(s)}" rx="1"><title>{escape(name)}, {escape(category)}: '
                f"{escape(text)}</title></rect>"
            )
            if _text_width(text, 10) <= bar + 6:
                body.append(
                    _text(x0 + s * bar + bar / 2, y - 4, text, text_anchor="middle", font_size=10)
                )
    if x_label:
        body.append(_text((left + width) / 2, bottom + 36, x_label, text_anchor="middle"))
    if legend_h:
        body.append(_legend(names, left, 42, width - left - 10))
    summary = desc or f"{title}: {len(names)} series over {len(categories)} categories."
    return _svg(width, bottom + (48 if x_label else 30), title, summary, body)


def stacked_bars(
    categories: Sequence[str],
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    desc: str = "",
    x_label: str = "",
    colors: Mapping[str, str] | None = None,
    width: int = 640,
) -> str:
    """Horizontal stacked bars: one row per category, one segment per series (e.g. pass,
    fail, skip per implementation), the segment's value inside it when it fits, the row
    total at its end."""
    names = list(series)
    palette = palette_for(names, colors)
    totals = [
        sum(series[n][c] for n in names if c < len(series[n])) for c in range(len(categories))
    ]
    limit = _label_limit(width)
    left = _label_width(categories, limit) + 8
    legend_h = _legend_h(names, width - left)
    top = 32 + legend_h + 8
    right = width - 12 - max((_text_width(pretty(t)) for t in totals), default=0) - 6
    scale = _linear(0, max(totals, default=1.0) or 1.0, left, right, counts=_whole(totals))
    bottom = top + ROW * max(1, len(categories))
    body = _x_axis(scale, bottom, x_label, pretty, top)
    for c, category in enumerate(categories):
        y, x = top + c * ROW, float(left)
        body.append(_label(left - 8, y + 15, category, limit, text_anchor="end"))
        for name in names:
            value = series[name][c] if c < len(series[name]) else 0
            if value <= 0:
                continue
            w = scale(value) - scale(0)
            body.append(
                f"<rect {_attrs(x=x, y=y + 3, width=w, height=ROW - 6, fill=palette[name])}>"
                f"<title>{escape(category)}, {escape(name)}: {escape(pretty(value))}</title></rect>"
            )
            text = pretty(value)
            if _text_width(text, 10) + 4 < w:
                body.append(
                    _text(x + w / 2, y + 15, text, text_anchor="middle", font_size=10, fill="#111")
                )
            x += w
        body.append(_text(x + 6, y + 15, pretty(totals[c])))
    body.append(_legend(names, left, 48, width - left, palette))
    summary = desc or f"{title}: " + "; ".join(
        f"{cat}: " + ", ".join(f"{n} {pretty(series[n][i])}" for n in names if i < len(series[n]))
        for i, cat in enumerate(categories[:12])
    )
    return _svg(width, bottom + (44 if x_label else 26), title, summary, body)


def range_plot(
    spans: Sequence[Span],
    *,
    title: str,
    desc: str = "",
    x_label: str = "",
    reference: float | None = None,
    value_text: Formatter = pretty,
    width: int = 640,
) -> str:
    """One row per span: a line from ``low`` to ``high`` and a dot at ``mid``, the numbers at
    the right; ``reference`` draws a dashed vertical line (e.g. 0 for differences)."""
    labels = [s.label for s in spans]
    texts = [
        (f"{value_text(s.mid)} " if s.mid is not None else "")
        + f"[{value_text(s.low)}, {value_text(s.high)}]"
        for s in spans
    ]
    series = list(dict.fromkeys(s.series for s in spans))
    left = _label_width(labels) + 8
    right = width - 12 - max((_text_width(t) for t in texts), default=0) - 10
    legend_h = _legend_h(series, width - left) if len(series) > 1 else 0.0
    top = 32 + legend_h + 8
    bounds = [v for s in spans for v in (s.low, s.high)] + (
        [reference] if reference is not None else []
    )
    scale = _linear(min(bounds, default=0.0), max(bounds, default=1.0), left, right)
    bottom = top + ROW * max(1, len(spans))
    body = _x_axis(scale, bottom, x_label, pretty, top)
    if reference is not None:
        x = scale(reference)
        body.append(
            f'<line {_attrs(x1=x, y1=top, x2=x, y2=bottom)} stroke="currentColor" '
            'stroke-opacity=".6" stroke-dasharray="4 3"/>'
        )
    for i, (span, text) in enumerate(zip(spans, texts)):
        y = top + i * ROW + ROW / 2
        color = color_for(series.index(span.series))
        body.append(_label(left - 8, y + 4, span.label, text_anchor="end"))
        body.append(
            f"<g><title>{escape(span.label)}: {escape(text)}</title>"
            f"<line {_attrs(x1=scale(span.low), y1=y, x2=scale(span.high), y2=y, stroke=color)} "
            'stroke-width="3" stroke-linecap="round"/>'
            + (
                f'<circle {_attrs(cx=scale(span.mid), cy=y, r=5, fill=color)} stroke="#fff"/>'
                if span.mid is not None
                else ""
            )
            + "</g>"
        )
        body.append(_text(right + 10, y + 4, text))
    if legend_h:
        body.append(_legend(series, left, 48, width - left))
    summary = desc or f"{title}: " + "; ".join(f"{s.label} {t}" for s, t in zip(spans[:12], texts))
    return _svg(width, bottom + (44 if x_label else 26), title, summary, body)
