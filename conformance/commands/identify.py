"""Identify an unknown BLEU implementation: which profile and options it implements.

Runs the implementation on the bundled fixtures and on generated corpora designed to
separate the semantics, ranks every bleu_impl profile by the share of its answers each
reproduces, searches the options of the best profiles' tools (and, when no tool's setting
fits, every knob of the generic profile: "generic profile + knobs"), then asks generated
corpora on which the leading candidates differ until the evidence separates them.

Verdict: "matches" when every answer is reproduced; "is closest to" at or above the
threshold (default 95% of the answers); below it "no profile matches", with the nearest
candidates and the inputs that separate them. Candidates the evidence cannot tell apart
are reported as a tie. Errors (crashes, timeouts, garbage) are never evidence; a function
taking **config may ignore the knobs, so only cases that set no knob are used for it.

examples:
  bleu-conformance identify --impl nltk
  bleu-conformance identify --impl sacrebleu --generate 100
  bleu-conformance identify --impl mypkg.metrics:bleu -k paper --generate 200
  bleu-conformance identify --impl mypkg.metrics:bleu --threshold 0.99 --format json
"""

from __future__ import annotations

import argparse
import json

from tabulate import tabulate

from ..cases import generate_cases
from ..engine import identify, open_subjects
from ..engine.identify.identification import MATCH_THRESHOLD, Candidate, Identification
from ..protocol import AdapterError
from .options import (
    IMPL_HELP,
    ProgressBar,
    add_quiet_argument,
    add_selection_arguments,
    fail,
    generated_count,
    load_selected,
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
        type=generated_count,
        default=60,
        metavar="N",
        help="generated separating corpora to add (default 60)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of --generate (default 0)")
    parser.add_argument(
        "--top", type=positive_int, default=8, metavar="N", help="candidates to show (default 8)"
    )
    parser.add_argument(
        "--threshold",
        type=float,
        default=MATCH_THRESHOLD,
        metavar="SHARE",
        help="below this share of reproduced answers: 'no profile matches' "
        f"(default {MATCH_THRESHOLD})",
    )
    parser.add_argument(
        "--format", choices=("table", "json"), default="table", help="output (default: table)"
    )
    add_quiet_argument(parser)


def run(args: argparse.Namespace) -> int:
    if not 0.0 < args.threshold <= 1.0:
        return fail("identify", f"--threshold {args.threshold}: expected a share in (0, 1]")
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
            found = identify(subject, cases, threshold=args.threshold, seed=args.seed)
    finally:
        subject.adapter.close()
    if args.format == "json":
        print(json.dumps(_as_json(found, args.top), indent=2))
    else:
        _print_table(found, args.top)
    return 0


def _as_json(found: Identification, top: int) -> dict[str, object]:
    return {
        "implementation": found.implementation,
        "version": found.version,
        "answered": found.answered,
        "skipped": found.skipped,
        "errored": found.errored,
        "failed": found.failed,
        "separating": found.separating,
        "knob_free_only": found.knob_free_only,
        "verdict": found.verdict,
        "threshold": found.threshold,
        "candidates": [_candidate(c) for c in found.candidates[:top]],
        "ties": [_candidate(c) for c in found.ties],
        "evidence": found.evidence,
    }


def _candidate(c: Candidate) -> dict[str, object]:
    return {
        "label": c.label,
        "profile": c.profile,
        "overrides": dict(c.overrides),
        "generic": c.generic,
        "based_on": c.based_on,
        "changes": dict(c.changes),
        "scale": c.scale,
        "agreed": c.agreed,
        "compared": c.compared,
        "share": c.share,
    }


def _print_table(found: Identification, top: int) -> None:
    used = "fixture cases that set no knob" if found.knob_free_only else "fixture cases"
    print(
        f"{found.implementation} {found.version}: {found.answered} answers on {used} and "
        f"generated corpora ({found.separating} asked to separate the leaders; "
        f"{found.skipped} skipped, {found.errored} errored, {found.failed} failed without a "
        "known kind: none of these is evidence)\n"
    )
    shown = found.candidates[:top]
    print(
        tabulate(
            [
                [c.label, c.scale, f"{c.agreed}/{c.compared}", f"{100 * c.share:.1f}%"]
                for c in shown
            ],
            headers=["candidate", "scale", "reproduced", "agreement"],
            maxcolwidths=[70, None, None, None],
        )
    )
    print()
    print(_verdict(found))
    if found.evidence:
        title = (
            "inputs that separate the nearest candidates"
            if found.verdict == "no-match"
            else ("evidence (inputs that separate the leading candidates)")
        )
        print(f"\n{title}:")
        print(tabulate(found.evidence, headers="keys", maxcolwidths=24))


def _verdict(found: Identification) -> str:
    name = found.implementation
    if not found.candidates:
        return (
            f"no profile matches: {name} gave no score on any case "
            "(failures and errors are not evidence)."
        )
    best = found.candidates[0]
    share = f"{100 * best.share:.1f}% of {best.compared} answers"
    tie = ""
    if found.ties:
        tie = "\ntied (no input tried separates them): " + "; ".join(
            c.label for c in [best, *found.ties]
        )
    generic = " (a setting no tool has)" if best.generic else ""
    if found.verdict == "match":
        return f"{name} matches {best.label}{generic} ({share}).{tie}"
    if found.verdict == "closest":
        missed = best.compared - best.agreed
        return (
            f"{name} is closest to {best.label}{generic} ({share}; {missed} answers differ, "
            f"shown below).{tie}"
        )
    nearest = ", ".join(f"{c.label} ({100 * c.share:.1f}%)" for c in found.candidates[:3])
    return (
        f"no profile matches {name}: the best candidate reproduces {share}, below the "
        f"threshold {100 * found.threshold:.0f}%. Nearest: {nearest}."
    )
