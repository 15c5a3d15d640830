"""Re-render a run log (from `run --output`) as a table, Markdown, JSON or JUnit XML.

Every report of a run is rendered from its one JSON Lines run log, so a CI job can run
once and publish several views of the same results.

examples:
  bleu-conformance run --impl nltk --impl sacrebleu --output run.jsonl
  bleu-conformance report run.jsonl                       # the summary table again
  bleu-conformance report run.jsonl --format markdown > conformance.md
  bleu-conformance report run.jsonl --format json --impl nltk
  bleu-conformance report run.jsonl --junit-xml junit.xml
"""

from __future__ import annotations

import argparse
import sys

from .. import reporters
from ..outputs import OutputError, check_distinct, check_writable
from ..results.log import RunLog, read_run_log
from .options import add_report_arguments, fail

EXIT_CODES = {
    0: "the run had nothing unexpected",
    1: "the run had a fail, error, fixed or changed result, or baseline movement",
    2: "an unreadable or malformed run log (named with the line and field), an --impl the "
    "log does not hold, a log without its end record (the run was interrupted: the report "
    "says INCOMPLETE and covers what it had), or a run with fixture problems",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="RUN.jsonl", help="a run log written by `run --output`")
    add_report_arguments(parser, reporters.FORMATS)
    parser.add_argument(
        "--impl",
        action="append",
        default=[],
        metavar="NAME",
        help="only these implementations (repeatable)",
    )


def _only(log: RunLog, names: list[str]) -> RunLog:
    """The log restricted to ``names`` (names or specs); ValueError for a name the log
    does not hold (a typo must not render an empty, green report)."""
    if not names:
        return log
    keep = set(names)
    known = {i.name for i in log.implementations} | {i.spec for i in log.implementations}
    known |= {r.implementation for r in log.results}
    missing = [n for n in names if n not in known]
    if missing:
        have = sorted(
            {i.name for i in log.implementations} | {r.implementation for r in log.results}
        )
        raise ValueError(f"--impl {missing[0]!r}: not in this log (it has: {', '.join(have)})")
    return RunLog(
        header=log.header,
        implementations=[i for i in log.implementations if i.name in keep or i.spec in keep],
        results=[r for r in log.results if r.implementation in keep],
        baseline=[m for m in log.baseline if m.get("implementation") in keep],
        end=log.end,
        problems=log.problems,
    )


def run(args: argparse.Namespace) -> int:
    try:
        if args.junit_xml:
            check_writable(args.junit_xml, "--junit-xml")
            check_distinct([(args.junit_xml, "--junit-xml")], [(args.log, "the log")])
        log = read_run_log(args.log)
    except (OutputError, ValueError) as exc:
        return fail("report", exc)
    except OSError as exc:  # the log cannot be read
        return fail("report", f"{args.log}: cannot read: {exc.strerror or exc}")
    try:
        chosen = _only(log, args.impl)
    except ValueError as exc:
        return fail("report", exc)
    try:
        status = reporters.emit(chosen, args.format, args.junit_xml)
    except OutputError as exc:
        return fail("report", exc)
    if not log.complete:
        print(
            f"bleu-conformance report: {args.log} has no end record: the run was interrupted",
            file=sys.stderr,
        )
    return status
