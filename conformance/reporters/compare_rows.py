"""The words and numbers every compare report shows: scores on 0–100 at the printed
precision, signed and absolute differences, the verdict paragraph, and the rows of the pair,
cause and difference tables (text, Markdown and HTML render these same rows)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bleu_impl import DOCS
from bleu_impl.knobs import MEANINGS

from ..protocol import jsonable
from ..results.findings import Difference, Findings, PairTally
from ..results.records import show_value
from ..results.report import Report
from ..results.vocab import BOTH_FAILED, DIFFERING, ERRORED_PAIR, IDENTICAL, SKIPPED_PAIR, WITHIN
from .numbers import EMPTY, fixed, short

__all__ = [
    "CAUSE_HEADERS",
    "DISCREPANCY_HEADERS",
    "PAIR_HEADERS",
    "cause_cell",
    "cause_legend",
    "cause_rows",
    "delta_text",
    "detail_cell",
    "difference_rows",
    "knob_notes",
    "legend",
    "no_verdict",
    "pair_legend",
    "pair_row",
    "score_text",
    "sides",
    "size_text",
    "verdict",
]


def no_verdict(comparison: Report) -> list[str]:
    """Why the comparison is no verdict: interrupted, or too little compared."""
    out = []
    if not comparison.complete:
        out.append(
            f"INCOMPLETE: the comparison was interrupted after {len(comparison.pairs)} pair "
            "records; what follows covers only those."
        )
    out += [f"TOO LITTLE COMPARED: {line}" for line in comparison.shortfalls()]
    return out


DISCREPANCY_HEADERS = ["#", "case", "pair", "1st", "2nd", "2nd − 1st", "cause"]


def score_text(value: float | None, other: float | None, failure: object = None) -> str:
    """A score on 0–100 at two decimals, or more where needed to tell it from ``other``;
    exponent form for values too small to print; the failure kind for a failed side."""
    if value is None:
        return f"fails ({failure})" if failure else "fails"
    if value != 0 and abs(value) < 0.005:
        return short(value)
    for decimals in range(2, 7):
        if other is None or fixed(value, decimals) != fixed(other, decimals):
            break
    return fixed(value, decimals)


def delta_text(difference: Difference) -> str:
    signed = difference.signed
    if signed is None:
        return "failure"
    return short(signed, 3 if abs(signed) >= 0.001 else 2, sign=True)


def size_text(size: float) -> str:
    """A |Δ| on 0–100: ``8.32``, ``1.2e-75``, ``failure``."""
    return "failure" if size == float("inf") else short(size)


def sides(d: Difference) -> tuple[str, str]:
    a, b = d.score_a, d.score_b
    return (
        score_text(a, b, d.record.side_a.failure),
        score_text(b, a, d.record.side_b.failure),
    )


# --- the answer ------------------------------------------------------------------------


def legend(f: Findings) -> list[tuple[str, str]]:
    """Each implementation's letter and ``name version (--impl spec)``."""
    spec = {i.name: f" (--impl {i.spec})" for i in f.implementations if i.spec not in ("", i.name)}
    return [
        (f.letters.get(i.name, "?"), f"{i.name} {i.version}{spec.get(i.name, '')}")
        for i in f.implementations
    ]


def _who(f: Findings, d: Difference) -> str:
    return f"{d.item} ({f.pair_label(d.pair)})"


def verdict(f: Findings) -> str:
    """One paragraph: do they differ, how much, and the largest difference."""
    limit = f"{f.threshold:g}"
    compared = sum(t.compared for t in f.tallies)
    if not f.material and not f.negligible:
        return (
            f"No differences: every one of the {compared} compared pair results agrees "
            "(identical, within tolerance, or both failed)."
        )
    parts = []
    if f.material:
        largest = f.material[0]
        parts.append(
            f"{len(f.material)} material difference{'s' if len(f.material) != 1 else ''} "
            f"(|Δ| ≥ {limit} BLEU points on 0–100, visible at {f.decimals} decimals); "
            f"largest {size_text(largest.size)} on {_who(f, largest)}."
        )
    else:
        parts.append(f"No material difference (none reaches {limit} BLEU points on 0–100).")
    if f.negligible:
        parts.append(
            f"{len(f.negligible)} negligible difference{'s' if len(f.negligible) != 1 else ''}"
            f", all below {limit} (largest {size_text(f.negligible[0].size)})."
        )
    return " ".join(parts)


