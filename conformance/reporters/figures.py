"""Inline SVG figures where position carries the data: a log–log scatter of two scores, a
range plot (an interval and a point per row) and a bump chart (ranks across columns).
Bars and heat maps are HTML and CSS (:func:`.html.bar`, :func:`.html.heat_table`).

Each function returns an ``<svg>`` string with an accessible ``<title>`` and ``<desc>`` and
a visible title. Text and axes are drawn in ``currentColor``, so a figure follows the page's
light or dark colors; every mark has a ``<title>`` tooltip with its exact value. Nothing is
fetched: no fonts, no scripts.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from .numbers import EMPTY, pretty, superscript

__all__ = [
    "PALETTE",
    "Point",
    "Span",
    "bump_chart",
    "color_for",
    "dash_for",
    "range_plot",
    "scatter",
]

#: Tableau-like hues of medium lightness, readable on white and on near-black.
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
_DASHES = ("", "6 3", "2 3", "8 3 2 3")  # tell lines apart once the palette repeats
FONT, ROW = 12, 22
CHAR = 0.6 * FONT  # average glyph width of a sans-serif at FONT px, for layout estimates
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


def color_for(index: int) -> str:
    """The ``index``-th series color: the palette, then evenly spread hues (golden angle)."""
    if index < len(PALETTE):
        return PALETTE[index]
    return f"hsl({index * 137.508 % 360:.0f} 55% {48 if index % 2 else 62}%)"


def dash_for(index: int) -> str:
    """The ``index``-th line's dash pattern: solid for the first ten, then dashed."""
    return _DASHES[(index // len(PALETTE)) % len(_DASHES)]


def _tag(name: str, *content: str, tip: str = "", **attrs: object) -> str:
    """An element: ``stroke_width=2`` is ``stroke-width="2"``; ``tip`` is a tooltip."""
    pairs = "".join(
        f' {key.replace("_", "-")}="{escape(f"{v:.2f}" if isinstance(v, float) else str(v))}"'
        for key, v in attrs.items()
        if v is not None and v != ""
    )
    title = f"<title>{escape(tip)}</title>" if tip else ""
    return f"<{name}{pairs}>{title}{''.join(content)}</{name}>"


def _text(x: float, y: float, text: str, limit: int = 0, **attrs: object) -> str:
    """A text clipped to ``limit`` characters, the full text as its tooltip when clipped."""
    shown = text if not limit or len(text) <= limit else text[: limit - 1] + "…"
    tip = text if shown != text else ""
    return _tag("text", escape(shown), tip=tip, x=float(x), y=float(y), **attrs)


def _width(texts: Sequence[str], limit: int = 1000) -> float:
    """The estimated width of the longest text (clipped to ``limit`` characters)."""
    return max((min(len(t), limit) for t in texts), default=0) * CHAR


def _svg(width: float, height: float, title: str, desc: str, body: Sequence[str]) -> str:
    """The root element, at least as wide as its heading; it scales down with its box."""
    content = "".join(body)
    uid = "f" + hashlib.sha1(f"{title}\0{desc}\0{content}".encode()).hexdigest()[:10]
    w, h = math.ceil(max(width, 16 + len(title) * 0.6 * (FONT + 2))), math.ceil(height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
        f'height="{h}" role="img" aria-labelledby="{uid}-t {uid}-d" font-size="{FONT}" '
        'font-family="system-ui, sans-serif" fill="currentColor">'
        f'<title id="{uid}-t">{escape(title)}</title><desc id="{uid}-d">{escape(desc)}</desc>'
        f"{_text(8, 18, title, font_weight='bold', font_size=FONT + 2)}{content}</svg>"
    )


def _grid(x1: float, y1: float, x2: float, y2: float, opacity: str = ".15") -> str:
    return _tag("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="currentColor", stroke_opacity=opacity)


def _nice(lo: float, hi: float) -> list[float]:
    """Four to six round ticks (1, 2, 2.5 or 5 times a power of ten) whose first and last
    enclose ``[lo, hi]``; a span under 1e-9 (NLTK's 1e-229 beside 0) is drawn as one unit
    wide: ticks are rounded to 12 decimals, and no printed number tells such values apart."""
    hi = hi if hi - lo >= 1e-9 else lo + 1
    raw = (hi - lo) / 4
    magnitude = 10.0 ** math.floor(math.log10(raw))
    step = next(f * magnitude for f in (1, 2, 2.5, 5, 10) if raw <= f * magnitude)
    first, last = math.floor(lo / step), math.ceil(hi / step)
    return [round(k * step, 12) for k in range(first, last + 1)]


def _scale(lo: float, hi: float, a: float, b: float) -> Callable[[float], float]:
    """The linear map of ``[lo, hi]`` onto pixels ``[a, b]``."""
    return lambda v: a + (v - lo) / (hi - lo) * (b - a)


def _decade(exponent: int) -> str:
    """A log axis tick: ``10⁻⁸`` far from 1, else the plain number (``0.01``, ``100``)."""
    return f"10{superscript(exponent)}" if abs(exponent) >= 4 else pretty(10.0**exponent)


def scatter(
    points: Sequence[Point],
    *,
    title: str,
    desc: str,
    x_label: str,
    y_label: str,
    decades: int = 10,
    colors: Mapping[str, str],
) -> str:
    """Points on one log10 scale shared by both axes, with the diagonal y = x (A vs B plots),
    colored by ``colors[series]`` (the legend is the page's). The scale spans at most
    ``decades`` decades under the largest value; values below it, 0 and negative ones
    included, sit in a lane along each axis, so a 0 against a 1e-77 stays visible without
    squeezing the other points into a corner."""
    positive = [v for p in points for v in (p.x, p.y) if 0 < v < math.inf]
    top_e = math.ceil(math.log10(max(positive))) if positive else 1
    low_e = max(math.floor(math.log10(min(positive))), top_e - decades) if positive else -1
    low_e = min(low_e, top_e - 1)
    lo, hi = 10.0**low_e, 10.0**top_e
    exponents = list(range(low_e, top_e + 1, max(1, math.ceil((top_e - low_e) / 5))))
    # the lane: _LANE pixels along each axis, a gap from the axis for the lowest tick label
    lane = any(not lo <= v <= hi for p in points for v in (p.x, p.y))
    gap = _width([_decade(low_e)]) / 2 + 6 if lane else 0.0
    pad = gap + _LANE if lane else 0.0
    box = _Box(40 + _width([_decade(e) for e in exponents]) + pad, 504.0, 32.0, 392.0 - pad)
    x_at = _scale(low_e, top_e, box.left, box.right)
    y_at = _scale(low_e, top_e, box.bottom, box.top)
    body = []
    for e in exponents:
        body.append(_grid(x_at(e), box.top, x_at(e), box.bottom))
        body.append(_grid(box.left, y_at(e), box.right, y_at(e)))
        body.append(_text(x_at(e), box.bottom + pad + 14, _decade(e), text_anchor="middle"))
        body.append(_text(box.left - pad - 6, y_at(e) + 4, _decade(e), text_anchor="end"))
    if lane:
        body += _lanes(box, gap, f"< {_decade(low_e)}")
    diagonal = {"stroke": "currentColor", "stroke_opacity": ".4", "stroke_dasharray": "4 4"}
    body.append(_tag("line", x1=box.left, y1=box.bottom, x2=box.right, y2=box.top, **diagonal))
    for p in points:
        cx = x_at(math.log10(p.x)) if lo <= p.x <= hi else box.left - gap - _LANE / 2
        cy = y_at(math.log10(p.y)) if lo <= p.y <= hi else box.bottom + gap + _LANE / 2
        tip = p.label or f"({pretty(p.x)}, {pretty(p.y)})"
        color = colors[p.series]
        body.append(_tag("circle", cx=cx, cy=cy, r=3.5, fill=color, fill_opacity=".75", tip=tip))
    mid = (box.left + box.right) / 2, (box.top + box.bottom) / 2
    body.append(_text(mid[0], 428, x_label, text_anchor="middle"))
    turn = f"rotate(-90 14 {mid[1]:.1f})"
    body.append(_text(14, mid[1], y_label, text_anchor="middle", transform=turn))
    return _svg(520, 440, title, desc, body)


@dataclass(frozen=True)
class _Box:
    """A plot's area in pixels."""

    left: float
    right: float
    top: float
    bottom: float


_LANE = 44.0


def _lanes(box: _Box, gap: float, label: str) -> list[str]:
    """The out-of-range lanes of a log scatter: a band along each axis, and their label."""
    tint = {"fill": "currentColor", "fill_opacity": ".06"}
    x, y = box.left - gap - _LANE, box.bottom + gap
    return [
        _tag("rect", x=x, y=box.top, width=_LANE, height=y + _LANE - box.top, **tint),
        _tag("rect", x=x, y=y, width=box.right - x, height=_LANE, **tint),
        _text(x + _LANE / 2, y + _LANE + 14, label, text_anchor="middle", font_size=10),
        _text(x - 6, y + _LANE / 2 + 4, label, text_anchor="end", font_size=10),
    ]


def range_plot(
    spans: Sequence[Span],
    *,
    title: str,
    desc: str,
    x_label: str,
    reference: float | None = None,
    value_text: Formatter = pretty,
    width: int = 640,
) -> str:
    """One row per span: a line from ``low`` to ``high`` and a dot at ``mid``, the numbers at
    the right; ``reference`` draws a dashed vertical line (e.g. 0 for differences)."""
    texts = [
        (f"{value_text(s.mid)} " if s.mid is not None else "")
        + f"[{value_text(s.low)}, {value_text(s.high)}]"
        for s in spans
    ]
    left = _width([s.label for s in spans], 32) + 18
    right = width - _width(texts) - 22
    bounds = [v for s in spans for v in (s.low, s.high, reference) if v is not None]
    ticks = _nice(min(bounds, default=0.0), max(bounds, default=1.0))
    at = _scale(ticks[0], ticks[-1], left, right)
    top, bottom = 40.0, 40.0 + ROW * max(1, len(spans))
    body = [_grid(left, bottom, right, bottom, ".5")]
    for t in ticks:
        body.append(_grid(at(t), top, at(t), bottom))
        body.append(_text(at(t), bottom + 14, pretty(t), text_anchor="middle"))
    body.append(_text((left + right) / 2, bottom + 32, x_label, text_anchor="middle"))
    if reference is not None:
        x, dashed = at(reference), {"stroke": "currentColor", "stroke_dasharray": "4 3"}
        body.append(_tag("line", x1=x, y1=top, x2=x, y2=bottom, **dashed))
    thick = {"stroke": PALETTE[0], "stroke_width": "3", "stroke_linecap": "round"}
    ringed = {"r": "5", "fill": PALETTE[0], "stroke": "#fff"}
    for i, (span, text) in enumerate(zip(spans, texts)):
        y = top + i * ROW + ROW / 2
        line = _tag("line", x1=at(span.low), y1=y, x2=at(span.high), y2=y, **thick)
        dot = "" if span.mid is None else _tag("circle", cx=at(span.mid), cy=y, **ringed)
        body.append(_text(left - 8, y + 4, span.label, 32, text_anchor="end"))
        body.append(_tag("g", line, dot, tip=f"{span.label}: {text}"))
        body.append(_text(right + 10, y + 4, text))
    return _svg(width, bottom + 44, title, desc, body)


def bump_chart(
    columns: Sequence[str], ranks: Mapping[str, Sequence[int | None]], *, title: str, desc: str
) -> str:
    """Each series' rank (1 = top) in every column, joined by lines and named at both ends;
    ``None`` leaves a gap. Colors repeat after ten series with another dash pattern."""
    worst = max((r for seq in ranks.values() for r in seq if r is not None), default=1)
    label_w, step = _width(list(ranks), 24) + 10, 110.0
    # column names wider than the gap between columns: every other one a line higher
    stagger = len(columns) > 1 and (_width(columns, 18) + 10) * 1.1 > step
    left, top = 52 + label_w, 72.0 if stagger else 58.0
    xs = [left + step * j for j in range(len(columns))]
    width, bottom = xs[-1] + label_w + 16 if xs else left, top + ROW * (worst - 1)
    body = []
    for j, (x, name) in enumerate(zip(xs, columns)):
        y = 44 if stagger and j % 2 == 0 else top - 14
        body.append(_text(x, y, name, 18, text_anchor="middle", font_weight="bold"))
        body.append(_grid(x, top - 8, x, bottom + 8, ".12"))
    for rank in range(1, worst + 1):
        body.append(_text(36, top + ROW * (rank - 1) + 4, str(rank), text_anchor="end"))
    for i, (name, seq) in enumerate(ranks.items()):
        at = [(x, top + ROW * (r - 1)) if r is not None else None for x, r in zip(xs, seq)]
        body.append(_bump_line(name, seq, at, color_for(i), dash_for(i)))
    mid = (top + bottom) / 2
    turn = f"rotate(-90 14 {mid:.1f})"
    body.append(_text(14, mid, "rank (1 = top)", text_anchor="middle", transform=turn))
    return _svg(width, bottom + 24, title, desc, body)


def _bump_line(
    name: str,
    seq: Sequence[int | None],
    at: Sequence[tuple[float, float] | None],
    color: str,
    dash: str,
) -> str:
    """One series: a polyline per run of ranked columns, a dot per rank, its name at both ends."""
    runs: list[list[tuple[float, float]]] = [[]]
    for point in at:
        if point:
            runs[-1].append(point)
        else:
            runs.append([])
    style = {"fill": "none", "stroke": color, "stroke_width": "2.5", "stroke_dasharray": dash}
    marks = [
        _tag("polyline", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in run), **style)
        for run in runs
        if len(run) > 1
    ]
    dots = [p for p in at if p]
    marks += [_tag("circle", cx=x, cy=y, r=4.5, fill=color) for x, y in dots]
    if dots:
        marks.append(_text(dots[0][0] - 10, dots[0][1] + 4, name, 24, text_anchor="end"))
        marks.append(_text(dots[-1][0] + 10, dots[-1][1] + 4, name, 24))
    ranks_text = ", ".join(str(r) if r else EMPTY for r in seq)
    return _tag("g", *marks, tip=f"{name}: ranks {ranks_text}")
