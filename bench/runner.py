"""Orchestration: corpora on disk, one subprocess per measurement, correctness checks."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import corpus as gen
from . import mtsystems
from .cfloor import C_FLOOR, compile_floor
from .libs import ADAPTERS, DASK_FILES, FILE_ROWS, STREAMED, WALL_CLOCK, Adapter, missing
from .ownenv import own_python

TOLERANCE = 1e-12
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "bleu-conformance-bench"
TASKS = ("floor", "pretok", "13a", "sentence", "zh", "ja-mecab")
#: task -> the generated corpus it reads (``pretok``/``detok``: bench/corpus.py; ``zh``/``ja``:
#: bench/mtsystems.py, text written without spaces between words)
CORPUS_OF_TASK = {
    "floor": "pretok",
    "pretok": "pretok",
    "13a": "detok",
    "sentence": "detok",
    "zh": "zh",
    "ja-mecab": "ja",
}
#: task -> the sacrebleu tokenizer it measures
TOKENIZE_OF_TASK = {
    "floor": "none",
    "pretok": "none",
    "13a": "13a",
    "sentence": "13a",
    "zh": "zh",
    "ja-mecab": "ja-mecab",
}

#: Everything ``--tasks`` can select: the corpus tasks and the generated comparisons.
ALL_TASKS = (*TASKS, "compare")


@dataclass
class Row:
    """One measured (or skipped) line of the results table."""

    size: int
    refs: int
    task: str
    lib: str
    times: list[float] = field(default_factory=list)
    #: CPU seconds per timed run on the critical path: the measuring process's, plus the
    #: busiest Dask worker's (bench/worker.py)
    cpu_path: list[float] = field(default_factory=list)
    peak_mb: float | None = None
    extra_mb: float | None = None
    peak_exact: bool = True
    check: str = ""
    skipped: str = ""
    note: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times and not self.skipped else None

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpu_path) if self.cpu_path and not self.skipped else None

    @property
    def segments_per_s(self) -> float | None:
        median = self.median
        return self.size / median if median else None


@dataclass
class Plan:
    """What to run: sizes, reference counts, repetitions, and which libraries at 1M."""

    sizes: list[int]
    refs: list[int]
    reps: int = 5
    warmup: int = 1
    seed: int = 0
    cache: Path = DEFAULT_CACHE
    big: int = 1_000_000
    big_libs: tuple[str, ...] = (
        "str.split",
        "str.split (kept)",
        "bleu_impl",
        STREAMED,
        DASK_FILES,
        "sacrebleu",
        "sacrebleu-mojo",
        "bleuscore",
        C_FLOOR,
    )
    big_reps: int = 1
    sentence_max: int = 100_000
    cjk_max: int = 100_000
    timeout: float = 3600.0
    libs: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ()  # () = every task
    check_against: str = "sacrebleu"
    clock: str = "wall"  # or "cpu": the measuring process's CPU time (a loaded machine)


def corpus_dir(plan: Plan, size: int, refs: int, kind: str) -> str:
    """Write (once) and return the directory of a generated corpus of ``kind`` (a value of
    :data:`CORPUS_OF_TASK`)."""
    folder = plan.cache / f"s{plan.seed}-n{size}-r{refs}-{kind}"
    if (folder / "done").exists():
        return str(folder)
    folder.mkdir(parents=True, exist_ok=True)
    files = [open(folder / "hyp.txt", "w", encoding="utf-8")]  # noqa: SIM115
    files += [open(folder / f"ref{k}.txt", "w", encoding="utf-8") for k in range(refs)]  # noqa: SIM115
    try:
        for lines in _corpus_lines(plan, size, refs, kind):
            for handle, line in zip(files, lines):
                handle.write(line + "\n")
    finally:
        for handle in files:
            handle.close()
    (folder / "done").write_text("ok")
    return str(folder)


def _corpus_lines(plan: Plan, size: int, refs: int, kind: str) -> Iterator[list[str]]:
    """``[hypothesis, reference 1, ...]`` per segment."""
    if kind in ("pretok", "detok"):
        join = gen.detokenize if kind == "detok" else " ".join
        for seg in gen.segments(size, refs, plan.seed):
            yield [join(tokens) for tokens in (seg.hyp, *seg.refs)]
        return
    system = mtsystems.SystemSpec("hyp", 0.3)
    streams, outputs = mtsystems.generate(kind, size, [system], refs, plan.seed)
    yield from ([h, *r] for h, *r in zip(outputs["hyp"], *streams))


def run_worker(spec: dict[str, Any], timeout: float, python: str = "") -> dict[str, Any]:
    """Run ``bench.worker`` in a fresh interpreter (``python``, default this one) and return
    its JSON (or an error)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    try:
        proc = subprocess.run(  # the spec on stdin: a score list can outgrow argv
            [python or sys.executable, "-m", "bench.worker"],
            input=json.dumps(spec),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"failed: {last[:300]}"}
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _jobs(plan: Plan, size: int) -> list[tuple[str, Adapter | str]]:
    """(task, adapter) per measurement; a row reading the files itself: (task, its label)."""
    chosen: list[tuple[str, Adapter | str]] = []
    # sacrebleu first in each task: its score is what the others are checked against
    ordered = sorted(ADAPTERS, key=lambda a: (TASKS.index(a.task), a.lib != "sacrebleu"))
    for adapter in ordered:
        if plan.tasks and adapter.task not in plan.tasks:
            continue
        if adapter.task == "sentence" and size > plan.sentence_max:
            continue
        if adapter.task in ("zh", "ja-mecab") and size > plan.cjk_max:
            continue
        if not plan.libs or adapter.lib in plan.libs:
            chosen.append((adapter.task, adapter))
        if adapter.lib == "bleu_impl" and adapter.task in ("pretok", "13a") and size >= 100_000:
            chosen += [
                (adapter.task, lib) for lib in FILE_ROWS if not plan.libs or lib in plan.libs
            ]
    return chosen


