"""The corpus report (``compare -r/-i``) from its log: ``table`` (terminal), ``markdown``
(GFM tables), ``json``; :mod:`.corpus_html` draws it from the same lines and rows.

Nothing is computed here but formatting (BLEU with two decimals, as papers print it;
p-values with four, as sacrebleu prints them; differences with a ``−`` sign, as in the
prose around them); thresholds come from the log's policy.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..protocol import jsonable
from ..results.printable import shown, shown_inline
from ..results.records import CorpusSummary
from ..results.report import Report
from . import markdown as md
from .numbers import EMPTY, count, fixed
from .textgrid import clip, grid, wrap
from .view import View

__all__ = [
    "ORDER_NOTE",
    "decomposition_lines",
    "error_lines",
    "feeding_lines",
    "flip_rows",
    "flip_verdicts",
    "header_lines",
    "incomplete",
    "no_flips_line",
    "rank_rows",
    "readable",
    "render_json",
    "render_markdown",
    "render_table",
    "score_rows",
    "segment_lines",
    "significance_line",
    "summary",
    "versus_lines",
    "versus_rows",
]

ORDER_NOTE = (
    "Steps are applied one at a time in pipeline order (the order shown: text preparation, "
    "tokenization, counting, smoothing, arithmetic); each step's BLEU change is measured "
    "after the steps before it, so another order can split the same total differently. "
    "Each change is the mean over the systems, then (when they differ) its lowest and "
    "highest value over the systems."
)


def _num(value: float | None, digits: int = 2, sign: bool = False) -> str:
    """At the report's precision; a signed value that rounds to zero is ``±0.00`` (never
    ``−0.00``: its direction cannot be read at this precision)."""
    text = fixed(value, digits, sign)
    if sign and value is not None and float(text) == 0:
        text = "±" + text[1:]
    return text.replace("-", "−")


def _marked(value: float | None, significant: bool | None) -> str:
    """A p-value as sacrebleu prints it, ``*`` when significant (never for a tie)."""
    return fixed(value, 4) + ("*" if significant else "")


def summary(report: Report) -> CorpusSummary:
    assert report.corpus is not None, "not a corpus report"
    return report.corpus


def header_lines(report: Report) -> list[str]:
    s = summary(report)
    refs = s.references
    unread = f" ({len(s.unread)} more not compared: see No score)" if s.unread else ""
    lines = [
        f"BLEU of {len(s.systems)} system(s){unread} on {count(s.segment_count)} segments, "
        f"{len(refs)} reference(s): {', '.join(refs)}",
        f"baseline: {s.baseline}" + (f"; corpus knobs: {dict(s.knobs)}" if s.knobs else ""),
    ]
    lines += [f"note: {note}" for note in s.notes]
    return lines


def score_rows(report: Report) -> tuple[list[str], list[list[str]]]:
    """The score matrix: one row per implementation, one column per system, then spread."""
    s = summary(report)
    names = [system.name for system in s.systems]
    all_scores, all_errors = report.scores(), report.errors()
    rows = []
    for impl in report.names():
        scores, errors = all_scores.get(impl, {}), all_errors.get(impl, {})
        rows.append(
            [impl]
            + [_num(scores[n]) if n in scores else _error_mark(errors.get(n, "")) for n in names]
        )
    spread = s.spread
    rows.append(
        ["spread (max − min)"] + [_num(spread[n].spread) if n in spread else EMPTY for n in names]
    )
    return ["implementation", *names], rows


def _error_mark(reason: str) -> str:
    return reason.split(":", 1)[0] if reason else EMPTY


def rank_rows(report: Report) -> tuple[list[str], list[list[str]]]:
    s = summary(report)
    names = [system.name for system in s.systems]
    base = s.ranks.get(s.baseline, {})
    rows = []
    for impl in report.names():
        ranks = s.ranks.get(impl, {})
        differs = any(ranks.get(n) != base.get(n) for n in ranks if n in base)
        rows.append(
            [impl + (" *" if differs else "")]
            + [str(ranks[n]) if n in ranks else EMPTY for n in names]
        )
    return ["implementation", *names], rows


def error_lines(report: Report) -> list[str]:
    """One line per system file left out (why, naming file and line), then per
    implementation and reason, naming the systems it concerns ("every system" when it is
    all of them): a profile that cannot read the corpus is one line."""
    every = len(summary(report).systems)
    lines = [f"every implementation: not compared: {s.error}" for s in summary(report).unread]
    for impl, errors in report.errors().items():
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


def feeding_lines(report: Report) -> list[str]:
    """How each implementation was given the text, one line per way naming who (none when
    every implementation read the raw text with no tokenizer asked for)."""
    by_way: dict[str, list[str]] = {}
    for entry in summary(report).reproduced:
        if entry.fed:
            by_way.setdefault(entry.fed, []).append(entry.implementation)
    if set(by_way) <= {"raw text"}:
        return []
    return [f"{way}: {', '.join(impls)}" for way, impls in by_way.items()]


def decomposition_lines(report: Report) -> list[str]:
    """Per implementation: its total difference from the baseline and the path's steps
    (mean over systems, range in brackets)."""
    s = summary(report)
    visible = report.policy.material
    lines: list[str] = []
    same: list[str] = []
    for impl, entry in s.decomposition.items():
        total = list(entry.total.values())
        moved = [v for step in entry.steps for v in step.delta.values() if v is not None]
        if entry.explained and not any(visible(abs(v)) for v in [*total, *moved]):
            same.append(impl)
            continue
        if not total:  # no system scored by both: nothing to explain, only why
            lines.append(f"{impl}: not compared: {entry.note}")
            continue
        lines.append(f"{impl}: {_summary(total, visible)} vs {s.baseline}")
        idle = []
        for k, step in enumerate(entry.steps, 1):
            values = [v for v in step.delta.values() if v is not None]
            if values and not any(visible(abs(v)) for v in values):
                idle.append(f"{k}. {', '.join(step.knobs)}")
                continue
            lines.append(f"  {k}. {step.change}: {_summary(values, visible)}")
        if idle:
            lines.append(f"  ±0.00 on these files: {'; '.join(idle)}")
        rest = list(entry.unexplained.values())
        if not entry.explained:
            lines.append(f"  unexplained: {_summary(rest, visible)} ({entry.note})")
        elif any(visible(abs(v)) for v in rest):
            lines.append(f"  unexplained: {_summary(rest, visible)}")
    if same:
        lines.append(
            f"same scores as {s.baseline} at {report.policy.decimals} decimals (any knobs "
            "they differ in change nothing visible on these files): " + ", ".join(same)
        )
    return lines


def _summary(values: Sequence[float], visible: Callable[[float], bool]) -> str:
    if not values:
        return EMPTY
    mean = sum(values) / len(values)
    text = _num(mean, sign=True)
    if len(values) > 1 and visible(max(values) - min(values)):
        low, high = _num(min(values), sign=True), _num(max(values), sign=True)
        text += f" (systems {low} … {high})"
    return text


def flip_rows(report: Report, limit: int | None) -> list[list[str]]:
    rows = []
    for flip in summary(report).flips[:limit]:
        a, b = flip.systems
        groups = ((flip.a_better, f"{a} > {b}"), (flip.b_better, f"{b} > {a}"))
        for k, (better, label) in enumerate(groups):
            shown = ", ".join(
                f"{impl} {_num(flip.delta[impl] * (1 - 2 * k), sign=True)} "
                f"(p {_marked(flip.p_value.get(impl), flip.significant.get(impl))})"
                for impl in better
            )
            rows.append([f"{a} vs {b}" if k == 0 else "", label, shown])
    return rows


def segment_lines(report: Report, width: int = 100) -> list[str]:
    seg = summary(report).segments
    if seg.difference is None:
        return [seg.note or "not computed"]
    a, b = seg.a, seg.b
    if not seg.rows:
        return [
            f"{a} vs {b} on {seg.system}: difference {_num(seg.difference, sign=True)}; "
            f"{b} counts every segment as {a} does, so all of it comes from how the counts "
            "are scored (smoothing, brevity penalty, averaging: see why the scores differ)"
        ]
    lines = [
        f"{a} vs {b} on {seg.system}: difference {_num(seg.difference, sign=True)}, of "
        f"which {_num(seg.counting, sign=True)} comes from what is counted (every segment "
        f"counted as {b} counts it, scored as {a} scores) and "
        f"{_num(seg.scoring, sign=True)} from how the counts are scored (smoothing, "
        "brevity penalty, averaging: see why the scores differ). "
        f"The {len(seg.rows)} segments whose counts move {a}'s score most, each alone "
        f"(all segments one at a time: {_num(seg.sum_of_contributions, sign=True)}):"
    ]
    for row in seg.rows:
        lines.append(f"  line {row.line}: {_num(row.delta, 3, sign=True)}")
        ref = row.references[0] if row.references else ""
        for label, text in (
            ("hyp", row.hypothesis),
            ("ref", ref),
            (f"{a} tokens", " ".join(row.tokens_a)),
            (f"{b} tokens", " ".join(row.tokens_b)),
            (f"{a} ref tokens", " ".join(row.ref_tokens_a)),
            (f"{b} ref tokens", " ".join(row.ref_tokens_b)),
        ):
            prefix = f"    {label}: "
            lines.append(prefix + clip(_visible(text), max(20, width - len(prefix))))
        ca, cb = row.counts_a, row.counts_b
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
    return str(shown(shown(text), _INVISIBLE))


def no_flips_line(report: Report) -> str:
    """Why the report lists no ranking flip: one system, fewer than two implementations that
    rank two systems (nothing was compared), or every ranking agrees (naming the
    implementations left out for want of scores)."""
    s = summary(report)
    if len(s.systems) < 2:
        return "One system: there is no ranking to flip (give two or more -i files)."
    ranking = [impl for impl, ranks in s.ranks.items() if len(ranks) >= 2]
    unranked = [impl for impl in s.ranks if impl not in ranking]
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


def significance_line(report: Report) -> str:
    sig = summary(report).significance
    assert sig is not None
    test = (
        f"paired bootstrap resampling, {sig.resamples:,} resamples"
        if sig.test == "paired-bs"
        else f"approximate randomization, {sig.trials:,} trials"
    )
    return (
        f"p-values: {test}, seed {sig.seed} (as sacrebleu --{sig.test}); "
        f"* = p < {sig.alpha} on a difference visible at {report.policy.decimals} decimals; "
        "computed by the bleu_impl setting that reproduces each implementation"
    )


VERSUS_HEAD = ["system", "implementations", "BLEU", "μ ± 95% CI", "Δ vs first", "p"]


def versus_rows(report: Report) -> list[list[str]]:
    """Every system against the first, as sacrebleu's --paired-bs/--paired-ar table, per
    implementation: score, bootstrap mean ± half-width of the 95% interval, difference from
    the first system and p-value; implementations whose printed row is the same share it."""
    s = summary(report)
    if not s.versus:
        return []
    first = s.versus[0].systems[1]
    scores = report.scores()
    rows: list[list[str]] = []
    for system, pair in [(first, None), *((v.systems[0], v) for v in s.versus)]:
        groups: dict[tuple[str, ...], list[str]] = {}
        for impl in report.names():
            if system not in scores.get(impl, {}) or (pair and impl not in pair.delta):
                continue
            iv = s.intervals.get(impl, {}).get(system)
            cells = (
                _num(scores[impl][system]),
                EMPTY if iv is None else f"{_num(iv.mean)} ± {_num(iv.half)}",
                EMPTY if pair is None else _num(pair.delta[impl], sign=True),
                EMPTY if pair is None else _marked(pair.p_value.get(impl), pair.significant[impl]),
            )
            groups.setdefault(cells, []).append(impl)
        for k, (row, impls) in enumerate(groups.items()):
            rows.append([system if k == 0 else "", ", ".join(impls), *row])
    return rows


def versus_lines(report: Report) -> list[str]:
    """How the table was computed, then each system's verdict against the first."""
    s = summary(report)
    if not s.versus:
        return ["One system: nothing to test." if len(s.systems) < 2 else "Nothing to test."]
    lines = [significance_line(report).replace("p-values:", "Against the first system:", 1)]
    return lines + [f"{v.systems[0]} vs {v.systems[1]}: {v.verdict}" for v in s.versus]


