"""Benchmark bleu_impl against sacrebleu, NLTK and others: `python -m bench` of a checkout.

The benchmarks measure a source checkout and are not installed with the package (no
generic top-level `bench` package is installed). In a clone of the repository this
command runs `python -m bench ARGS` with the checkout on the module path; `python -m bench
--help` lists its options (sizes, references, libraries, where the report goes). From an
installed wheel it says where to get them.

examples:
  bleu-conformance bench --quick
  bleu-conformance bench --sizes 100k --refs 1 --libs bleu_impl,sacrebleu --no-write
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from .options import EXIT_USAGE, fail

EXIT_CODES = {
    0: "measured (a library whose score does not match is listed without a time)",
    2: "bad usage, or no checkout holding bench/ (e.g. an installed wheel)",
}

#: A checkout: the directory above the ``conformance`` package, holding ``bench/``.
CHECKOUT = Path(__file__).resolve().parents[2]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.usage = "bleu-conformance bench [-h] [ARGS of python -m bench ...]"
    parser.set_defaults(passthrough=True)  # every other argument goes to `python -m bench`


def run(args: argparse.Namespace) -> int:
    if not (CHECKOUT / "bench" / "__main__.py").is_file():
        return fail(
            "bench",
            "the benchmarks are not part of the installed package: they measure a source "
            "checkout. Clone the repository and run `python -m bench --quick` in it.",
            EXIT_USAGE,
        )
    path = os.pathsep.join(p for p in (str(CHECKOUT), os.environ.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "bench", *args.extra]
    return subprocess.run(command, env={**os.environ, "PYTHONPATH": path}, check=False).returncode