def available_mb() -> float | None:
    """MemAvailable from /proc/meminfo, in MB (None if unknown)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def predicted_mb(rows: list[Row], size: int, refs: int, task: str, lib: str) -> float | None:
    """Peak RSS extrapolated linearly from the largest smaller measured size."""
    known = [
        r
        for r in rows
        if (r.refs, r.task, r.lib) == (refs, task, lib) and r.size < size and r.peak_mb
    ]
    if not known:
        return None
    best = max(known, key=lambda r: r.size)
    return (best.peak_mb or 0.0) * size / best.size


def _reference_score(
    plan: Plan, spec: dict[str, Any], check: str, cache: dict[tuple[str, str], Any]
) -> Any:
    """The score a library must reproduce: sacrebleu's, or bleu_impl's profile of it."""
    key = (spec["task"], check)
    if key not in cache:
        ref_spec = {**spec, "reps": 1, "warmup": 0, "want": None}
        ref_spec.pop("binary", None)
        if check == "sacrebleu":
            ref_spec["lib"] = "sacrebleu"
        else:
            ref_spec["check"] = check
        cache[key] = run_worker(ref_spec, plan.timeout).get("score")
    return cache[key]


@dataclass
class Job:
    """One planned measurement: the row it fills, the worker's spec and the score check."""

    row: Row
    adapter: Adapter | None  # None: bleu_impl streaming the corpus files
    spec: dict[str, Any]
    check: str  # what the score must equal ("" for no check)


def _check(plan: Plan, task: str, adapter: Adapter | None, tokenize: str) -> str:
    """The score a measurement is checked against (see ``Adapter.check``): bleu_impl's
    reference path instead of sacrebleu when asked, or when sacrebleu does not import."""
    check = "" if task == "floor" else (adapter.check if adapter else "sacrebleu")
    reference = plan.check_against == "reference" or not sacrebleu_imports()
    if check == "sacrebleu" and reference and task != "sentence":
        check = f"reference-{tokenize}"
    return check


def sacrebleu_imports() -> bool:
    """Whether sacrebleu is installed here (the default score check)."""
    sacre = next(a for a in ADAPTERS if a.lib == "sacrebleu")
    return missing(sacre) is None


def plan_block(plan: Plan, size: int, refs: int) -> list[Job]:
    """The measurements of one (size, refs) block, its corpora written (once) to the cache."""
    jobs = []
    for task, chosen in _jobs(plan, size):
        adapter = chosen if isinstance(chosen, Adapter) else None
        lib = adapter.lib if adapter else str(chosen)
        tokenize = TOKENIZE_OF_TASK[task]
        spec: dict[str, Any] = {
            "task": task,
            "lib": lib,
            "corpus": corpus_dir(plan, size, refs, CORPUS_OF_TASK[task]),
            "refs": refs,
            "tokenize": tokenize,
            "reps": plan.big_reps if size >= plan.big else plan.reps,
            "warmup": 0 if size >= plan.big else plan.warmup,
            "tolerance": TOLERANCE,
            "clock": "wall" if lib in WALL_CLOCK else plan.clock,
        }
        row = Row(size, refs, task, lib, note=adapter.note if adapter else FILE_ROWS[lib])
        jobs.append(Job(row, adapter, spec, _check(plan, task, adapter, tokenize)))
    return jobs


def _skip_reason(job: Job, rows: list[Row]) -> str | None:
    """Why the job cannot run here: a module does not import, or it would not fit in memory."""
    row = job.row
    reason = missing(job.adapter) if job.adapter else None
    need = predicted_mb(rows, row.size, row.refs, row.task, row.lib)
    have = available_mb()
    if not reason and need and have and need > 0.8 * have:
        reason = (
            f"predicted peak RSS {need / 1024:.1f} GB (linear from the smaller "
            f"size) exceeds 80% of the {have / 1024:.1f} GB available"
        )
    return reason


