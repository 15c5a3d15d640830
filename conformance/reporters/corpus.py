"""Render the corpus report (the dict of :func:`conformance.engine.corpus.analysis.corpus_report`):
``table`` (terminal), ``markdown`` (GFM tables), ``json``, ``html`` (with figures).

Reporters only render; nothing is computed here but formatting (BLEU with two decimals, as
papers print it; p-values with four, as sacrebleu prints them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tabulate import tabulate

from ..results.logcheck import shown, shown_inline
from .textgrid import clip, terminal_width, wrap

__all__ = ["FORMATS", "render"]

FORMATS = ("table", "markdown", "json", "html")

ORDER_NOTE = (
    "Steps are applied one at a time in pipeline order (the order shown: text preparation, "
    "tokenization, counting, smoothing, arithmetic); each step's BLEU change is measured "
    "after the steps before it, so another order can split the same total differently."
)


def _num(value: float | None, digits: int = 2, sign: bool = False) -> str:
    if value is None:
        return "—"
    value += 0.0  # -0.0 (an implementation's answer) is 0: never printed as −0.00
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    return text.replace("-", "−")


def _p(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.4f}" + ("*" if value < 0.05 else "")


def header_lines(report: Mapping[str, Any]) -> list[str]:
    refs = report["references"]
    lines = [
        f"BLEU of {len(report['systems'])} system(s) on {report['segment_count']:,} segments, "
        f"{len(refs)} reference(s): {', '.join(refs)}",
        f"baseline: {report['baseline']}"
        + (f"; corpus knobs: {report['knobs']}" if report["knobs"] else ""),
    ]
    lines += [f"note: {note}" for note in report.get("notes", [])]
    return lines


def score_rows(report: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The score matrix: one row per implementation, one column per system, then spread."""
    names = [s["name"] for s in report["systems"]]
    rows = []
    for info in report["implementations"]:
        impl = info["name"]
        scores, errors = report["scores"].get(impl, {}), report["errors"].get(impl, {})
        rows.append(
            [impl]
            + [_num(scores[n]) if n in scores else _error_mark(errors.get(n, "")) for n in names]
        )
    spread = report["spread"]
    rows.append(
        ["spread (max − min)"] + [_num(spread[n]["spread"]) if n in spread else "—" for n in names]
    )
    return ["implementation", *names], rows


def _error_mark(reason: str) -> str:
    return reason.split(":", 1)[0] if reason else "—"


