"""The C floor (``bench/floor.c``): compiled with gcc by the bench, run on the corpus files.

The program reads the files into memory, then times (``CLOCK_MONOTONIC`` and the process's
CPU time) tokenizing, interning and clipped counting, and prints the corpus statistics; the
score is computed from them here (outside the clock) so the usual score check applies.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
from pathlib import Path
from typing import Any

__all__ = ["C_FLOOR", "compile_floor", "measure_floor"]

#: The library label of the C floor's rows.
C_FLOOR = "C floor (bench/floor.c)"
SOURCE = Path(__file__).with_name("floor.c")


def compile_floor(cache: Path) -> tuple[Path | None, str]:
    """``gcc -O2`` of floor.c into ``cache`` (once per source change): the binary, or None and
    why not."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None, "not run: no gcc on PATH"
    binary = cache / f"floor-{SOURCE.stat().st_mtime_ns}"
    if binary.exists():
        return binary, ""
    cache.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [gcc, "-O2", "-o", str(binary), str(SOURCE)], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        return None, f"not run: gcc failed: {proc.stderr.strip()[-300:]}"
    return binary, ""


def measure_floor(spec: dict[str, Any]) -> dict[str, Any]:
    """The worker's result for the C floor: times, score (sacrebleu profile) and peak RSS."""
    from bleu_impl import BleuStats, get_profile, score_stats

    args = [spec["binary"], spec["corpus"], str(spec["refs"]), spec["tokenize"]]
    args += [str(spec["warmup"]), str(spec["reps"])]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout.split("\n")
    column = 2 if spec.get("clock") == "cpu" else 1
    times = [float(line.split()[column]) for line in out if line.startswith("time ")]
    numbers = [int(x) for x in next(x for x in out if x.startswith("stats ")).split()[1:]]
    stats = BleuStats(tuple(numbers[2:6]), tuple(numbers[6:10]), numbers[0], numbers[1])
    config = get_profile("sacrebleu").resolve({"tokenize": spec["tokenize"]})
    score = score_stats(stats, profile="sacrebleu", config=config).score
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result = {"times": times, "score": score, "peak_kb": peak, "baseline_kb": 0}
    return {**result, "peak_exact": True, "stats": numbers}
