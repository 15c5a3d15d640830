"""python -m bench.startup: start-up of every command against sacrebleu's, on this machine.

Each row times ``bleu-conformance ARGS`` and the sacrebleu command it is held to (``--version``
against ``sacrebleu --version``, every ``--help`` against ``sacrebleu -h``, a real ``score`` of
two lines against ``sacrebleu REF -i HYP``), each a fresh process, the two alternated round by
round so that the load of a shared machine falls on both; median wall time of ``--reps`` rounds.
The target: every ratio at most 2.

examples:
  python -m bench.startup                 # the markdown section on standard output
  python -m bench.startup --reps 5 --output /tmp/startup.md
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conformance.cli import SUBCOMMANDS
from conformance.commands.options import positive_int
from conformance.reporters import markdown as md

__all__ = ["measure", "rows", "section"]

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


def section(reps: int) -> str:
    """The markdown section: one row per command, with the ratio to sacrebleu's."""
    ours, theirs = shutil.which("bleu-conformance"), shutil.which("sacrebleu")
    if ours is None or theirs is None:
        return "Start-up not measured: bleu-conformance or sacrebleu is not on PATH.\n"
    table = []
    with tempfile.TemporaryDirectory() as folder:
        for label, args, peer in rows(Path(folder)):
            mine, peers = measure([ours, *args], [theirs, *peer], reps)
            sacre = " ".join(["sacrebleu", *peer]).replace(folder, "…")
            table.append([label, f"{mine:.3f}", sacre, f"{peers:.3f}", f"{mine / peers:.2f}"])
    headers = [
        "bleu-conformance",
        "median s",
        "sacrebleu",
        "median s",
        "x sacrebleu (target: 2 at most)",
    ]
    title = f"## Start-up (wall time, median of {reps} alternated runs; `python -m bench.startup`)"
    return f"{title}\n\n{md.table(headers, table, align='lrlrr')}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.startup",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--reps", type=positive_int, default=11, help="rounds per row")
    parser.add_argument("--output", type=Path, help="write the section here (default: stdout)")
    args = parser.parse_args(argv)
    text = section(args.reps)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