def rank_rows(report: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    names = [s["name"] for s in report["systems"]]
    base = report["ranks"].get(report["baseline"], {})
    rows = []
    for info in report["implementations"]:
        ranks = report["ranks"].get(info["name"], {})
        differs = any(ranks.get(n) != base.get(n) for n in ranks if n in base)
        rows.append(
            [info["name"] + (" *" if differs else "")]
            + [str(ranks[n]) if n in ranks else "—" for n in names]
        )
    return ["implementation", *names], rows


def error_lines(report: Mapping[str, Any]) -> list[str]:
    """One line per implementation and reason, naming the systems it concerns ("every
    system" when it is all of them): a profile that cannot read the corpus is one line."""
    every = len(report["systems"])
    lines: list[str] = []
    for impl, errors in report["errors"].items():
        by_reason: dict[str, list[str]] = {}
        for system, reason in errors.items():
            by_reason.setdefault(reason, []).append(system)
        for reason, systems in by_reason.items():
            where = (
                f"every system ({every})"
                if len(systems) == every and every > 1
                else ", ".join(systems)
            )
            lines.append(f"{impl} on {where}: {reason}")
    return lines


def decomposition_lines(report: Mapping[str, Any]) -> list[str]:
    """Per implementation: its total difference from the baseline and the path's steps
    (mean over systems, range in brackets)."""
    lines: list[str] = []
    same: list[str] = []
    for impl, entry in report["decomposition"].items():
        total = list(entry["total"].values())
        if entry["explained"] and not entry["steps"] and all(abs(t) < 5e-3 for t in total):
            same.append(impl)
            continue
        lines.append(f"{impl}: {_summary(total)} vs {report['baseline']}")
        idle = []
        for k, step in enumerate(entry["steps"], 1):
            values = [v for v in step["delta"].values() if v is not None]
            if values and all(abs(v) < 5e-3 for v in values):
                idle.append(f"{k}. {', '.join(step['knobs'])}")
                continue
            lines.append(f"  {k}. {step['change']}: {_summary(values)}")
        if idle:
            lines.append(f"  ±0.00 on these files: {'; '.join(idle)}")
        rest = list(entry["unexplained"].values())
        if not entry["explained"]:
            lines.append(f"  unexplained: {_summary(rest)} ({entry.get('note', '')})")
        elif any(abs(v) >= 5e-3 for v in rest):
            lines.append(f"  unexplained: {_summary(rest)}")
    if same:
        lines.append("same scores as the baseline's setting: " + ", ".join(same))
    return lines


def _summary(values: Sequence[float]) -> str:
    if not values:
        return "—"
    mean = sum(values) / len(values)
    text = _num(mean, sign=True)
    if len(values) > 1 and max(values) - min(values) >= 0.005:
        text += f" [{_num(min(values), sign=True)} … {_num(max(values), sign=True)}]"
    return text


def flip_rows(report: Mapping[str, Any], limit: int | None) -> list[list[str]]:
    rows = []
    for flip in report["flips"][:limit]:
        a, b = flip["systems"]
        groups = ((flip["a_better"], f"{a} > {b}"), (flip["b_better"], f"{b} > {a}"))
        for k, (better, label) in enumerate(groups):
            shown = ", ".join(
                f"{impl} {_delta(flip['delta'][impl] * (1 - 2 * k))} "
                f"(p {_p(flip['p_value'].get(impl))})"
                for impl in better
            )
            rows.append([f"{a} vs {b}" if k == 0 else "", label, shown])
    return rows


def _delta(value: float) -> str:
    """A BLEU difference with two decimals, or in scientific notation when it is not 0 but
    would print as 0.00 (NLTK's near-zero scores on unspaced Chinese differ by 1e-77: such a
    flip must not look like two equal scores ordered at random)."""
    if value != 0 and abs(value) < 0.005:
        return f"{value:+.1e}".replace("-", "−")
    return _num(value, sign=True)


def segment_lines(report: Mapping[str, Any], width: int = 100) -> list[str]:
    seg = report["segments"]
    if "difference" not in seg:
        return [seg.get("note") or "not computed"]
    a, b = seg["a"], seg["b"]
    if not seg["rows"]:
        return [
            f"{a} vs {b} on {seg['system']}: difference {_num(seg['difference'], sign=True)}; "
            f"{b} counts every segment as {a} does, so all of it comes from how the counts "
            "are scored (smoothing, brevity penalty, averaging: see why the scores differ)"
        ]
    lines = [
        f"{a} vs {b} on {seg['system']}: difference {_num(seg['difference'], sign=True)}, of "
        f"which {_num(seg['counting'], sign=True)} comes from what is counted (every segment "
        f"counted as {b} counts it, scored as {a} scores) and "
        f"{_num(seg['scoring'], sign=True)} from how the counts are scored (smoothing, "
        "brevity penalty, averaging: see why the scores differ). "
        f"The {len(seg['rows'])} segments whose counts move {a}'s score most, each alone "
        f"(all segments one at a time: {_num(seg['sum_of_contributions'], sign=True)}):"
    ]
    for row in seg["rows"]:
        lines.append(f"  line {row['line']}: {_num(row['delta'], 3, sign=True)}")
        ref = row["references"][0] if row["references"] else ""
        for label, text in (
            ("hyp", row["hypothesis"]),
            ("ref", ref),
            (f"{seg['a']} tokens", " ".join(row["tokens_a"])),
            (f"{seg['b']} tokens", " ".join(row["tokens_b"])),
        ):
            prefix = f"    {label}: "
            lines.append(prefix + clip(_visible(text), max(20, width - len(prefix))))
        ca, cb = row["counts_a"], row["counts_b"]
        lines.append(
            f"    matches/n-grams {_counts(ca)} vs {_counts(cb)}; "
            f"lengths {ca['hyp_len']}/{ca['ref_len']} vs {cb['hyp_len']}/{cb['ref_len']}"
        )
    return lines


def _counts(stats: Mapping[str, Any]) -> str:
    return " ".join(f"{m}/{t}" for m, t in zip(stats["counts"], stats["totals"]))


#: Invisible characters that make two equal-looking words differ (tab, zero-width space,
#: word joiner, byte-order mark), shown like the unsafe ones.
_INVISIBLE = re.compile("[\t\u200b\u2060\ufeff]")


def _visible(text: str) -> str:
    """A segment's text as the report shows it: control characters (a carriage return, an
    ANSI escape), line and paragraph separators, bidirectional overrides and the invisible
    characters above written as ``\\x0d``/``\\u2028``-style escapes, so the user's files
    can neither rewrite the terminal nor break a Markdown code block, and a difference the
    eye cannot see is shown (the JSON keeps the text as read)."""
    return _INVISIBLE.sub(_escape, shown(text))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def no_flips_line(report: Mapping[str, Any]) -> str:
    """Why the report lists no ranking flip: one system, fewer than two implementations that
    rank two systems (nothing was compared), or every ranking agrees (naming the
    implementations left out for want of scores)."""
    if len(report["systems"]) < 2:
        return "One system: there is no ranking to flip (give two or more -i files)."
    ranking = [impl for impl, ranks in report["ranks"].items() if len(ranks) >= 2]
    unranked = [impl for impl in report["ranks"] if impl not in ranking]
    if len(ranking) < 2:
        return (
            f"Not compared: {len(ranking)} implementation(s) scored two or more systems "
            f"({', '.join(ranking) or 'none'}); a ranking flip needs two (see the scores)."
        )
    line = "Every implementation orders every pair of systems the same way."
    if unranked:
        line = (
            "Every implementation that scored two or more systems orders every pair the same "
            f"way; not compared (fewer than two scores): {', '.join(unranked)}."
        )
    return line


def significance_line(report: Mapping[str, Any]) -> str:
    sig = report["significance"]
    test = (
        f"paired bootstrap resampling, {sig['resamples']:,} resamples"
        if sig["test"] == "paired-bs"
        else f"approximate randomization, {sig['trials']:,} trials"
    )
    return (
        f"p-values: {test}, seed {sig['seed']} (as sacrebleu --{sig['test']}); "
        f"* = p < {sig['alpha']}; "
        "computed by the bleu_impl setting that reproduces each implementation"
    )


def _render_text(report: Mapping[str, Any], fmt: str) -> str:
    tablefmt = "github" if fmt == "markdown" else "simple"
    h = (lambda t: f"## {t}") if fmt == "markdown" else (lambda t: f"\n{t}\n{'-' * len(t)}")
    # the table format fits the terminal: prose wrapped, wide tables in blocks of systems
    width = terminal_width() if fmt == "table" else 0
    fit: Callable[[str, str], list[str]] = (
        (lambda line, indent: wrap(line, width, indent).split("\n")) if width else _as_is
    )
    out: list[str] = []
    head_lines = header_lines(report)
    out += fit(("# " if fmt == "markdown" else "") + head_lines[0], "  ")
    for line in head_lines[1:]:
        out += fit(line, "  ")
    out.append(h("Scores (BLEU, 0–100)"))
    out.append(_wide_table(*score_rows(report), tablefmt, width))
    errors = error_lines(report)
    if errors:
        out += ["", "No score:", *(p for e in errors for p in fit(f"  {e}", "      "))]
    out.append(h("Ranks (1 = best; * = differs from the baseline's ranking)"))
    out.append(_wide_table(*rank_rows(report), tablefmt, width))
    out.append(h(f"Why the scores differ from {report['baseline']}"))
    lines = [part for line in decomposition_lines(report) for part in fit(line, "      ")]
    out += [*fit(ORDER_NOTE, ""), "", *_block(lines, fmt)]
    out.append(h("Ranking flips"))
    out += _flip_section(report, tablefmt, fit, width)
    out.append(h("Where the difference comes from"))
    lines = segment_lines(report, width or 100)
    out += _block(
        [*fit(lines[0], "  "), *(p for line in lines[1:] for p in fit(line, "      "))], fmt
    )
    return "\n".join(out)


def _as_is(line: str, indent: str) -> list[str]:
    return [line]


def _wide_table(head: list[str], rows: list[list[str]], tablefmt: str, width: int) -> str:
    """One table, or (``width`` given) blocks of system columns that each fit ``width``,
    every block with the implementation column."""

    def table(cols: list[int]) -> str:
        picked = [[r[0], *(r[j] for j in cols)] for r in rows]
        return _table(picked, [head[0], *(head[j] for j in cols)], tablefmt)

    def fits(cols: list[int]) -> bool:
        return max(len(line) for line in table(cols).splitlines()) <= width

    if not width or not rows or fits(list(range(1, len(head)))):
        return _table(rows, head, tablefmt)
    blocks: list[list[int]] = [[]]
    for j in range(1, len(head)):
        if blocks[-1] and not fits([*blocks[-1], j]):
            blocks.append([])
        blocks[-1].append(j)
    parts = []
    for k, cols in enumerate(blocks, 1):
        shown = head[cols[0]] if len(cols) == 1 else f"{head[cols[0]]} … {head[cols[-1]]}"
        parts.append(f"({k}/{len(blocks)}: {shown})\n{table(cols)}")
    return "\n\n".join(parts)


def _block(lines: list[str], fmt: str) -> list[str]:
    return ["```", *lines, "```"] if fmt == "markdown" and lines else lines


def _flip_section(
    report: Mapping[str, Any], tablefmt: str, fit: Callable[[str, str], list[str]], width: int
) -> list[str]:
    if not report["flips"]:
        return fit(no_flips_line(report), "")
    limit = 15 if tablefmt == "simple" else None
    lines = [*fit(significance_line(report), ""), ""]
    rows = flip_rows(report, limit)
    head = ["pair", "order", "implementations (Δ BLEU, p)"]
    widths = None
    if tablefmt == "simple":  # the last column wrapped to what the terminal leaves it
        widths = _flip_widths(head, rows, width or 120)
    lines.append(_table(rows, head, tablefmt, widths=widths))
    extra = len(report["flips"]) - (limit or len(report["flips"]))
    if extra > 0:
        lines.append(f"... {extra} more pair(s) in --format json / markdown / html")
    return lines


def _flip_widths(head: list[str], rows: list[list[str]], width: int) -> list[int | None]:
    """Column widths of the flip table within ``width``: the pair and order columns as wide
    as they are, the implementations' column what is left (at least 30); when that is not
    30, the pair and order columns wrap too (long system names: WMT22's "JDExploreAcademy
    vs Lan-Bridge")."""
    firsts = [max(len(head[j]), *(len(r[j]) for r in rows)) for j in (0, 1)]
    if sum(firsts) + 4 + 30 > width:
        room = max(24, width - 4 - 30)
        firsts = [max(12, room * f // sum(firsts)) for f in firsts]
    return [*firsts, max(30, width - sum(firsts) - 4)]


def _table(
    rows: list[list[str]],
    head: list[str],
    tablefmt: str,
    *,
    widths: list[int | None] | None = None,
) -> str:
    if tablefmt == "github":
        rows = [[c.replace("|", "\\|") for c in r] for r in rows]
        head = [c.replace("|", "\\|") for c in head]
    return tabulate(rows, head, tablefmt=tablefmt, disable_numparse=True, maxcolwidths=widths)


def _json(report: Mapping[str, Any]) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False)


def _html(report: Mapping[str, Any]) -> str:
    from .corpus_html import render_html

    return render_html(report)


RENDERERS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "table": lambda r: _render_text(r, "table"),
    "markdown": lambda r: _render_text(r, "markdown"),
    "json": _json,
    "html": _html,
}


def render(report: Mapping[str, Any], fmt: str) -> str:
    """The report in ``fmt``. Every text but the JSON's shows the file names, the
    implementations' messages and the segments with control characters, line breaks, tabs
    and bidirectional overrides escaped: a name cannot break a Markdown table or a line of
    the terminal, nor reorder what follows it (the JSON keeps them as read)."""
    return RENDERERS[fmt](report if fmt == "json" else shown_inline(report))
