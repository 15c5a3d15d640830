"""python -m bench.corpus_report: the corpus report's end-to-end time.

10 systems x 2,000 segments x 2 references (bench/mtsystems.py, German), every default
implementation (every bleu_impl profile and every importable live library; --profiles-only:
the profiles alone), 1,000 bootstrap resamples, the report rendered (table): wall time and
this process's CPU time (the live libraries' workers are other processes: --jobs N asks N
of them at a time, as ``compare --jobs``) and the load average before the run; beside it
sacrebleu's own ``--paired-bs`` on the same files (one process, its default 1,000
resamples, sacrebleu's implementation only). With --segments 100000 it also reports the
peak RSS (bounded memory). With --phases it runs the report a
second time through the engine, one implementation at a time, and prints the wall time of
each step (asking each implementation, reproducing each by a bleu_impl setting,
resampling, the knob paths and segments, rendering). Prints the Markdown section of
docs/benchmarks.md; --into docs/benchmarks.json saves it there and renders the doc again.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bleu_impl import PROFILES
from conformance.reporters import markdown as md
from conformance.reporters.numbers import EMPTY, fixed

from .mtsystems import default_systems, generate, write


def _files(directory: Path, segments: int, systems: int) -> tuple[list[str], list[str]]:
    streams, outputs = generate("de", segments, default_systems(systems), refs=2, seed=1)
    paths = [str(p) for p in write(directory, "de", streams, outputs)]
    return paths[:2], paths[2:]


def _specs(profiles_only: bool) -> list[str]:
    from conformance.commands.compare_corpus import default_implementations

    return [f"bleu_impl:{p}" for p in PROFILES] if profiles_only else default_implementations()


def _ours(
    refs: list[str], systems: list[str], specs: list[str], jobs: int
) -> tuple[float, float, float]:
    """Wall and CPU seconds of one report, and its child processes' CPU seconds."""
    from conformance.cli import main

    argv = ["compare", "-q", "--jobs", str(jobs)] + [x for r in refs for x in ("-r", r)]
    argv += [x for s in systems for x in ("-i", s)]
    argv += [x for spec in specs for x in ("--impl", spec)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(argv) == 0
    return time.perf_counter() - wall, time.process_time() - cpu, _children(before)


def _children(before: resource.struct_rusage) -> float:
    """CPU seconds of the child processes (the live libraries' workers) ended since."""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _phases(refs: list[str], systems: list[str], specs: list[str]) -> dict[str, float]:
    """Wall seconds of each step of one report, asked one implementation at a time (the
    engine's progress messages name the steps: ``scoring with X`` per implementation, its
    worker process's time included, then reproducing, resampling, decomposing)."""
    from conformance.cases.implementations import load_registry
    from conformance.cases.usercorpus import load_corpus
    from conformance.engine import open_subjects
    from conformance.engine.corpus.analysis import CorpusOptions, corpus_report
    from conformance.reporters import render
    from conformance.results.records import End, Header
    from conformance.results.report import Report

    spent: dict[str, float] = {}
    current = ["reading files and opening the implementations"]
    clock = [time.perf_counter()]

    def progress(message: str) -> None:
        now = time.perf_counter()
        spent[current[0]] = spent.get(current[0], 0.0) + now - clock[0]
        step = message if message.startswith("scoring with") else message.split(" ")[0]
        current[0], clock[0] = step, now

    corpus = load_corpus(refs, systems)
    subjects = open_subjects(specs, load_registry().keys)
    try:
        cells, summary = corpus_report(
            corpus, subjects, "bleu_impl:sacrebleu", CorpusOptions(knobs={}), progress
        )
        progress("rendering")
        infos = [s.info() for s in subjects]
        report = Report(Header("corpus"), infos, cells=cells, corpus=summary, end=End())
        render(report, "table")
        progress("end")
    finally:
        for subject in subjects:
            subject.adapter.close()
    return spent


def _sacrebleu(refs: list[str], systems: list[str]) -> tuple[float, float]:
    cmd = [sys.executable, "-m", "sacrebleu", *refs, "-i", *systems, "--paired-bs"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - wall, _children(before)


TARGET_S = 30.0


def section(measured: dict[str, Any]) -> list[str]:
    """Markdown lines of ``docs/benchmarks.md``'s corpus-report section (``measured``: what
    :func:`main` saved with ``--into``)."""
    met = "**met**" if measured["wall"] <= TARGET_S else "**not met**"
    lines = [
        "## Corpus report",
        "",
        f"`{measured['command']}` ({measured['started']}, load average {measured['load']:.1f} "
        f"before the run): {measured['title']}; every default implementation "
        f"({measured['implementations']}), `--jobs {measured['jobs']}`, 1,000 bootstrap "
        f"resamples, the report rendered. Target: {TARGET_S:g} s wall — {met} "
        f"({measured['wall']:.1f} s).",
        "",
        *md.table(HEAD, measured["rows"], "lrrrr").splitlines(),
    ]
    if measured["phases"]:
        steps = sorted(measured["phases"].items(), key=lambda kv: -kv[1])
        small = [v for _, v in steps if v < 0.05]
        steps = [(k, v) for k, v in steps if v >= 0.05]
        steps += [(f"{len(small)} other steps, each under 0.05 s", sum(small))] if small else []
        lines += [
            "",
            "Where the time goes (a second run, one implementation asked at a time; wall s):",
            "",
            *md.table(["step", "wall s"], [[k, fixed(v, 1)] for k, v in steps], "lr").splitlines(),
        ]
    return lines


HEAD = ["run", "wall s", "CPU s", "child processes' CPU s", "peak RSS MB"]


def into(path: Path, measured: dict[str, Any]) -> None:
    """Save ``measured`` into the bench results at ``path`` and render ``docs/benchmarks.md``
    beside them again."""
    from .results import save_into

    save_into(path, "corpus_report", measured)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.corpus_report", description=__doc__)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--no-sacrebleu", action="store_true")
    parser.add_argument("--phases", action="store_true", help="wall seconds per step too")
    parser.add_argument("--profiles-only", action="store_true", help="no live library")
    parser.add_argument("--jobs", type=int, default=2, help="live libraries asked at once (2)")
    from .results import add_into  # (results renders this module's section)

    add_into(parser)
    args = parser.parse_args(argv)
    specs = _specs(args.profiles_only)
    started = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with tempfile.TemporaryDirectory() as tmp:
        refs, systems = _files(Path(tmp), args.segments, args.systems)
        load = os.getloadavg()[0]
        wall, cpu, workers = _ours(refs, systems, specs, args.jobs)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        live = len(specs) - len([s for s in specs if s.startswith("bleu_impl:")])
        rows = [["bleu-conformance compare", fixed(wall, 1), fixed(cpu, 1), fixed(workers, 1)]]
        rows[0].append(fixed(peak, 0))
        if not args.no_sacrebleu:
            s_wall, s_cpu = _sacrebleu(refs, systems)
            row = ["sacrebleu --paired-bs (its BLEU only)", fixed(s_wall, 1), EMPTY]
            rows.append([*row, fixed(s_cpu, 1), EMPTY])
        phases = _phases(refs, systems, specs) if args.phases else {}
    measured = {
        "command": "python -m bench.corpus_report " + " ".join(argv or sys.argv[1:]),
        "started": started,
        "load": load,
        "title": f"{args.systems} systems x {args.segments:,} segments x 2 references",
        "implementations": f"{len(specs)}: {len(specs) - live} profiles, {live} live libraries",
        "jobs": args.jobs,
        "wall": wall,
        "rows": rows,
        "phases": phases,
    }
    print("\n".join(section(measured)))
    if args.into:
        into(args.into, measured)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
