"""Rebuild (or check) docs/disagreements.md: conformance matrix and explained disagreements.

Runs every bleu_impl profile and every installed live library (nltk, sacrebleu,
torchmetrics) on the bundled fixtures, compares the libraries pairwise, attributes every
difference to knob changes, and writes the Markdown report. --check regenerates it in
memory and exits 1 when the committed file differs (CI uses this).

examples:
  bleu-conformance disagreements                       # rewrite docs/disagreements.md
  bleu-conformance disagreements --check               # exit 1 when it is stale
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from ..compare.publish import build

DEFAULT = Path(__file__).resolve().parents[2] / "docs" / "disagreements.md"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--output", type=Path, default=DEFAULT, help=f"default: {DEFAULT}")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")


def run(args: argparse.Namespace) -> int:
    text = build() + "\n"
    if not args.check:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
        return 0
    current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
    if current == text:
        print(f"{args.output} is up to date")
        return 0
    diff = difflib.unified_diff(
        current.splitlines(), text.splitlines(), str(args.output), "regenerated", lineterm=""
    )
    print("\n".join(list(diff)[:60]))
    print(f"\n{args.output} is stale: run `bleu-conformance disagreements`", file=sys.stderr)
    return 1
