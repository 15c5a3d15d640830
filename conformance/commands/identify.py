"""Identify an unknown BLEU implementation: which profile and knob settings it matches.

Runs the implementation on the bundled fixtures and on generated corpora designed to
separate the semantics, ranks every bleu_impl profile (and single-knob refinements of the
best ones) by the share of its answers they reproduce, and shows the evidence: the inputs
on which the leading candidates disagree, with what the implementation answered.

examples:
  bleu-conformance identify --impl nltk
  bleu-conformance identify --impl sacrebleu --generate 100
  bleu-conformance identify --impl mypkg.metrics:bleu --scale 100
"""

from __future__ import annotations

import argparse
import json
import sys

from tabulate import tabulate

from ..adapters.registry import make_adapter
from ..compare.differ import Implementation, Item
from ..compare.generate import generate_items
from ..compare.identify import identify
from ..fixtures.loader import load_cases
from ..results import AdapterError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--impl", required=True, metavar="SPEC", help="the implementation")
    parser.add_argument("--fixtures", action="append", default=[], metavar="PATH")
    parser.add_argument(
        "--generate",
        type=int,
        default=60,
        metavar="N",
        help="generated separating corpora to add (default 60)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=8, help="candidates to show")
    parser.add_argument("--format", choices=("table", "json"), default="table")


def _fixture_items(paths: list[str]) -> list[Item]:
    return [Item.from_case(case) for case in load_cases(paths or None).cases]


def run(args: argparse.Namespace) -> int:
    try:
        impl = Implementation(args.impl, make_adapter(args.impl))
    except AdapterError as exc:
        print(f"bleu-conformance identify: error: {exc}", file=sys.stderr)
        return 2
    try:
        items = _fixture_items(args.fixtures) + generate_items(args.generate, args.seed)
        found = identify(impl, items)
    finally:
        impl.adapter.close()
    top = found.candidates[: args.top]
    if args.format == "json":
        print(
            json.dumps(
                {
                    "implementation": found.implementation,
                    "version": found.version,
                    "answered": found.answered,
                    "skipped": found.skipped,
                    "errored": found.errored,
                    "candidates": [
                        {
                            "profile": c.profile,
                            "overrides": dict(c.overrides),
                            "scale": c.scale,
                            "agreed": c.agreed,
                            "compared": c.compared,
                            "share": c.share,
                        }
                        for c in top
                    ],
                    "evidence": found.evidence,
                },
                indent=2,
            )
        )
        return 0
    print(
        f"{found.implementation} {found.version}: {found.answered} answers "
        f"({found.skipped} skipped, {found.errored} errored)\n"
    )
    print(
        tabulate(
            [[c.label, c.scale, f"{c.agreed}/{c.compared}", f"{100 * c.share:.1f}%"] for c in top],
            headers=["candidate", "scale", "reproduced", "agreement"],
        )
    )
    if top:
        best = top[0]
        verdict = "matches" if best.share == 1.0 else "is closest to"
        print(f"\n{found.implementation} {verdict} {best.label} ({100 * best.share:.1f}%).")
    if found.evidence:
        print("\nevidence (inputs that separate the leading candidates):")
        print(tabulate(found.evidence, headers="keys", maxcolwidths=30))
    return 0