def _not_run(plan: Plan, job: Job, rows: list[Row]) -> str | None:
    """Why a slow peer is not run at this size (its ``max_size``, or not in ``big_libs`` at
    ``big`` sizes), with its time estimated linearly from its largest measured size."""
    row, adapter = job.row, job.adapter
    limit = adapter.max_size if adapter else 0
    too_big = bool(limit) and row.size > limit
    if not too_big and not (row.size >= plan.big and row.lib not in plan.big_libs):
        return None
    known = [
        r
        for r in rows
        if (r.refs, r.task, r.lib) == (row.refs, row.task, row.lib)
        and r.size < row.size
        and r.median
    ]
    if not known:
        return f"not run at {row.size:,}: too slow (no smaller size measured to estimate from)"
    best = max(known, key=lambda r: r.size)
    estimate = (best.median or 0.0) * row.size / best.size
    return (
        f"not run at {row.size:,}: est. {estimate:.0f} s (linear from {best.median:.2f} s at "
        f"{best.size:,}; a lower bound when it grows faster than linearly)"
    )


def _record(job: Job, result: dict[str, Any], log: Callable[[str], None]) -> None:
    """Fill the job's row from the worker's result: times and memory, or why there are none."""
    row, check = job.row, job.check
    where = f"{row.size} x{row.refs} {row.task:8} {row.lib}"
    if "error" in result:
        row.skipped = result["error"]
        log(f"[fail] {where}: {row.skipped}")
        return
    if "mismatch" in result:
        row.check = f"differs from {check} by {result['mismatch']:.3g}"
        row.skipped = (
            f"score {row.check}: time withheld (one unchecked run took "
            f"{result['first_time']:.3f} s)"
        )
        log(f"[MISMATCH] {where}: {row.skipped}")
        return
    if check:
        row.check = f"= {check}"
    row.times = result["times"]
    row.cpu_path = result.get("cpu_path", [])
    row.note = "; ".join(x for x in (row.note, result.get("note")) if x)
    row.peak_mb = result["peak_kb"] / 1024
    row.extra_mb = (result["peak_kb"] - (result["baseline_kb"] or 0)) / 1024
    row.peak_exact = result["peak_exact"]
    log(
        f"[ok] {row.size} x{row.refs} {row.task:8} {row.lib:32} median {row.median:8.3f} s  "
        f"peak {row.peak_mb:7.1f} MB  {row.check}"
    )


def _sacrebleu_skipped(rows: list[Row], row: Row) -> bool:
    """Whether sacrebleu's row of ``row``'s block was not run (it would not fit in memory,
    or is not run at this size): its score cannot be the check then."""
    block = (row.size, row.refs, row.task, "sacrebleu")
    return row.task != "sentence" and any(
        (r.size, r.refs, r.task, r.lib) == block and r.skipped for r in rows
    )


def run_job(
    plan: Plan,
    job: Job,
    rows: list[Row],
    references: dict[tuple[str, str], Any],
    log: Callable[[str], None],
) -> None:
    """Run one job in a worker process, after its score check's reference is known.

    ``rows``: every row so far (for the memory guard); ``references``: the reference scores
    of this block, by (task, check), filled as they are computed.
    """
    row = job.row
    reason = _not_run(plan, job, rows) or _skip_reason(job, rows)
    python = ""
    if not reason and job.adapter and job.adapter.python:
        found, reason = own_python(plan.cache, job.adapter.python)
        python = found or ""
    if not reason and job.adapter and job.adapter.prepare is None:
        binary, reason = compile_floor(plan.cache)
        job.spec["binary"] = str(binary)
    if reason:
        row.skipped = reason
        log(f"[skip] {row.size} x{row.refs} {row.task:8} {row.lib}: {reason}")
        return
    if job.check == "sacrebleu" and _sacrebleu_skipped(rows, row):
        job.check = f"reference-{job.spec['tokenize']}"  # e.g. 1M x 4: sacrebleu needs ~29 GB
    if job.check and not (job.check == "sacrebleu" and row.lib == "sacrebleu"):
        job.spec["want"] = _reference_score(plan, job.spec, job.check, references)
        if job.spec["want"] is None:
            row.skipped = f"no {job.check} score to check against"
            return
    result = run_worker(job.spec, plan.timeout, python)
    _record(job, result, log)
    if row.lib == "sacrebleu" and not row.skipped:
        references[(row.task, "sacrebleu")] = result["score"]


def run_plan(
    plan: Plan, log: Callable[[str], None] = print, done: Callable[[list[Row]], None] | None = None
) -> list[Row]:
    """Measure everything in ``plan``; every reported time has passed its score check.

    ``done(rows)`` is called after each measurement, e.g. to save partial results.
    """
    rows: list[Row] = []
    for size in plan.sizes:
        for refs in plan.refs:
            references: dict[tuple[str, str], Any] = {}
            for job in plan_block(plan, size, refs):
                rows.append(job.row)
                run_job(plan, job, rows, references, log)
                if done is not None:
                    done(rows)
    return rows