def _render_text(report: Report, markdown: bool, width: int) -> str:
    """The report as Markdown, or as text fitted to ``width`` (prose wrapped, wide tables
    in blocks of systems)."""
    h = (lambda t: f"## {t}") if markdown else (lambda t: f"\n{t}\n{'-' * len(t)}")
    width = 0 if markdown else width

    def fit(line: str, indent: str) -> list[str]:
        """Prose: wrapped to the terminal; in Markdown quoted (it carries messages)."""
        if markdown:
            return [md.text(line)]
        return wrap(line, width, indent).split("\n") if width else [line]

    def as_is(line: str, indent: str) -> list[str]:
        """A line of a fenced block: as written in Markdown (the fence quotes it)."""
        return [line] if markdown else fit(line, indent)

    out: list[str] = []
    head_lines = header_lines(report)
    out += fit(("# " if markdown else "") + head_lines[0], "  ")
    for line in head_lines[1:]:
        out += fit(line, "  ")
    out.append(h("Scores (BLEU, 0–100)"))
    out.append(_wide_table(*score_rows(report), markdown, width))
    fed = feeding_lines(report)
    if fed:
        out += ["", "Input:", *(p for e in fed for p in fit(f"  {e}", "      "))]
    errors = error_lines(report)
    if errors:
        out += ["", "No score:", *(p for e in errors for p in fit(f"  {e}", "      "))]
    out.append(h("Ranks (1 = best; * = differs from the baseline's ranking)"))
    out.append(_wide_table(*rank_rows(report), markdown, width))
    out.append(h(f"Why the scores differ from {summary(report).baseline}"))
    lines = [part for line in decomposition_lines(report) for part in as_is(line, "      ")]
    out += [*fit(ORDER_NOTE, ""), "", *_block(lines, markdown)]
    out.append(h(f"Significance against {_first(report)}"))
    out += _versus_section(report, markdown, fit, width)
    out.append(h("Ranking flips"))
    out += _flip_section(report, markdown, fit, width)
    out.append(h("Where the difference comes from"))
    lines = segment_lines(report, width or 100)
    out += _block(
        [*as_is(lines[0], "  "), *(p for line in lines[1:] for p in as_is(line, "      "))],
        markdown,
    )
    return "\n".join(out)


