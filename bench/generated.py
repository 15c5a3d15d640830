"""Generated comparisons: ``bleu-conformance compare --generate N`` as a user runs it.

Each run is the real command in a fresh process (``python -m conformance.cli compare ...
--format json --output LOG``); its CPU time (user + system, of the process and its worker
processes) and wall time are measured, and the compare log is read back for what was
found: pairs, differences, shrunk disagreements, shrinking budgets spent, and a digest of
the pair records (a run with ``--jobs 2`` must give the same records as the same run with
one job); the records themselves are not kept (megabytes per run).
"""

from __future__ import annotations

import hashlib
import json
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.reporters import markdown as md
from conformance.reporters.numbers import EMPTY, fixed

__all__ = ["RUNS", "CompareRun", "Measured", "measure", "section", "tally"]


@dataclass(frozen=True)
class CompareRun:
    """One command line and its CPU-time target (seconds; None: no target)."""

    label: str
    args: tuple[str, ...]
    target: float | None = None
    same_as: str = ""  # the label of a run whose pair records this one must equal


RUNS: tuple[CompareRun, ...] = (
    CompareRun("generate 200", ("--generate", "200", "--seed", "7"), 30.0),
    CompareRun(
        "generate 200, 2 jobs",
        ("--generate", "200", "--seed", "7", "--jobs", "2"),
        30.0,
        same_as="generate 200",
    ),
    CompareRun("generate 1000", ("--generate", "1000", "--seed", "7"), 120.0),
    CompareRun(
        "constant-score callable, generate 2",
        ("--impl", "bench.impls:constant", "--impl", "bleu_impl", "--generate", "2"),
    ),
    CompareRun(
        "ignite-like callable, generate 200",
        (
            "--impl",
            "bench.impls:ignite_like",
            "--impl",
            "bleu_impl:papineni2002",
            "--generate",
            "200",
            "--seed",
            "1",
        ),
    ),
)


@dataclass
class Measured:
    """What one run cost and found (:func:`tally` of its pair records)."""

    run: CompareRun
    cpu: float = 0.0
    wall: float = 0.0
    error: str = ""
    found: dict[str, Any] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        f = self.found
        return (
            f"{f['pairs']} pairs, {f['differing']} differing, {f['shrunk']} shrunk "
            f"({f['steps']} candidate inputs; budget {f['budget']} each, spent on {f['spent']})"
        )


def tally(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """The counts the report shows of compare's pair records, and their SHA-256."""
    shrunk = [p["shrink"] for p in pairs if p.get("shrink")]  # null: not shrunk
    records = json.dumps(pairs, sort_keys=True).encode("utf-8")
    return {
        "pairs": len(pairs),
        "differing": sum(p.get("verdict") == "differing" for p in pairs),
        "shrunk": len(shrunk),
        "steps": sum(s["steps"] for s in shrunk),
        "spent": sum(1 for s in shrunk if s.get("exhausted")),
        "budget": max((s["budget"] for s in shrunk), default=0),
        "sha256": hashlib.sha256(records).hexdigest(),
    }


def measure(run: CompareRun, cwd: Path) -> Measured:
    """Run ``compare`` as a user would and measure it."""
    result = Measured(run)
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        log = Path(tmp) / "compare.jsonl"
        command = [sys.executable, "-m", "conformance.cli", "compare", *run.args]
        command += ["--format", "json", "--output", str(log)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
        result.wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        result.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if proc.returncode != 0:
            result.error = (proc.stderr.strip().splitlines() or ["no output"])[-1][:300]
            return result
        try:
            result.found = tally(json.loads(proc.stdout)["pairs"])
        except (ValueError, KeyError) as exc:  # stdout must be the report alone
            result.error = f"stdout is not the JSON report: {exc}"
    return result


def _verdict(measured: Measured, by_label: dict[str, Measured]) -> str:
    if measured.error:
        return "failed"
    if measured.run.same_as:
        other = by_label.get(measured.run.same_as)
        if other is None or other.error:
            return "not compared"
        if other.found.get("sha256") != measured.found.get("sha256"):
            return "**results differ**"
    target = measured.run.target
    if target is None:
        return EMPTY
    return "**met**" if measured.cpu <= target else "**not met**"


def section(results: list[Measured]) -> list[str]:
    """Markdown lines: one row per run, with its target and whether it is met."""
    by_label = {m.run.label: m for m in results}
    rows = []
    for m in results:
        target = EMPTY if m.run.target is None else f"<= {m.run.target:g} s"
        same = f"; pair records = {m.run.same_as}'s" if m.run.same_as else ""
        command = md.code(f"compare {' '.join(m.run.args)}")
        found = m.error or (m.summary + same)
        times = [fixed(m.cpu, 1), fixed(m.wall, 1)]
        rows.append([m.run.label, command, *times, target, _verdict(m, by_label), found])
    headers = ["run", "command", "CPU s", "wall s", "target (CPU)", "met", "found"]
    return md.table(headers, rows, "llrrrll").splitlines()
