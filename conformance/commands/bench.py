"""Benchmark bleu_impl against sacrebleu, NLTK and others (same as ``python -m bench``).

Generates seeded synthetic MT-like corpora, measures corpus BLEU (pre-tokenized and 13a),
sentence BLEU and the str.split floor in one fresh process per measurement, checks every
score against sacrebleu's to 1e-12 before reporting a time, and writes docs/benchmarks.md.

examples:
  bleu-conformance bench --quick
  bleu-conformance bench --sizes 100k --refs 1 --libs bleu_impl,sacrebleu --no-write
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from bench.__main__ import add_arguments as bench_arguments

    bench_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from bench.__main__ import run as bench_run

    return bench_run(args, "bleu-conformance bench")