def pair_row(f: Findings, t: PairTally) -> list[Any]:
    return [
        f.pair_label((t.a, t.b)),
        t.compared,
        t.counts[IDENTICAL],
        t.counts[WITHIN],
        t.counts[BOTH_FAILED],
        t.counts[DIFFERING],
        t.material,
        t.negligible,
        t.unexplained,
        t.counts[ERRORED_PAIR],
        t.counts[SKIPPED_PAIR],
        size_text(100 * t.max_abs),
    ]


PAIR_HEADERS = [
    "pair",
    "compared",
    "identical",
    "within tol",
    "both failed",
    "differing",
    "material",
    "negligible",
    "unexplained",
    "errored",
    "skipped",
    "max |Δ|",
]
CAUSE_HEADERS = ["cause", "pairs", "cases", "material", "max |Δ|", "example"]


def pair_legend(f: Findings, shown: Sequence[str]) -> list[tuple[str, str]]:
    """What each shown column of the pair table counts, a line each."""
    limit = f"{f.threshold:g}"
    meanings = {
        "pair": "the two implementations, by their letters above",
        "compared": "cases both answered, with a score or a failure (all but the skipped)",
        "identical": "the same score, or the same failure",
        "within tol": "scores apart by at most 1e-9 relative or half a printed digit",
        "both failed": "both rejected the input, with different failures",
        "differing": "different scores, or one scored where the other failed",
        "material": f"differing by ≥ {limit} BLEU points on 0–100: shows at {f.decimals} decimals",
        "negligible": f"differing by less than {limit} (float noise, 1e-77 against 0)",
        "unexplained": "differing, and no knob change reproduces it",
        "errored": "an implementation gave no usable answer (crash, hang, garbage)",
        "skipped": "not compared: an implementation cannot take the case (-v says why)",
        "max |Δ|": "the largest difference, BLEU points on 0–100",
    }
    return [(header, meanings[header]) for header in shown]


def cause_legend() -> list[tuple[str, str]]:
    """What each column of the cause table holds, a line each."""
    return list(
        zip(
            CAUSE_HEADERS,
            (
                "the fewest knob changes that turn one side's result into the other's",
                "the pairs it explains",
                "differing cases it explains",
                "how many of them are material",
                "its largest difference, BLEU points on 0–100",
                "the case of that largest difference",
            ),
        )
    )


def cause_rows(f: Findings) -> list[list[Any]]:
    return [
        [
            g.cause if g.explained else f"{g.cause} (no knob change reproduces it)",
            ", ".join(f.pair_label(p) for p in g.pairs),
            g.cases,
            g.material,
            size_text(g.largest.size),
            g.largest.item,
        ]
        for g in f.causes
    ]


def cause_cell(d: Difference) -> str:
    alternatives = d.alternatives
    return f"{d.cause}\n(equally minimal: {alternatives})" if alternatives else d.cause


def difference_rows(f: Findings, rows: Sequence[Difference], start: int = 1) -> list[list[str]]:
    out = []
    for number, d in enumerate(rows, start):
        a, b = sides(d)
        out.append([str(number), d.item, f.pair_label(d.pair), a, b, delta_text(d), cause_cell(d)])
    return out


def detail_cell(d: Difference) -> str:
    """The differing statistics and the minimal input of one difference."""
    lines = ["; ".join(d.record.stats_diff) or EMPTY]
    if d.record.minimal is not None:
        lines.append("minimal: " + json.dumps(jsonable(d.record.minimal), ensure_ascii=False))
    return "\n".join(lines)


def knob_notes(f: Findings) -> list[tuple[str, str]]:
    """The legend of the causes: each knob value a cause names with what it means
    (``bleu_impl.knobs.MEANINGS``; a number, weights or path: the knob's documentation), in
    the order the causes are listed; values no cause names are left out."""
    notes: dict[str, str] = {}
    for group in f.causes:
        for change in group.cause.split("; "):  # knob: a vs b; knob2: ...
            knob, _, values = change.partition(": ")
            shown = set(values.split(" vs "))
            meanings = MEANINGS.get(knob, {})
            for value, meaning in meanings.items():
                if show_value(value) in shown:
                    notes.setdefault(f"{knob}={show_value(value)}", meaning)
            if not meanings and knob in DOCS:
                notes.setdefault(knob, DOCS[knob])
    return list(notes.items())
