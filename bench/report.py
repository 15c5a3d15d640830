"""The results as text: a console table and ``docs/benchmarks.md``."""

from __future__ import annotations

import os
import platform
import statistics
from datetime import datetime, timezone
from pathlib import Path

from conformance.commands.options import terminal_width
from conformance.reporters import markdown as md
from conformance.reporters.numbers import EMPTY, count, fixed
from conformance.reporters.textgrid import grid

from .generated import Measured, section
from .libs import DISTRIBUTIONS, SENTENCE_BATCH, version
from .runner import STREAMED, Row

TASK_TITLES = {
    "floor": "str.split floor (pre-tokenized text)",
    "pretok": "corpus BLEU, pre-tokenized text (tokenize none)",
    "13a": "corpus BLEU, detokenized text (13a)",
    "sentence": "sentence BLEU, one call per segment (13a, effective order)",
    "zh": "corpus BLEU, Chinese text (zh)",
    "ja-mecab": "corpus BLEU, Japanese text (ja-mecab)",
}
#: tasks on their own corpora: no ratio to the (Latin, pre-tokenized) split floor
OWN_CORPUS = ("zh", "ja-mecab")


def machine() -> str:
    """CPU model, cores, memory, OS and Python."""
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1024**2:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{cpu}, {cores} cores{mem}; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}"
    )


def _find(rows: list[Row], size: int, refs: int, task: str, lib: str) -> Row | None:
    for row in rows:
        if (row.size, row.refs, row.task, row.lib) == (size, refs, task, lib):
            return row
    return None


HEADERS = [
    "segments",
    "refs",
    "task",
    "library",
    "median s",
    "segments/s",
    "peak RSS MB (extra)",
    "x faster than sacrebleu",
    "x split (kept) floor",
    "check / note",
]


#: How the columns align: counts and times to the right.
ALIGN = "rrllrrrrrl"


def _cells(rows: list[Row]) -> list[list[object]]:
    """One row of cells per row: ratios against sacrebleu and the split floor."""
    cells = []
    for row in rows:
        base = _find(rows, row.size, row.refs, row.task, "sacrebleu")
        floor = _find(rows, row.size, row.refs, "floor", "str.split (kept)")
        speedup = base.median / row.median if base and base.median and row.median else None
        vs_floor = row.median / floor.median if floor and floor.median and row.median else None
        if row.task == "floor" or row.task in OWN_CORPUS:
            vs_floor = None
        peak = EMPTY
        if row.peak_mb is not None:
            peak = f"{fixed(row.peak_mb, 0)} ({fixed(row.extra_mb, 0)})"
            peak += "" if row.peak_exact else "*"
        note = row.skipped or "; ".join(x for x in (row.check, row.note) if x)
        cells.append(
            [
                count(row.size),
                row.refs,
                row.task,
                row.lib,
                fixed(row.median, 3),
                count(row.segments_per_s),
                peak,
                fixed(speedup, 1),
                fixed(vs_floor),
                note,
            ]
        )
    return cells


def table(rows: list[Row]) -> list[str]:
    """Markdown table lines: a header, its rule, one line per row."""
    return md.table(HEADERS, _cells(rows), ALIGN).splitlines()


def targets(rows: list[Row]) -> list[str]:
    """The speed and memory targets, each marked met / not met / not measured, with numbers."""
    out = []

    def ratio(task: str, size: int, lib: str, other: str) -> tuple[float | None, str]:
        a, b = _find(rows, size, 1, task, lib), _find(rows, size, 1, task, other)
        if not (a and b and a.median and b.median):
            return None, "not measured"
        return b.median / a.median, f"{a.median:.3f} s vs {b.median:.3f} s"

    def verdict(ok: bool | None) -> str:
        return "not measured" if ok is None else ("**met**" if ok else "**not met**")

    for task, size, need, aside in (
        ("pretok", 100_000, 6.0, ""),
        ("13a", 100_000, 4.0, ""),
        ("sentence", 3_000, 3.0, ""),
        ("zh", 100_000, 4.0, ""),
        ("ja-mecab", 100_000, 1.0, " (no slower than sacrebleu)"),
    ):
        r, detail = ratio(task, size, "bleu_impl", "sacrebleu")
        ok = None if r is None else r >= need
        out.append(
            f"- {TASK_TITLES[task]}, {size:,} x 1 ref: >= {need:g}x faster than sacrebleu"
            f"{aside} — {verdict(ok)} ({fixed(r)}x; {detail})"
        )
    for other in ("bleuscore", "sacrebleu-mojo"):
        r, detail = ratio("pretok", 100_000, "bleu_impl", other)
        ok = None if r is None else r > 1
        out.append(
            f"- pre-tokenized 100,000 x 1: faster than {other} — {verdict(ok)} "
            f"({fixed(r)}x; {detail})"
        )
    peaks = [r for r in rows if r.size == 100_000 and r.lib.startswith("bleu_impl") and r.peak_mb]
    if peaks:
        worst = max(peaks, key=lambda r: r.peak_mb or 0)
        out.append(
            f"- peak memory at 100,000 < 300 MB — {verdict((worst.peak_mb or 0) < 300)} "
            f"(largest bleu_impl peak RSS: {worst.peak_mb:.0f} MB, {worst.task} x{worst.refs} "
            f"{worst.lib}, corpus included)"
        )
    streamed = [r for r in rows if r.lib == STREAMED and r.peak_mb]
    if streamed:
        sizes = ", ".join(f"{r.size:,} x{r.refs} {r.task}: {r.peak_mb:.0f} MB" for r in streamed)
        big = [r.peak_mb or 0 for r in streamed if r.size >= 1_000_000]
        small = [r.peak_mb or 0 for r in streamed if r.size < 1_000_000]
        ok = None if not big or not small else max(big) < 1.5 * max(small)
        out.append(f"- 1M streamed in bounded memory — {verdict(ok)} (peak RSS {sizes})")
    row = _find(rows, 100_000, 1, "pretok", "bleu_impl")
    for label in ("str.split (kept)", "str.split"):
        r = None
        floor = _find(rows, 100_000, 1, "floor", label)
        if row and floor and row.median and floor.median:
            r = row.median / floor.median
        out.append(
            f"- within 3x of the `{label}` floor (100,000 x 1, pre-tokenized) — "
            f"{verdict(None if r is None else r <= 3)} ({fixed(r)}x the floor)"
        )
    return out


