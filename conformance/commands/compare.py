"""Compare BLEU implementations case by case and explain every discrepancy.

With no options, compares our exact implementation (bleu_impl, the paper's definition) with
NLTK's scorer on every bundled fixture. Each implementation answers the same inputs through
its adapter; each pair of implementations is then classified per case as identical, within
tolerance (1e-9 relative, or half a printed digit), both failed, differing, errored or
skipped. For every difference the cause is searched in bleu_impl's knob space: the smallest
set of knob changes that turns one side's reproduction into the other's (e.g. "smoothing:
none vs nltk-method0"). Nothing found is reported as "unexplained".

examples:
  bleu-conformance compare                                  # bleu_impl vs nltk, all fixtures
  bleu-conformance compare --impl bleu_impl:sacrebleu --impl sacrebleu --impl nltk
  bleu-conformance compare --impl bleu_impl:mteval-v13a-c --impl bleu_impl:mteval-v13a
  bleu-conformance compare -k ship --format markdown
  bleu-conformance compare --generate 200 --seed 1          # also random separating corpora
  bleu-conformance compare --output cmp.jsonl && bleu-conformance compare --replay cmp.jsonl
  bleu-conformance compare --replay cmp.jsonl -v            # every row, with statistics
  bleu-conformance compare --replay cmp.jsonl --format html --report compare.html

The table answers first: do they differ (material differences, at least half a unit of the
last printed decimal of BLEU on 0-100, apart from negligible ones), how much (largest first)
and why (a roll-up by cause); it fits the terminal's width and shows the ten largest
material differences. Implementations are lettered A, B, C...; each row names its pair.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from ..cases import generate_cases
from ..engine import WorkerLost, compare_cases, open_subjects
from ..engine.compare.batch import SHRINK_BUDGET
from ..engine.compare.shrink import MAX_STEPS
from ..outputs import OutputError, check_distinct, check_writable, open_log, write_atomic
from ..protocol import AdapterError
from ..reporters.compare import FORMATS, render
from ..reporters.findings import DEFAULT_DECIMALS
from ..reporters.textgrid import terminal_width
from ..results.log import CompareLogWriter, read_compare_log
from . import compare_corpus
from .options import (
    OneFile,
    add_impl_argument,
    add_quiet_argument,
    add_selection_arguments,
    fail,
    generated_count,
    jobs_count,
    load_selected,
    non_negative_int,
    progress,
)

EXIT_CODES = {
    0: "compared (differences are what it reports, not a failure of the command)",
    2: "bad input: unknown implementation, unreadable fixtures or files, a malformed log, an "
    "option of the other mode (corpus mode with -r/-i, fixture mode without), problems in "
    "the selected fixtures (the other cases are still compared), or an incomplete log (the "
    "comparison was interrupted: the report covers what it had)",
}

DEFAULT_IMPLEMENTATIONS = ("bleu_impl", "nltk")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_impl_argument(parser, default="bleu_impl and nltk")
    add_selection_arguments(parser)
    parser.add_argument(
        "--generate",
        type=generated_count,
        default=0,
        metavar="N",
        help="also compare on N generated corpora designed to separate semantics",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of --generate (default 0)")
    parser.add_argument(
        "--no-shrink",
        action="store_true",
        help="do not shrink generated disagreements to minimal inputs",
    )
    parser.add_argument(
        "--shrink-budget",
        type=non_negative_int,
        default=SHRINK_BUDGET,
        metavar="STEPS",
        help=f"candidate inputs tried while shrinking, in all (default {SHRINK_BUDGET:,}; "
        f"shared evenly by the generated cases, at most {MAX_STEPS} per disagreement); "
        "a disagreement whose share ran out says so in its record",
    )
    parser.add_argument(
        "--jobs",
        type=jobs_count,
        default=1,
        metavar="N",
        help="worker processes (results are identical for every N); with -r/-i: the "
        "implementations that run in their own process (live libraries, programs) asked N at "
        "a time",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="table (fits the terminal; the answer first, the ten largest material "
        "differences), markdown, json or html (every row; html with figures)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="table: every row, with the differing statistics, errors and skip reasons",
    )
    parser.add_argument(
        "--decimals",
        type=int,
        default=DEFAULT_DECIMALS,
        choices=range(7),
        metavar="N",
        help="the precision people print, in decimals of BLEU on 0-100: a difference of at "
        "least half a unit of the N-th decimal is material (default %(default)s)",
    )
    parser.add_argument(
        "--output",
        metavar="LOG",
        action=OneFile,
        help="also write the compare log (JSON Lines, written as the comparison goes) "
        "every report can be re-rendered from",
    )
    parser.add_argument(
        "--report", metavar="FILE", action=OneFile, help="write the rendered report to FILE"
    )
    parser.add_argument(
        "--replay", metavar="LOG", help="re-render a saved compare log; runs nothing"
    )
    add_quiet_argument(parser)
    compare_corpus.add_corpus_arguments(parser)
    parser.epilog = compare_corpus.EPILOG


def run_comparison(args: argparse.Namespace, log_path: Path) -> int:
    """Compare, writing the compare log to ``log_path`` as the work goes; the number of
    fixture problems (the cases they concern are left out)."""
    specs = args.impl or list(DEFAULT_IMPLEMENTATIONS)
    loaded, cases = load_selected(args, "compare")
    if args.generate:
        cases.extend(generate_cases(args.generate, args.seed))
    if not cases:
        raise ValueError("no fixture case selected (check -k, --tag and --fixtures)")
    subjects = open_subjects(specs, loaded.keys)  # fails early, in this process, on a bad spec
    try:
        with open_log(log_path) as stream:
            log = CompareLogWriter(stream)
            log.header(
                created=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                implementations_compared=specs,
                items=len(cases),
                generated=args.generate,
                seed=args.seed,
            )
            for subject in subjects:
                log.implementation(subject.info())
            records = compare_cases(
                specs,
                cases,
                loaded.keys,
                subjects=subjects,
                shrink=not args.no_shrink,
                shrink_budget=args.shrink_budget,
                jobs=args.jobs,
            )
            shrunk: list[dict] = []
            shown = progress(records, len(cases), "compare", enabled=not args.quiet)
            try:
                for case_records in shown:
                    for record in case_records:
                        log.pair(record)
                        shrunk += [record["shrink"]] if "shrink" in record else []
            except WorkerLost as exc:  # no end record: the report says it is incomplete
                print(f"bleu-conformance compare: error: {exc}", file=sys.stderr)
                return len(loaded.problems)
            log.end(
                pairs="complete",
                fixture_problems=len(loaded.problems),
                **_shrink_summary(shrunk),
            )
    finally:
        for subject in subjects:
            subject.adapter.close()
    return len(loaded.problems)


def _shrink_summary(shrunk: list[dict]) -> dict:
    """The end record's account of shrinking; a note on stderr when budgets ran out."""
    if not shrunk:
        return {}
    spent = sum(1 for s in shrunk if s.get("exhausted"))
    if spent:
        print(
            f"note: shrinking stopped at its budget ({shrunk[0]['budget']} candidate inputs) "
            f"on {spent} of {len(shrunk)} disagreements: their minimal inputs may shrink "
            "further (raise --shrink-budget)",
            file=sys.stderr,
        )
    return {
        "shrink": {
            "disagreements": len(shrunk),
            "steps": sum(s["steps"] for s in shrunk),
            "budget_spent": spent,
        }
    }