def _table(head: list[str], rows: list[list[str]], markdown: bool) -> str:
    return md.table(head, rows) if markdown else grid(head, rows)


def _wide_table(head: list[str], rows: list[list[str]], markdown: bool, width: int) -> str:
    """One table, or (``width`` given) blocks of system columns that each fit ``width``,
    every block with the implementation column."""

    def table(cols: list[int]) -> str:
        picked = [[r[0], *(r[j] for j in cols)] for r in rows]
        return _table([head[0], *(head[j] for j in cols)], picked, markdown)

    def fits(cols: list[int]) -> bool:
        return max(len(line) for line in table(cols).splitlines()) <= width

    if not width or not rows or fits(list(range(1, len(head)))):
        return _table(head, rows, markdown)
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


def _block(lines: list[str], markdown: bool) -> list[str]:
    return md.fence("\n".join(lines)).split("\n") if markdown and lines else lines


#: Flip rows the terminal shows (the other formats show every one).
_SHOWN_FLIPS = 15


def _flip_section(
    report: Report, markdown: bool, fit: Callable[[str, str], list[str]], width: int
) -> list[str]:
    flips = summary(report).flips
    if not flips:
        return fit(no_flips_line(report), "")
    limit = None if markdown else _SHOWN_FLIPS
    lines = [*fit(significance_line(report), ""), ""]
    rows = flip_rows(report, limit)
    head = ["pair", "order", "implementations (Δ BLEU, p)"]
    if markdown:
        lines.append(md.table(head, rows))
    else:  # the last column wrapped to what the terminal leaves it
        lines.append(grid(head, rows, maxwidths=_flip_widths(head, rows, width or 120)))
    extra = len(flips) - (limit or len(flips))
    if extra > 0:
        lines.append(f"... {extra} more pair(s) in --format json / markdown / html")
    lines.append("")
    return lines + [p for line in flip_verdicts(report, limit) for p in fit(line, "  ")]