def sentence_targets(rows: list[Row]) -> list[str]:
    """The sentence-level targets: ``sentence_scores`` >= 10x sacrebleu's
    per-sentence loop, ``sentence_bleu`` per call >= 2x, each same-run ratio with its
    numbers."""
    out = []
    for lib, need in ((SENTENCE_BATCH, 10.0), ("bleu_impl", 2.0)):
        for row in rows:
            if row.task != "sentence" or row.lib != lib:
                continue
            base = _find(rows, row.size, row.refs, "sentence", "sacrebleu")
            if not (base and base.median and row.median):
                out.append(f"- {lib}, {row.size:,} x {row.refs}: not measured")
                continue
            r = base.median / row.median
            verdict = "**met**" if r >= need else "**not met**"
            out.append(
                f"- {lib} ({row.note}), {row.size:,} x {row.refs} ref: >= {need:g}x faster "
                f"than sacrebleu's `sentence_score` loop — {verdict} ({r:.2f}x; "
                f"{row.median:.3f} s vs {base.median:.3f} s)"
            )
    return out


_CLOCKS = {"wall": "wall time", "cpu": "CPU time of the measuring process"}


def markdown(
    rows: list[Row],
    reps: int,
    command: str,
    compared: list[Measured] | None = None,
    clock: str = "wall",
) -> str:
    """The whole ``docs/benchmarks.md``."""
    versions = ", ".join(f"{d} {version(d) or '(not installed)'}" for d in DISTRIBUTIONS)
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    medians = [r.median for r in rows if r.median]
    return "\n".join(
        [
            "# Benchmarks",
            "",
            f"Generated by `{command}` on {when}. Regenerate with `python -m bench` "
            "(`python -m bench --help` explains every option).",
            "",
            f"- Machine: {machine()}",
            f"- Libraries: bleu-conformance {version('bleu-conformance')}, {versions}",
            f"- Method: one fresh process per measurement; corpus read from disk before the "
            f"clock starts; {_CLOCKS[clock]}; "
            f"1 warm-up + {reps} timed runs, median reported (1M rows: 1 run, no "
            "warm-up). Peak RSS = the process's resident-set high-water mark during the timed "
            "calls (VmHWM reset via /proc/self/clear_refs after loading), corpus included; "
            "(extra) = peak minus the resident size before the calls. `*` = lifetime peak "
            "(clear_refs unavailable).",
            "- Check: before a time is reported its score must equal sacrebleu's (or, for "
            "libraries with other semantics, bleu_impl's profile of that library) to 1e-12; "
            "otherwise the time is withheld and the difference shown.",
            "- Corpora: `bench/corpus.py`, seeded Zipfian vocabulary (~30k types, s=1.07), "
            "log-normal lengths (~24 tokens), hypotheses = reference 1 with substitutions, "
            "deletions, insertions and swaps; extra references are lighter paraphrases. "
            "zh / ja-mecab: `bench/mtsystems.py` Chinese / Japanese (no spaces between words, "
            "CJK punctuation, some digits), one system at edit rate 0.3.",
            f"- {len(medians)} timed rows.",
            "",
            "## Targets",
            "",
            *targets(rows),
            "",
            "## Results",
            "",
            *table(rows),
            "",
            *_speed_sections(rows, compared or []),
        ]
    )


def _speed_sections(rows: list[Row], compared: list[Measured]) -> list[str]:
    """The targets of sentence-level BLEU in bulk and of generated comparisons."""
    out = []
    sentences = sentence_targets(rows)
    if sentences:
        out += ["## Targets: sentence BLEU in bulk", "", *sentences, ""]
    if compared:
        out += [
            "## Generated comparisons",
            "",
            "`bleu-conformance compare` run as a user runs it (a fresh process, JSON report on "
            "stdout), CPU = user + system time of the process and its workers. Targets: "
            "`--generate 200` <= 30 s, `--generate 1000` <= 120 s, the same pair records for "
            "any `--jobs`.",
            "",
            *section(compared),
            "",
        ]
    return out


def console(rows: list[Row]) -> str:
    """The table of ``docs/benchmarks.md``, fitted to the terminal."""
    lines = [grid(HEADERS, _cells(rows), align=ALIGN, width=terminal_width())]
    sentence = [r.median for r in rows if r.task == "sentence" and r.median]
    if sentence:
        lines.append(f"(sentence rows: {statistics.median(sentence):.3f} s median)")
    return "\n".join(lines)
