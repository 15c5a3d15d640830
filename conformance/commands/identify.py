"""Identify an unknown BLEU implementation: which profile and knob settings it matches.

Runs the implementation on the bundled fixtures and on generated corpora designed to
separate the semantics, ranks every bleu_impl profile (and single-knob refinements of the
best ones) by the share of its answers they reproduce, and shows the evidence: the inputs
on which the leading candidates disagree, with what the implementation answered.

examples:
  bleu-conformance identify --impl nltk
  bleu-conformance identify --impl sacrebleu --generate 100
  bleu-conformance identify --impl mypkg.metrics:bleu -k paper --generate 200
"""

from __future__ import annotations

import argparse
import json

from tabulate import tabulate

from ..cases import generate_cases
from ..engine import identify, open_subjects
from ..protocol import AdapterError
from .options import (
    IMPL_HELP,
    ProgressBar,
    add_quiet_argument,
    add_selection_arguments,
    fail,
    load_selected,
    non_negative_int,
    positive_int,
)

EXIT_CODES = {
    0: "identification ran (the ranking is its answer)",
    2: "bad input: unknown implementation, no case selected",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--impl", required=True, metavar="SPEC", help=f"the implementation. {IMPL_HELP}"
    )
    add_selection_arguments(parser)
    parser.add_argument(
        "--generate",
        type=non_negative_int,
        default=60,
        metavar="N",
        help="generated separating corpora to add (default 60)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of --generate (default 0)")
    parser.add_argument(
        "--top", type=positive_int, default=8, metavar="N", help="candidates to show (default 8)"
    )
    parser.add_argument(
        "--format", choices=("table", "json"), default="table", help="output (default: table)"
    )
    add_quiet_argument(parser)


def run(args: argparse.Namespace) -> int:
    loaded, cases = load_selected(args, "identify")
    cases += generate_cases(args.generate, args.seed)
    if not cases:
        return fail("identify", "no case selected (check -k, --tag, --fixtures, --generate)")
    try:
        (subject,) = open_subjects([args.impl], loaded.keys)
    except AdapterError as exc:
        return fail("identify", exc)
    try:
        with ProgressBar(None, "identify", enabled=not args.quiet) as bar:
            bar.describe(f"{len(cases)} cases on {args.impl}")
            found = identify(subject, cases)
    finally:
        subject.adapter.close()
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
                    "failed": found.failed,
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
        f"{found.implementation} {found.version}: {found.answered} usable answers "
        f"({found.skipped} skipped, {found.errored} errored, {found.failed} failed without "
        "a known kind: not evidence)\n"
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
    else:
        print(
            f"\nno profile matches: {found.implementation} gave no score on any case "
            "(failures and errors are not evidence)."
        )
    if found.evidence:
        print("\nevidence (inputs that separate the leading candidates):")
        print(tabulate(found.evidence, headers="keys", maxcolwidths=30))
    return 0
