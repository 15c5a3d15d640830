"""Self-contained HTML pages for the reports: inline CSS, no scripts, no network.

Builders return :class:`Markup` (HTML that is safe to embed). The rule is simple: *blocks*
(arguments of :func:`page`, :func:`section`, :func:`details`, :func:`figure`'s content) are
HTML; *text* (titles, captions, :func:`paragraph`, table cells that are ``str``) is escaped.
A table cell that is a number is formatted (:func:`~conformance.reporters.numbers.pretty`)
and right-aligned; a :class:`Markup` cell is embedded as is.

The page follows the reader's light or dark preference (``prefers-color-scheme``), keeps
numbers on one line with tabular digits, scrolls wide tables inside their own box and
prints cleanly. Bars and heat maps are plain HTML and CSS (:func:`bar`, :func:`heat_table`):
their numbers stay text, and their colors follow the page's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from html import escape

from .numbers import EMPTY, pretty

__all__ = [
    "CSS",
    "Markup",
    "badge",
    "bar",
    "code",
    "details",
    "figure",
    "figures",
    "heat_table",
    "key_values",
    "legend",
    "mono",
    "note",
    "page",
    "paragraph",
    "pre",
    "section",
    "table",
    "text",
]


class Markup(str):
    """A string of HTML that is embedded without escaping."""

    __slots__ = ()


CSS = """
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e;
  --border: #d1d9e0; --stripe: #f6f8fa; --accent: #0969da; --ok: #1a7f37; --bad: #cf222e;
  --warn: #9a6700; --info: #0969da; --code: #eff2f5; --heat: #4a98c9; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --border: #3d444d;
    --stripe: #151b23; --accent: #4493f8; --ok: #3fb950; --bad: #f85149; --warn: #d29922;
    --info: #4493f8; --code: #1f2630; --heat: #1158c7; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 24px 28px 64px; color: var(--fg);
  background: var(--bg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto,
  "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.25em; margin: 32px 0 8px; padding-bottom: 4px;
  border-bottom: 1px solid var(--border); }
h3 { font-size: 1.05em; margin: 20px 0 6px; }
p { margin: 6px 0 10px; }
.subtitle, .muted, figcaption, caption { color: var(--muted); }
a { color: var(--accent); }
code, pre, .mono { font: 0.9em/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  background: var(--code); border-radius: 4px; }
code { padding: 0 4px; }
pre { padding: 10px 12px; overflow-x: auto; white-space: pre; }
.mono { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.85em; }
.note { display: block; font-size: 0.85em; color: var(--muted); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; margin: 8px 0 16px; border: 1px solid var(--border);
  border-radius: 6px; }
table { border-collapse: collapse; width: 100%; font-size: 0.93em; }
caption { caption-side: top; text-align: left; padding: 6px 10px; }
th, td { padding: 5px 10px; border-bottom: 1px solid var(--border); text-align: left;
  vertical-align: top; }
th { position: sticky; top: 0; background: var(--stripe); font-weight: 600;
  white-space: nowrap; }
tbody tr:nth-child(even) { background: var(--stripe); }
tbody tr:last-child td { border-bottom: none; }
td.num, th.num { text-align: right; white-space: nowrap;
  font-variant-numeric: tabular-nums; }
td.wrap { overflow-wrap: anywhere; min-width: 12ch; }
figure { margin: 16px 0 24px; }
figure svg { display: block; max-width: 100%; height: auto; }
figcaption { font-size: 0.9em; margin-top: 4px; max-width: 60ch; }
.figures { display: flex; flex-wrap: wrap; gap: 8px 32px; align-items: flex-start; }
.bar { display: flex; align-items: center; min-width: 14em; white-space: nowrap;
  font-size: 0.85em; font-variant-numeric: tabular-nums; }
