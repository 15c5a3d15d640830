"""Rows for ``identify``: the wall and CPU time of ``bleu-conformance identify --impl X``.

Each run is a fresh process (``python -m conformance.cli identify --impl X --format json``,
the default 60 generated corpora), so the time includes loading the fixture library and the
library itself, as a user waits for it. Target (issue 15): at most 10 s for nltk and
sacrebleu on the reference machine (2 cores).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from dataclasses import dataclass

__all__ = ["IDENTIFY_TARGET_S", "IdentifyRow", "identify_rows", "identify_table"]

IDENTIFY_TARGET_S = 10.0
IMPLEMENTATIONS = ("nltk", "sacrebleu")


@dataclass(frozen=True)
class IdentifyRow:
    impl: str
    wall_s: float
    cpu_s: float
    verdict: str

    @property
    def meets_target(self) -> bool:
        return self.wall_s <= IDENTIFY_TARGET_S


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def identify_rows(impls: tuple[str, ...] = IMPLEMENTATIONS) -> list[IdentifyRow]:
    """Time ``identify --impl X`` for each X (one run each, in a fresh process)."""
    rows = []
    for impl in impls:
        argv = [sys.executable, "-m", "conformance.cli", "identify", "--impl", impl]
        before, started = _children_cpu(), time.perf_counter()
        done = subprocess.run(
            [*argv, "--format", "json"], capture_output=True, text=True, check=False
        )
        wall, cpu = time.perf_counter() - started, _children_cpu() - before
        try:
            found = json.loads(done.stdout)
            best = found["candidates"][0]["label"] if found["candidates"] else "-"
            verdict = f"{found['verdict']}: {best}"
        except (ValueError, KeyError, IndexError):
            verdict = f"failed (exit {done.returncode}): {done.stderr.strip()[-120:]}"
        rows.append(IdentifyRow(impl, wall, cpu, verdict))
    return rows


def identify_table(rows: list[IdentifyRow]) -> str:
    """A Markdown table of the rows with the target."""
    lines = [
        f"| command | wall s | CPU s | target (<= {IDENTIFY_TARGET_S:g} s wall) | answer |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        met = "met" if row.meets_target else "NOT met"
        lines.append(
            f"| `identify --impl {row.impl}` | {row.wall_s:.1f} | {row.cpu_s:.1f} | {met} "
            f"| {row.verdict} |"
        )
    return "\n".join(lines)
