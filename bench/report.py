"""The results as text: a console table and ``docs/benchmarks.md``."""

from __future__ import annotations

import statistics

from conformance.commands.options import terminal_width
from conformance.reporters import markdown as md
from conformance.reporters.numbers import EMPTY, count, fixed
from conformance.reporters.textgrid import grid

from . import corpus_report, startup
from .cfloor import C_FLOOR
from .generated import Measured, section
from .identify import identify_table
from .libs import DASK_FILES, SENTENCE_BATCH
from .results import Run
from .runner import STREAMED, Row

TASK_TITLES = {
    "floor": "str.split floor (pre-tokenized text)",
    "pretok": "corpus BLEU, pre-tokenized text (tokenize none)",
    "13a": "corpus BLEU, detokenized text (13a)",
    "sentence": "sentence BLEU, one call per segment (13a, effective order)",
    "zh": "corpus BLEU, Chinese text (zh)",
    "ja-mecab": "corpus BLEU, Japanese text (ja-mecab)",
}


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
    "x faster than NLTK",
    "x the C floor",
    "check / note",
]


#: How the columns align: counts and times to the right.
ALIGN = "rrllrrrrrrl"
#: the C floor row a task's times are divided by (sentence rows: the same per-segment
#: statistics of the 13a corpus)
FLOOR_TASK = {"pretok": "pretok", "13a": "13a", "sentence": "13a"}


def _ratio(a: Row | None, b: Row | None) -> float | None:
    """``a``'s median over ``b``'s (None unless both were timed)."""
    return a.median / b.median if a and b and a.median and b.median else None


def _cells(rows: list[Row]) -> list[list[object]]:
    """One row of cells per row: ratios against sacrebleu, NLTK and the C floor."""
    cells = []
    for row in rows:
        block = (rows, row.size, row.refs)
        floor = _find(*block, FLOOR_TASK.get(row.task, ""), C_FLOOR)
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
                fixed(_ratio(_find(*block, row.task, "sacrebleu"), row), 1),
                fixed(_ratio(_find(*block, row.task, "nltk"), row), 1),
                fixed(_ratio(row, floor) if row.lib != C_FLOOR else None),
                note,
            ]
        )
    return cells


def table(rows: list[Row]) -> list[str]:
    """Markdown table lines: a header, its rule, one line per row."""
    return md.table(HEADERS, _cells(rows), ALIGN).splitlines()


def _verdict(ok: bool | None) -> str:
    return "not measured" if ok is None else ("**met**" if ok else "**not met**")


def targets(rows: list[Row]) -> list[str]:
    """The speed and memory targets, each marked met / not met / not measured, with numbers."""
    out = []
    for task in ("pretok", "13a"):
        for size in sorted({r.size for r in rows if r.task == task}):
            for refs in sorted({r.refs for r in rows if r.task == task and r.size == size}):
                out.append(_ahead(rows, size, refs, task))
    for task, need in (("pretok", 2.0), ("13a", 3.0)):
        for size in (100_000, 1_000_000):
            for refs in sorted({r.refs for r in rows if (r.task, r.size) == (task, size)} or {1}):
                ours = _find(rows, size, refs, task, "bleu_impl")
                r = _ratio(ours, _find(rows, size, refs, task, C_FLOOR))
                detail = f"{r:.2f}x the floor" if r else "not measured"
                out.append(
                    f"- {TASK_TITLES[task]}, {size:,} x {refs}: within {need:g}x of the C "
                    f"floor — {_verdict(None if r is None else r <= need)} ({detail})"
                )
    peaks = [r for r in rows if r.size == 100_000 and r.lib.startswith("bleu_impl") and r.peak_mb]
    if peaks:
        worst = max(peaks, key=lambda r: r.peak_mb or 0)
        out.append(
            f"- peak memory at 100,000 < 300 MB — {_verdict((worst.peak_mb or 0) < 300)} "
            f"(largest bleu_impl peak RSS: {worst.peak_mb:.0f} MB, {worst.task} x{worst.refs} "
            f"{worst.lib}, corpus included)"
        )
    streamed = [r for r in rows if r.lib == STREAMED and r.peak_mb]
    if streamed:
        sizes = ", ".join(f"{r.size:,} x{r.refs} {r.task}: {r.peak_mb:.0f} MB" for r in streamed)
        big = [r.peak_mb or 0 for r in streamed if r.size >= 1_000_000]
        small = [r.peak_mb or 0 for r in streamed if r.size < 1_000_000]
        ok = None if not big or not small else max(big) < 1.5 * max(small)
        out.append(f"- 1M streamed in bounded memory — {_verdict(ok)} (peak RSS {sizes})")
    out += [_dask_target(rows, r) for r in rows if r.lib == DASK_FILES and r.size >= 1_000_000]
    return out


def _dask_target(rows: list[Row], dask: Row) -> str:
    """Dask against one process reading the same files: met when both its wall time and its
    CPU time on the critical path (client + busiest worker) are lower; the second does not
    grow when other work holds the cores, and the first shows what a user waits."""
    one = _find(rows, dask.size, dask.refs, dask.task, STREAMED)
    wall, cpu = _ratio(one, dask), None
    if one and one.cpu_median and dask.cpu_median:
        cpu = one.cpu_median / dask.cpu_median
    ok = None if wall is None or cpu is None else wall > 1 and cpu > 1
    detail = "one process not measured" if wall is None else "no CPU critical path recorded"
    if one and dask.median and one.median and dask.cpu_median and one.cpu_median:
        detail = (
            f"wall {dask.median:.2f} s vs {one.median:.2f} s, {wall:.2f}x; CPU on the critical "
            f"path, client + busiest worker vs the one process, {dask.cpu_median:.2f} s vs "
            f"{one.cpu_median:.2f} s, {cpu:.2f}x"
        )
    return (
        f"- {TASK_TITLES[dask.task]}, {dask.size:,} x {dask.refs}: Dask on a 2-worker "
        f"LocalCluster faster than one process reading the same files — {_verdict(ok)} "
        f"({detail})"
    )


