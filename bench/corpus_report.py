"""python -m bench.corpus_report: the corpus report's end-to-end time.

10 systems x 2,000 segments x 2 references (bench/mtsystems.py, German), every default
implementation (every bleu_impl profile and every importable live library; --profiles-only:
the profiles alone), 1,000 bootstrap resamples, the report rendered (table): wall time and
this process's CPU time (the live libraries' workers are other processes: --jobs N asks N
of them at a time, as ``compare --jobs``) and the load average before the run; beside it
sacrebleu's own ``--paired-bs`` on the same files (one process, its default 1,000
resamples, sacrebleu's implementation only). With --segments 100000 it also reports the
peak RSS (bounded memory). With --phases it runs the report a
second time through the engine and prints the CPU time of each phase (asking every
implementation, reproducing each by a bleu_impl setting, resampling, the knob paths and
segments, rendering). Prints a Markdown section for docs/corpus-report.md.
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
from pathlib import Path

from bleu_impl import PROFILES
from conformance.reporters.numbers import EMPTY

from .mtsystems import default_systems, generate, write


def _files(directory: Path, segments: int, systems: int) -> tuple[list[str], list[str]]:
    streams, outputs = generate("de", segments, default_systems(systems), refs=2, seed=1)
    paths = [str(p) for p in write(directory, "de", streams, outputs)]
    return paths[:2], paths[2:]


def _specs(profiles_only: bool) -> list[str]:
    from conformance.commands.compare_corpus import default_implementations

    return [f"bleu_impl:{p}" for p in PROFILES] if profiles_only else default_implementations()


def _ours(refs: list[str], systems: list[str], specs: list[str], jobs: int) -> tuple[float, float]:
    from conformance.cli import main

    argv = ["compare", "-q", "--jobs", str(jobs)] + [x for r in refs for x in ("-r", r)]
    argv += [x for s in systems for x in ("-i", s)]
    argv += [x for spec in specs for x in ("--impl", spec)]
    wall, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(argv) == 0
    return time.perf_counter() - wall, time.process_time() - cpu


def _phases(refs: list[str], systems: list[str], specs: list[str]) -> dict[str, float]:
    """CPU seconds per phase of one report (the engine's progress messages name them)."""
    from conformance.cases.implementations import load_registry
    from conformance.cases.usercorpus import load_corpus
    from conformance.engine import open_subjects
    from conformance.engine.corpus.analysis import CorpusOptions, corpus_report
    from conformance.reporters import render
    from conformance.results.records import End, Header
    from conformance.results.report import Report

    spent: dict[str, float] = {}
    current = ["reading files"]
    clock = [time.process_time()]

    def progress(message: str) -> None:
        now = time.process_time()
        spent[current[0]] = spent.get(current[0], 0.0) + now - clock[0]
        current[0], clock[0] = message.split(" with ")[0].split(" bleu_impl")[0], now

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
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return time.perf_counter() - wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.corpus_report", description=__doc__)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--no-sacrebleu", action="store_true")
    parser.add_argument("--phases", action="store_true", help="CPU seconds per phase too")
    parser.add_argument("--profiles-only", action="store_true", help="no live library")
    parser.add_argument("--jobs", type=int, default=2, help="live libraries asked at once (2)")
    args = parser.parse_args(argv)
    specs = _specs(args.profiles_only)
    with tempfile.TemporaryDirectory() as tmp:
        refs, systems = _files(Path(tmp), args.segments, args.systems)
        load = os.getloadavg()[0]
        wall, cpu = _ours(refs, systems, specs, args.jobs)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        live = len(specs) - len([s for s in specs if s.startswith("bleu_impl:")])
        rows = [
            f"| bleu-conformance compare ({len(specs)} implementations: {len(specs) - live} "
            f"profiles, {live} live libraries; --jobs {args.jobs}; load {load:.1f}) "
            f"| {wall:.1f} | {cpu:.1f} | {peak:.0f} |"
        ]
        if not args.no_sacrebleu:
            s_wall, s_cpu = _sacrebleu(refs, systems)
            rows.append(
                "| sacrebleu --paired-bs (sacrebleu's BLEU only) "
                f"| {s_wall:.1f} | {s_cpu:.1f} | {EMPTY} |"
            )
        phases = _phases(refs, systems, specs) if args.phases else {}
    print(f"{args.systems} systems x {args.segments:,} segments x 2 references, 1,000 resamples\n")
    print("| run | wall s | CPU s | peak RSS MB |\n|---|---:|---:|---:|")
    print("\n".join(rows))
    if phases:
        print("\n| phase (second run, through the engine) | CPU s |\n|---|---:|")
        print("\n".join(f"| {name} | {cpu:.1f} |" for name, cpu in phases.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