def flip_verdicts(report: Report, limit: int | None) -> list[str]:
    """What each flip's differences and p-values say together."""
    return [f"{f.systems[0]} vs {f.systems[1]}: {f.verdict}" for f in summary(report).flips[:limit]]


def _first(report: Report) -> str:
    systems = summary(report).systems
    return systems[0].name if systems else EMPTY


def _versus_section(
    report: Report, markdown: bool, fit: Callable[[str, str], list[str]], width: int
) -> list[str]:
    lines = versus_lines(report)
    rows = versus_rows(report)
    out = fit(lines[0], "")
    if rows:
        widths = [max(len(h), *(len(r[j]) for r in rows)) for j, h in enumerate(VERSUS_HEAD)]
        # the numbers as wide as they are; the names share what is left (wrapping)
        room = max(32, (width or 120) - sum(widths[2:]) - 2 * (len(widths) - 1))
        widths[0] = min(widths[0], max(12, room // 3))
        widths[1] = max(20, room - widths[0])
        table = (
            md.table(VERSUS_HEAD, rows) if markdown else grid(VERSUS_HEAD, rows, maxwidths=widths)
        )
        out += ["", table, ""]
    return out + [p for line in lines[1:] for p in fit(line, "  ")]


def _flip_widths(head: list[str], rows: list[list[str]], width: int) -> list[int]:
    """Column widths of the flip table within ``width``: the pair and order columns as wide
    as they are, the implementations' column what is left (at least 30); when that is not
    30, the pair and order columns wrap too (long system names: WMT22's "JDExploreAcademy
    vs Lan-Bridge")."""
    firsts = [max(len(head[j]), *(len(r[j]) for r in rows)) for j in (0, 1)]
    if sum(firsts) + 4 + 30 > width:
        room = max(24, width - 4 - 30)
        firsts = [max(12, room * f // sum(firsts)) for f in firsts]
    return [*firsts, max(30, width - sum(firsts) - 4)]


def incomplete(report: Report) -> str:
    """What every format says of a report interrupted before its analysis ("" when
    complete)."""
    if report.corpus is not None:
        return ""
    return (
        f"INCOMPLETE: the corpus report was interrupted after {len(report.cells)} of its "
        "scores, before its analysis; run it again (its log has no summary record)"
    )


def readable(report: Report) -> Report:
    """The report as every format but JSON shows it: file names, the implementations'
    messages and the segments with control characters, line breaks, tabs and bidirectional
    overrides escaped, so a name can neither break a Markdown table or a line of the
    terminal nor reorder what follows it (the JSON keeps them as read)."""
    return replace(report, corpus=shown_inline(report.corpus), cells=shown_inline(report.cells))


def render_table(report: Report, view: View) -> str:
    return incomplete(report) or _render_text(readable(report), False, view.width)


def render_markdown(report: Report, view: View) -> str:
    return incomplete(report) or _render_text(readable(report), True, 0)


def render_json(report: Report, view: View) -> str:
    """The whole report as one JSON document: the cells as score and error matrices, each
    implementation with the setting that reproduces it, and the summary's analysis."""
    if report.corpus is None:
        return incomplete(report)
    s = report.corpus
    reproduced = {r.implementation: jsonable(r) for r in s.reproduced}
    implementations = [
        {**jsonable(info), **reproduced.get(info.name, {})} for info in report.implementations
    ]
    analysis = {k: v for k, v in jsonable(s).items() if k != "reproduced"}
    document = {
        "kind": "corpus-report",
        "header": jsonable(report.header),
        "complete": report.complete,
        **analysis,
        "implementations": implementations,
        "scores": report.scores(),
        "errors": report.errors(),
    }
    return json.dumps(document, indent=1, ensure_ascii=False)