#: rows that are not peers in "faster than every peer" (bleu_impl's own variants, floors)
NOT_PEERS = ("bleu_impl", "str.split", C_FLOOR)


def _ahead(rows: list[Row], size: int, refs: int, task: str) -> str:
    """Whether bleu_impl beat every timed peer in one (size, refs, task) block."""
    where = f"- {TASK_TITLES[task]}, {size:,} x {refs}: bleu_impl faster than every peer"
    ours = _find(rows, size, refs, task, "bleu_impl")
    peers = [
        r
        for r in rows
        if (r.size, r.refs, r.task) == (size, refs, task)
        and r.median
        and not r.lib.startswith(NOT_PEERS)
    ]
    if not (ours and ours.median) or not peers:
        return f"{where} — not measured"
    ahead = [r for r in peers if r.median and r.median <= ours.median]
    names = ", ".join(f"{r.lib} {r.median:.3f} s" for r in ahead)
    untimed = [
        r.lib
        for r in rows
        if (r.size, r.refs, r.task) == (size, refs, task)
        and r.skipped
        and not r.lib.startswith(NOT_PEERS)
    ]
    aside = f"; not timed here: {', '.join(untimed)}" if untimed else ""
    return (
        f"{where} — {_verdict(not ahead)} (bleu_impl {ours.median:.3f} s"
        + (f"; as fast or faster: {names}" if ahead else f"; {len(peers)} peers timed")
        + f"{aside})"
    )


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


_AUTOGROUP = (
    " Linux autogroup scheduling was on: the bench's processes shared one session's slice "
    "of the CPU, so when other sessions kept the cores busy (load average above 2) the two "
    "workers together got no more CPU than one process, and only the CPU path shows "
    "what the second core gives."
)
_CLOCKS = {"wall": "wall time", "cpu": "CPU time of the measuring process"}


def markdown(run: Run) -> str:
    """The whole ``docs/benchmarks.md``, rendered from a saved run alone."""
    meta, rows = run.meta, run.rows
    versions = ", ".join(f"{d} {v or '(not installed)'}" for d, v in meta["versions"].items())
    medians = [r.median for r in rows if r.median]
    load = "; ".join(
        f"{when} {', '.join(f'{x:.2f}' for x in meta[key])}"
        for when, key in (("start", "load_start"), ("end", "load_end"))
        if key in meta
    )
    return "\n".join(
        [
            "# Benchmarks",
            "",
            f"Generated from `docs/benchmarks.json` (`python -m bench --render`), measured by "
            f"`{meta['command']}` from {meta['started']}. Every line below is written by the "
            "bench; `python -m bench --help` explains every option.",
            "",
            f"- Machine: {meta['machine']}",
            f"- Load average (1, 5, 15 min): {load} — other work shares the machine; "
            "ratios measured in the same run are what counts",
            f"- Commit: {meta['commit']}",
            f"- Libraries: {versions}",
            f"- Method: one fresh process per measurement; corpus read from disk before the "
            f"clock starts; {_CLOCKS[meta['clock']]}; "
            f"{meta['warmup']} warm-up + {meta['reps']} timed runs, median reported (1M rows: "
            "1 run, no warm-up). Peak RSS = the process's resident-set high-water mark during "
            "the timed calls (VmHWM reset via /proc/self/clear_refs after loading), corpus "
            "included; (extra) = peak minus the resident size before the calls. `*` = "
            "lifetime peak (clear_refs unavailable).",
            "- C floor: `bench/floor.c`, compiled by the bench with `gcc -O2`; files read "
            "into memory before its clock, then tokenizing, exact token interning and clipped "
            "counting per segment in C; its statistics are scored by bleu_impl and checked "
            "like every row. Sentence rows are divided by the 13a C floor (the same "
            "per-segment statistics).",
            "- Processes: rows whose work is in other processes (`--jobs 2`, Dask) and the "
            "streamed row Dask is compared with are timed in wall time whatever the clock; "
            "the Dask cluster (2 workers x 1 thread) is started and its workers' imports "
            "done before the clock (their times are in the row's note); the Dask target "
            "also compares CPU time on the critical path (the client's, scheduler included, "
            "plus the busiest worker's) with the one process's, which waiting for a core on "
            "a loaded machine does not inflate." + _AUTOGROUP * bool(meta.get("autogroup")),
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
            *([meta["note"], ""] if meta.get("note") else []),
            "## Targets",
            "",
            *targets(rows),
            "",
            "## Results",
            "",
            *table(rows),
            "",
            *_speed_sections(rows, run.compared),
            *(corpus_report.section(run.corpus_report) if run.corpus_report else []),
            *_identify_section(run),
            *(startup.section(run.startup) if run.startup else []),
        ]
    )


def _identify_section(run: Run) -> list[str]:
    """``identify --impl X`` timed, with the load average when it was."""
    if not run.identify:
        return []
    load = ", ".join(f"{x:.1f}" for x in run.meta.get("identify_load", []))
    return [
        "## identify",
        "",
        f"Load average at the end: {load} (wall time grows with other work on the machine; "
        "CPU time does not)",
        "",
        identify_table(run.identify),
        "",
    ]


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
