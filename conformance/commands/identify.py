"""Identify an unknown BLEU implementation: which profile and options it implements.

Runs the implementation on the bundled fixtures and on generated corpora designed to
separate the semantics, ranks every bleu_impl profile by the share of its answers each
reproduces, searches the options of the best profiles' tools (and, when no tool's setting
fits, every knob of the generic profile: "generic profile + knobs"), then asks generated
corpora on which the leading candidates differ until the evidence separates them.

Verdict: "matches P (+ knobs)" only when `run --as P --knob ...` passes every fixture case
with that setting (the same check decides both); otherwise "no profile matches", with the
nearest setting, the answers it reproduces and its smallest failing cases. The answers'
precision (float32, float64, printed decimals) and a constant factor off the declared scale
are reported as findings. Candidates the evidence cannot tell apart are reported as a tie.
Errors (crashes, timeouts, garbage) are never evidence; a function taking **config may
ignore the knobs, so only cases that set no knob are used to search for it.

examples:
  bleu-conformance identify --impl nltk
  bleu-conformance identify --impl sacrebleu --generate 100
  bleu-conformance identify --impl mypkg.metrics:bleu -k paper --generate 200
  bleu-conformance identify --impl mypkg.metrics:bleu --format json
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..outputs import check_distinct, check_writable
from ..reporters import FORMATS
from .options import (
    IMPL_HELP,
    OneFile,
    ProgressBar,
    add_generate_arguments,
    add_quiet_argument,
    add_selection_arguments,
    fail,
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
    add_generate_arguments(parser, 60, "generated separating corpora to add (default 60)")
    parser.add_argument(
        "--top", type=positive_int, default=8, metavar="N", help="candidates to show (default 8)"
    )
    parser.add_argument(
        "--format", choices=FORMATS, default="table", help="output (default: table)"
    )
    parser.add_argument(
        "--output",
        metavar="LOG",
        action=OneFile,
        help="also write the log (JSON Lines) that `report LOG` re-renders in any format",
    )
    add_quiet_argument(parser)


if TYPE_CHECKING:
    from ..results.log import LogWriter


def run(args: argparse.Namespace) -> int:
    # the engine, adapters and log: for a run, not for --help
    from ..cases import generate_cases
    from ..engine import open_subjects
    from ..engine.identify.identification import identify
    from ..protocol import AdapterError
    from ..results.log import read_log
    from ..results.records import End
    from .logged import emit, header, log_name, log_path, write_log

    try:
        if args.output:
            check_writable(args.output, "--output")
            check_distinct([(args.output, "--output")], [(f, "the fixture") for f in args.fixtures])
    except ValueError as exc:
        return fail("identify", exc)
    loaded, checked = load_selected(args, "identify")
    cases = [*checked, *generate_cases(args.generate, args.seed)]
    if not cases:
        return fail("identify", "no case selected (check -k, --tag, --fixtures, --generate)")
    try:
        (subject,) = open_subjects([args.impl], loaded.keys)
    except AdapterError as exc:
        return fail("identify", exc)
    head = header("identify", args, impl=args.impl, cases=len(cases), seed=args.seed, top=args.top)

    def work(log: LogWriter) -> None:
        log.write(subject.info())
        with ProgressBar(None, "identify", enabled=not args.quiet) as bar:
            bar.describe(f"{len(cases)} cases on {args.impl}")
            found = identify(subject, cases, keys=loaded.keys, checked=checked, seed=args.seed)
            log.write(found)
        log.write(End())

    try:
        with log_path(args.output) as path:
            try:
                write_log(path, head, work, log_name(args.output))
            finally:
                subject.adapter.close()
            return emit(read_log(path), args)
    except ValueError as exc:
        return fail("identify", exc)
