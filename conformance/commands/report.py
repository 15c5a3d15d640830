"""Re-render any log (from run, compare, compare -r/-i or identify --output) in any format.

Every report is rendered from its command's JSON Lines log, so a CI job can run once and
publish several views of the same results, and an expensive corpus report is shown again
without running anything. Logs written by earlier releases (run and compare logs) are read
too.

examples:
  bleu-conformance run --impl nltk --impl bleu_impl --output run.jsonl
  bleu-conformance report run.jsonl                       # the summary table again
  bleu-conformance report run.jsonl --format markdown > conformance.md
  bleu-conformance report run.jsonl --format json --impl nltk
  bleu-conformance report run.jsonl --junit-xml junit.xml
  bleu-conformance compare -r ref.txt -i sys1.txt -i sys2.txt --output corpus.jsonl
  bleu-conformance report corpus.jsonl --format html --report corpus.html
  bleu-conformance compare --output cmp.jsonl
  bleu-conformance report cmp.jsonl -v --decimals 4       # every row, material at 4 decimals
"""

from __future__ import annotations

import argparse
import sys

from ..outputs import OutputError, check_distinct, check_writable
from ..reporters import FORMATS
from ..results.log import read_log
from .logged import emit
from .options import OneFile, add_report_arguments, fail

EXIT_CODES = {
    0: "the log records nothing unexpected",
    1: "findings: a run's fail, error, fixed or changed result or baseline movement; a corpus "
    "report in which no implementation scored any system",
    2: "an unreadable or malformed log (named with the line and field), an --impl the log "
    "does not hold, a log without its end record (the command was interrupted: the report "
    "says INCOMPLETE and covers what it had), or fixture problems",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a log written by a command's --output")
    add_report_arguments(parser, FORMATS)
    parser.add_argument(
        "--impl",
        action="append",
        default=[],
        metavar="NAME",
        help="only these implementations (repeatable; run and compare logs)",
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="table: every row (compare logs)"
    )
    parser.add_argument(
        "--decimals",
        type=int,
        choices=range(7),
        metavar="N",
        help="compare logs: material differences at N decimals of BLEU on 0-100 (default: "
        "as the log was written, 2 unless its command was given --decimals)",
    )
    parser.add_argument(
        "--report", metavar="FILE", action=OneFile, help="write the rendered report to FILE"
    )


def run(args: argparse.Namespace) -> int:
    try:
        outputs = [(args.junit_xml, "--junit-xml"), (args.report, "--report")]
        for path, what in outputs:
            if path:
                check_writable(path, what)
        check_distinct(outputs, [(args.log, "the log")])
        log = read_log(args.log)
        if args.junit_xml and log.command != "run":
            raise ValueError(f"--junit-xml: {args.log} is a {log.command} log, not a run's")
        status = emit(log.only(args.impl), args)
    except BrokenPipeError:  # the reader went away (`| head`): cli.main ends quietly
        raise
    except (OutputError, ValueError) as exc:
        return fail("report", exc)
    except OSError as exc:  # the log cannot be read
        return fail("report", f"{args.log}: cannot read: {exc.strerror or exc}")
    if not log.complete:
        print(
            f"bleu-conformance report: {args.log} has no end record: the command was interrupted",
            file=sys.stderr,
        )
    return status