def _emit(log_path: Path, args: argparse.Namespace, problems: int = 0) -> int:
    """Render the log; 2 when it is no verdict (interrupted, or fixture problems)."""
    log = read_compare_log(log_path)
    width = 100 if args.report else terminal_width()
    text = render(log, args.format, width=width, verbose=args.verbose, decimals=args.decimals)
    if args.report:
        write_atomic(args.report, text + "\n", "--report")
    else:
        print(text)
    if not log.complete:
        return fail("compare", f"{log_path}: the comparison was interrupted (no end record)")
    return 2 if problems else 0


def _compare_into(args: argparse.Namespace, path: Path) -> int:
    """:func:`run_comparison` into ``--output``: a failure to write it names the file."""
    try:
        return run_comparison(args, path)
    except OSError as exc:
        if exc.filename is not None and exc.filename != str(path):
            raise  # another file (one being read): named as it is
        raise OutputError(f"cannot write --output {path}: {exc.strerror or exc}") from None


#: The fixture-mode options (destination -> (option, default)): corpus mode refuses them
#: rather than ignore them (an ignored --output is a log never written).
FIXTURE_ONLY: dict[str, tuple[str, object]] = {
    "output": ("--output", None),
    "replay": ("--replay", None),
    "generate": ("--generate", 0),
    "seed": ("--seed", 0),
    "no_shrink": ("--no-shrink", False),
    "shrink_budget": ("--shrink-budget", SHRINK_BUDGET),
    "verbose": ("-v", False),
    "decimals": ("--decimals", DEFAULT_DECIMALS),
    "keywords": ("-k", []),
    "tags": ("--tag", []),
    "fixtures": ("--fixtures", []),
}


def _mixed_modes(args: argparse.Namespace, corpus: bool) -> str | None:
    """Why the options given do not go together (one mode's option in the other mode)."""
    if corpus:
        wrong = compare_corpus.given(args, FIXTURE_ONLY)
        mode, other = "corpus mode (-r/-i)", "fixture cases"
    else:
        wrong = compare_corpus.given(args, compare_corpus.CORPUS_ONLY)
        mode, other = "fixture mode (no -r/-i)", "your own files (-r/-i)"
    if not wrong:
        return None
    return f"{', '.join(wrong)}: not an option of {mode}; it applies to {other}"


def run(args: argparse.Namespace) -> int:
    corpus = compare_corpus.is_corpus_mode(args)
    mixed = _mixed_modes(args, corpus)
    if mixed is not None:
        return fail("compare", mixed)
    if corpus:
        return compare_corpus.run(args)
    try:
        if args.report:
            check_writable(args.report, "--report")
        reads = [(args.replay, "the log")] + [(f, "the fixture") for f in args.fixtures or ()]
        check_distinct([(args.report, "--report"), (args.output, "--output")], reads)
        if args.replay:
            return _emit(Path(args.replay), args)
        if args.output:
            check_writable(args.output, "--output")
            problems = _compare_into(args, Path(args.output))
            return _emit(Path(args.output), args, problems)
        with tempfile.TemporaryDirectory(prefix="bleu-conformance-") as tmp:
            log_path = Path(tmp) / "compare.jsonl"
            problems = run_comparison(args, log_path)
            return _emit(log_path, args, problems)
    except BrokenPipeError:  # the reader went away (`| head`): cli.main ends quietly
        raise
    except (AdapterError, OSError, ValueError) as exc:
        return fail("compare", exc)