.bar > span { height: 1em; flex: none; }
.bar > span:last-child { padding-left: 4px; }
.bar + .bar { margin-top: 2px; }
.legend { display: flex; flex-wrap: wrap; gap: 2px 16px; font-size: 0.9em; color: var(--muted); }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 4px; }
table.heat { width: auto; }
table.heat caption { color: var(--fg); font-weight: 600; }
table.heat tbody td { min-width: 4.5em; text-align: center; font-variant-numeric: tabular-nums;
  background: color-mix(in srgb, var(--heat) var(--share), var(--bg)); }
table.heat tbody td.none { background: repeating-linear-gradient(45deg, transparent 0 4px,
  var(--border) 4px 6px); }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 0.85em;
  font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
.ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); }
.info { color: var(--info); } .muted { color: var(--muted); }
details { margin: 8px 0; } summary { cursor: pointer; font-weight: 600; }
footer { margin-top: 40px; color: var(--muted); font-size: 0.85em; }
@media print { body { max-width: none; padding: 0; } .table-wrap { overflow: visible; }
  th { position: static; } details { display: block; } }
"""

Cell = object


def text(value: object) -> Markup:
    """Escaped text (a :class:`Markup` passes through)."""
    return value if isinstance(value, Markup) else Markup(escape(str(value)))


def paragraph(content: object, cls: str = "") -> Markup:
    attr = f' class="{escape(cls)}"' if cls else ""
    return Markup(f"<p{attr}>{text(content)}</p>")


def code(content: str) -> Markup:
    return Markup(f"<code>{escape(content)}</code>")


def pre(content: str) -> Markup:
    """A preformatted block (scrolls sideways; keeps every space)."""
    return Markup(f"<pre>{escape(content)}</pre>")


def mono(content: str) -> Markup:
    """Monospaced text that wraps (for long machine text inside a table cell)."""
    return Markup(f'<span class="mono">{escape(content)}</span>')


def note(content: str) -> Markup:
    """A small muted line under a cell's or a paragraph's main text."""
    return Markup(f'<span class="note">{escape(content)}</span>')


def badge(label: str, tone: str = "info") -> Markup:
    """A small pill; ``tone`` is one of ok, bad, warn, info, muted."""
    return Markup(f'<span class="badge {escape(tone)}">{escape(label)}</span>')


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | Fraction) and not isinstance(value, bool)


def _cell(value: Cell, digits: int) -> tuple[str, bool]:
    """The cell's HTML and whether it is numeric."""
    if isinstance(value, Markup):
        return value, False
    if value is None:
        return EMPTY, True
    if _is_number(value):
        return escape(pretty(value, digits)), True  # type: ignore[arg-type]
    return escape(str(value)), False


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    *,
    caption: str = "",
    digits: int = 3,
    numeric: Sequence[bool] | None = None,
) -> Markup:
    """A table in a horizontally scrolling box. Numeric cells (numbers, or the columns
    flagged in ``numeric``) are right-aligned and never wrap; long text cells wrap."""
    body = []
    column_numeric = list(numeric) if numeric is not None else [False] * len(headers)
    for row in rows:
        cells = []
        for c, value in enumerate(row):
            html_value, is_num = _cell(value, digits)
            flagged = c < len(column_numeric) and column_numeric[c]
            cls = "num" if is_num or flagged else ("wrap" if len(str(value)) > 40 else "")
            cells.append(
                f'<td class="{cls}">{html_value}</td>' if cls else f"<td>{html_value}</td>"
            )
        body.append(f"<tr>{''.join(cells)}</tr>")
    head = "".join(
        f'<th class="num" scope="col">{escape(h)}</th>'
        if c < len(column_numeric) and column_numeric[c]
        else f'<th scope="col">{escape(h)}</th>'
        for c, h in enumerate(headers)
    )
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return Markup(
        f'<div class="table-wrap"><table>{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def figure(content: str, caption: str = "") -> Markup:
    """A figure (an SVG from :mod:`.figures`, a :func:`heat_table`) with an optional caption."""
    cap = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
    return Markup(f"<figure>{content}{cap}</figure>")


def bar(parts: Sequence[tuple[str, float, str]], most: float, text: str | None = None) -> Markup:
    """A horizontal bar for a table cell: one segment per ``(name, value, color)``, each
    ``value / most`` of the cell's width (less room for the text), then ``text`` (default:
    the total). A segment's tooltip is ``name: value``; a screen reader hears every part."""
    share = 1 / most if most > 0 else 0.0
    segments = "".join(
        f'<span style="width:calc((100% - 7ch) * {value * share:.6f});background:{color}" '
        f'title="{escape(name)}: {pretty(value)}"></span>'
        for name, value, color in parts
        if value > 0
    )
    said = escape(", ".join(f"{name} {pretty(value)}" for name, value, _ in parts))
    shown = escape(pretty(sum(v for _, v, _ in parts)) if text is None else text)
    return Markup(
        f'<div class="bar" role="img" aria-label="{said}">{segments}<span>{shown}</span></div>'
    )


def legend(colors: Mapping[str, str]) -> Markup:
    """The key of bars and figures: a swatch and a name per color."""
    items = "".join(
        f'<span><span class="swatch" style="background:{color}"></span>{escape(name)}</span>'
        for name, color in colors.items()
    )
    return Markup(f'<div class="legend">{items}</div>')


def heat_table(
    rows: Sequence[str],
    columns: Sequence[str],
    values: Sequence[Sequence[float | None]],
    texts: Sequence[Sequence[str]],
    *,
    caption: str,
) -> Markup:
    """A matrix as a table of shaded cells: the page's background at 0, the full heat color
    at the largest value (``None``: a hatched empty cell). Each cell shows its text, with
    ``row × column: text`` as its tooltip; the heat colors keep the page's text readable
    (contrast at least 4.5 in light and dark mode)."""
    most = max((v for row in values for v in row if v is not None), default=0.0)
    body = []
    for name, row, row_texts in zip(rows, values, texts):
        cells = "".join(
            _heat_cell(value, shown, f"{name} × {column}", most)
            for value, shown, column in zip(row, row_texts, columns)
        )
        body.append(f'<tr><th scope="row">{escape(name)}</th>{cells}</tr>')
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in columns)
    return Markup(
        f'<table class="heat"><caption>{escape(caption)}</caption><thead><tr><td></td>{head}'
        f"</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _heat_cell(value: float | None, shown: str, where: str, most: float) -> str:
    if value is None:
        return f'<td class="none" title="{escape(where)}: no value"></td>'
    share = max(0.0, value / most) if most > 0 else 0.0
    return (
        f'<td style="--share:{100 * share:.1f}%" title="{escape(where)}: {escape(shown)}">'
        f"{escape(shown)}</td>"
    )


def figures(*items: str) -> Markup:
    """Figures side by side when the page is wide enough, stacked otherwise."""
    return Markup(f'<div class="figures">{"".join(items)}</div>')


def key_values(pairs: Mapping[str, object]) -> Markup:
    """A compact two-column list (run metadata, versions)."""
    items = "".join(f"<dt>{escape(k)}</dt><dd>{text(v)}</dd>" for k, v in pairs.items())
    return Markup(f'<dl class="meta">{items}</dl>')


def details(summary: str, *blocks: str) -> Markup:
    """A collapsed block (long tables, every row)."""
    return Markup(f"<details><summary>{escape(summary)}</summary>{''.join(blocks)}</details>")


def section(title: str, *blocks: str) -> Markup:
    return Markup(f"<section><h2>{escape(title)}</h2>{''.join(blocks)}</section>")


def page(
    title: str,
    *blocks: str,
    subtitle: str = "",
    meta: Mapping[str, object] | None = None,
    footer: str = "",
) -> str:
    """A complete HTML document: ``title`` as heading, optional subtitle and metadata list,
    then the blocks. No external resource is referenced."""
    sub = f'<p class="subtitle">{escape(subtitle)}</p>' if subtitle else ""
    info = key_values(meta) if meta else ""
    foot = f"<footer>{escape(footer)}</footer>" if footer else ""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head>\n"
        f"<body><header><h1>{escape(title)}</h1>{sub}{info}</header>\n<main>"
        + "\n".join(blocks)
        + f"</main>{foot}</body></html>\n"
    )
