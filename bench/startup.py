"""python -m bench.startup: start-up of every command against sacrebleu's, on this machine.

Each row times ``bleu-conformance ARGS`` and the sacrebleu command it is held to (``--version``
against ``sacrebleu --version``, every ``--help`` against ``sacrebleu -h``, a real ``score`` of
two lines against ``sacrebleu REF -i HYP``), each a fresh process, the two alternated round by
round so that the load of a shared machine falls on both; median wall time of ``--reps`` rounds.
The target: every ratio at most 2.

examples:
  python -m bench.startup                 # the markdown section on standard output
  python -m bench.startup --into docs/benchmarks.json   # saved there, docs/benchmarks.md again
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from conformance.cli import SUBCOMMANDS
from conformance.commands.options import positive_int
from conformance.reporters import markdown as md

from .results import add_into, save_into

__all__ = ["measure", "measured", "rows", "section"]

HYP, REF = "the cat sat on the mat\na dog\n", "the cat sat on a mat\nthe dog\n"


def rows(folder: Path) -> list[tuple[str, list[str], list[str]]]:
    """(label, our arguments, sacrebleu's arguments) of every row; the score inputs in
    ``folder``."""
    hyp, ref = folder / "hyp.txt", folder / "ref.txt"
    hyp.write_text(HYP, encoding="utf-8")
    ref.write_text(REF, encoding="utf-8")
    found = [("--version", ["--version"], ["--version"]), ("--help", ["--help"], ["-h"])]
    found += [(f"{name} --help", [name, "--help"], ["-h"]) for name in SUBCOMMANDS]
    score = ["score", "-i", str(hyp), "-r", str(ref)]
    return [*found, ("score (2 lines)", score, [str(ref), "-i", str(hyp)])]


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def measure(ours: list[str], theirs: list[str], reps: int) -> tuple[float, float]:
    """Median wall seconds of ``ours`` and ``theirs``, alternated ``reps`` times."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(reps):
        times[0].append(_wall(ours))
        times[1].append(_wall(theirs))
    return statistics.median(times[0]), statistics.median(times[1])


def measured(reps: int) -> dict[str, Any]:
    """Every row's median seconds, ours and sacrebleu's (empty rows: a command is not on
    PATH), with when, the load average before, and ``reps``."""
    found: dict[str, Any] = {
        "started": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "load": round(os.getloadavg()[0], 1),
        "reps": reps,
        "rows": [],
    }
    ours, theirs = shutil.which("bleu-conformance"), shutil.which("sacrebleu")
    if ours is None or theirs is None:
        return found
    with tempfile.TemporaryDirectory() as folder:
        for label, args, peer in rows(Path(folder)):
            mine, peers = measure([ours, *args], [theirs, *peer], reps)
            sacre = " ".join(["sacrebleu", *peer]).replace(folder, "…")
            found["rows"].append([label, mine, sacre, peers])
    return found


TARGET = 2.0


def section(measured: dict[str, Any]) -> list[str]:
    """Markdown lines of ``docs/benchmarks.md``'s start-up section, one row per command with
    its ratio to sacrebleu's (``measured``: what :func:`measured` returned)."""
    title = "## Start-up"
    if not measured["rows"]:
        return [title, "", "Not measured: bleu-conformance or sacrebleu is not on PATH.", ""]
    ratios = [mine / peers for _, mine, _, peers in measured["rows"]]
    met = "**met**" if max(ratios) <= TARGET else "**not met**"
    table = [
        [label, f"{mine:.3f}", sacre, f"{peers:.3f}", f"{ratio:.2f}"]
        for (label, mine, sacre, peers), ratio in zip(measured["rows"], ratios)
    ]
    headers = ["bleu-conformance", "median s", "sacrebleu", "median s", "x sacrebleu"]
    return [
        title,
        "",
        f"`python -m bench.startup` ({measured['started']}, load average "
        f"{measured['load']:.1f} before the run): wall time of a fresh process, median of "
        f"{measured['reps']} runs alternated with sacrebleu's. Target: every command within "
        f"{TARGET:g}x sacrebleu's — {met} (at most {max(ratios):.2f}x).",
        "",
        *md.table(headers, table, align="lrlrr").splitlines(),
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.startup",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--reps", type=positive_int, default=11, help="rounds per row")
    add_into(parser)
    args = parser.parse_args(argv)
    found = measured(args.reps)
    sys.stdout.write("\n".join(section(found)))
    if args.into:
        save_into(args.into, "startup", found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
