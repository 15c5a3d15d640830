"""What ``score`` prints, in sacrebleu 2.x's layout (``sacrebleu/metrics/base.py``
``Score.format``, ``utils.py`` ``print_results_table``): one system as JSON (indent 1, the
signature's fields as strings) or ``BLEU|SIGNATURE = 37.5 71.4/50.0/33.3/16.7 (BP = 1.000
ratio = 1.050 hyp_len = 21 ref_len = 20)``; several systems as a JSON list or a boxed table
with the signature below; a line per sentence."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bleu_impl import BleuResult, EmulatedFailure

from .numbers import fixed

if TYPE_CHECKING:  # the significance records: only with -ci, --paired-bs or --paired-ar
    from ..results.records import Flip, Interval

__all__ = [
    "ScoreView",
    "Scored",
    "confidence",
    "paired",
    "sentence",
    "systems",
    "with_tests",
]


@dataclass(frozen=True)
class Scored:
    """One system's outcome: a result, or the error and its exit status."""

    system: str
    result: BleuResult | None = None
    error: str = ""
    status: int = 0


@dataclass(frozen=True)
class ScoreView:
    """How ``score`` prints: ``json`` or text, only the score, ``width`` decimals (None: 2
    on 0-100, 4 on 0-1), ``verbose`` (every step explained), ``short`` signature."""

    json: bool = True
    score_only: bool = False
    width: int | None = None
    verbose: bool = False
    short: bool = False

    def decimals(self, result: BleuResult) -> int:
        return self.width if self.width is not None else (2 if result.config.scale == 100 else 4)

    def score(self, result: BleuResult) -> str:
        return fixed(result.scaled_score, self.decimals(result))


def with_tests(signature: str, tests: str) -> str:
    """The signature with a statistical test's fields after ``nrefs`` (``bs:1000|seed:
    12345``), where sacrebleu puts them."""
    head, _, rest = signature.partition("|")
    return f"{head}|{tests}|{rest}"


def _one(
    result: BleuResult, signature: str, view: ScoreView, interval: dict[str, Any] | None = None
) -> str:
    """sacrebleu's ``Score.format``: the score (and interval), or the JSON object, or the
    line."""
    shown = view.score(result)
    if interval:
        shown += f" ({interval['confidence']})"
    if view.score_only:
        return shown
    if view.json:
        record: dict[str, Any] = {
            "name": "BLEU",
            "score": float(view.score(result)),
            "signature": signature,
            **(interval or {}),
            "verbose_score": result.details,
        }
        for pair in signature.split("|"):
            key, _, value = pair.partition(":")
            record[key] = value
        if view.verbose:
            record["details"] = result.to_dict()
        return json.dumps(record, indent=1, ensure_ascii=False)
    line = f"BLEU|{signature} = {shown} {result.details}"
    if not view.verbose:
        return line
    from bleu_impl.bulk import counted_by  # numpy: only when asked

    from .explain_text import render_explanation

    return f"{line}\n{render_explanation(result)}\ncounted by: {counted_by(result.config)}"


def systems(scored: Sequence[Scored], signature: str, view: ScoreView) -> str:
    """One system as sacrebleu prints it (nothing when it failed); several as sacrebleu's
    JSON list or table (a failed one: ``error``)."""
    if len(scored) == 1:
        result = scored[0].result
        return "" if result is None else _one(result, signature, view) + "\n"
    scores = [view.score(s.result) if s.result else "error" for s in scored]
    if view.json:
        rows = [{"system": s.system, "BLEU": v} for s, v in zip(scored, scores)]
        return json.dumps(rows, indent=4, ensure_ascii=False) + "\n"
    table = boxed(["System", "BLEU"], [[s.system, v] for s, v in zip(scored, scores)])
    return f"{table}\n\n{_signatures(signature)}"


def _signatures(signature: str) -> str:
    rule = "-" * len("Metric signatures")
    return f"{rule}\nMetric signatures\n{rule}\n - {'BLEU':<10} {signature}\n"


def _on(value: float, scale: float) -> float:
    """A value on 0-100 on ``scale`` (unchanged on 100: not a bit of it moves)."""
    return value if scale == 100 else value * scale / 100


def confidence(result: BleuResult, interval: Interval, signature: str, view: ScoreView) -> str:
    """The score with sacrebleu's bootstrap mean and 95% interval (0-100, shown on the
    result's scale), ``(μ = MEAN ± HALF)``."""
    digits, scale = view.decimals(result), result.config.scale
    mean, half = (fixed(_on(v, scale), digits) for v in (interval.mean, interval.half))
    fields = {
        "confidence_mean": float(mean),
        "confidence_var": float(half),
        "confidence": f"μ = {mean} ± {half}",
    }
    return _one(result, signature, view, fields)


def paired(
    scores: Mapping[str, float],
    intervals: Mapping[str, Interval],
    versus: Sequence[Flip],
    signature: str,
    view: ScoreView,
    n: int,
    scale: float = 100,
) -> str:
    """sacrebleu's paired test output, from the corpus report's records of one implementation
    (``scores`` on the profile's ``scale``, ``intervals`` on 0-100; ``versus``: each system
    against the first, the ``Baseline: FILE``): the JSON list, or the table, the explanation
    and the signature. With ``intervals``, paired bootstrap with ``n`` resamples, else ``n``
    randomization trials."""
    p_values = {v.systems[0]: next(iter(v.p_value.values())) for v in versus}
    rows = []
    for k, name in enumerate(scores):
        iv = intervals.get(name)
        mean, half = (iv.mean * scale / 100, iv.half * scale / 100) if iv else (None, None)
        rows.append(
            (f"Baseline: {name}" if k == 0 else name, scores[name], mean, half, p_values.get(name))
        )
    if view.json:
        records = [
            {"system": name, "BLEU": {"score": score, "p_value": p, "mean": mean, "ci": half}}
            for name, score, mean, half, p in rows
        ]
        return json.dumps(records, indent=4, ensure_ascii=False) + "\n"
    w = view.width if view.width is not None else 1
    cells = []
    for name, score, mean, half, p in rows:
        cell = f"{score:.{w}f}" + (f" ({mean:.{w}f} ± {half:.{w}f})" if intervals else "")
        if p is not None:  # sacrebleu stars p <= 0.05 (the report's policy: p < alpha)
            cell += f"\n(p = {p:.4f})" + ("*" if p <= 0.05 else "")
        cells.append([name, cell])
    table = boxed(["System", "BLEU (μ ± 95% CI)" if intervals else "BLEU"], cells)
    return f"{table}\n\n{_paired_note(rows[0][0], bool(intervals), n)}{_signatures(signature)}"


def _paired_note(baseline: str, bootstrap: bool, n: int) -> str:
    """sacrebleu's explanation of a paired test, as it prints it."""
    test, trials = (
        ("bootstrap resampling", "resampling trials")
        if bootstrap
        else ("approximate randomization", "trials")
    )
    title = f"Paired {test} test with {n} {trials}"
    provided = (
        "Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
        if bootstrap
        else "Actual system score is provided for each metric."
    )
    lines = [
        "-" * len(title),
        title,
        "-" * len(title),
        f" - Each system is pairwise compared to {baseline}.",
        f"   {provided}",
        "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis "
        "is correct.",
        "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        '   to chance, hence the system is significantly "different" than the baseline.',
        "   Otherwise, the p-values are highlighted in red.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline '
        "but rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]
    return "".join(f"{line}\n" for line in lines)


def boxed(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The table sacrebleu draws (tabulate's ``fancy_grid``): the first column right-aligned,
    the others centred, each cell line by line, one space of padding."""
    columns = list(zip(headers, *rows))
    widths = [
        max(len(headers[k]) + 2, *(len(line) for cell in col[1:] for line in cell.split("\n")))
        for k, col in enumerate(columns)
    ]

    def rule(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    def line(cells: Sequence[str]) -> list[str]:
        split = [cell.split("\n") for cell in cells]
        height = max(len(parts) for parts in split)
        out = []
        for i in range(height):
            shown = [
                f"{(parts[i] if i < len(parts) else ''):{'>' if k == 0 else '^'}{widths[k]}}"
                for k, parts in enumerate(split)
            ]
            out.append("│ " + " │ ".join(shown) + " │")
        return out

    lines = [rule("╒", "═", "╤", "╕"), *line(headers), rule("╞", "═", "╪", "╡")]
    for k, row in enumerate(rows):
        if k:
            lines.append(rule("├", "─", "┼", "┤"))
        lines += line(row)
    lines.append(rule("╘", "═", "╧", "╛"))
    return "\n".join(lines)


def sentence(
    index: int, result: BleuResult | EmulatedFailure, signature: str, view: ScoreView
) -> str:
    """Line ``index``'s sentence score as sacrebleu -sl prints it (with ``view.json``, one
    compact JSON object: line, score, verbose_score; the signature is the corpus line's), or the
    failure of the emulated tool on it."""
    if isinstance(result, EmulatedFailure):
        if view.json:
            return json.dumps({"line": index, "error": result.kind, "message": str(result)})
        return f"{index}\terror: {result}"
    if view.json:
        record = {
            "line": index,
            "score": float(view.score(result)),
            "verbose_score": result.details,
        }
        return json.dumps(record, ensure_ascii=False)
    return (
        view.score(result)
        if view.score_only
        else f"BLEU|{signature} = {view.score(result)} {result.details}"
    )
