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
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.compare import MAX_STEPS, SHRINK_BUDGET
from ..outputs import check_distinct, check_writable
from ..protocol import AdapterError
from ..reporters import FORMATS
from ..results.vocab import Policy
from . import compare_corpus

if TYPE_CHECKING:
    from ..results.log import LogWriter
    from ..results.records import Shrinking, ShrinkSummary
from .options import (
    OneFile,
    add_generate_arguments,
    add_impl_argument,
    add_quiet_argument,
    add_selection_arguments,
    fail,
    jobs_count,
    load_selected,
    non_negative_int,
    progress,
)

EXIT_CODES = {
    0: "compared (differences are what it reports, not a failure of the command)",
    4: "too little compared to be a verdict: fewer than two implementations, or one that "
    "was compared with no other on any case (every pair of it skipped or errored)",
    2: "bad input: unknown implementation, unreadable fixtures or files, a malformed log, an "
    "option of the other mode (corpus mode with -r/-i, fixture mode without), problems in "
    "the selected fixtures (the other cases are still compared), or an incomplete log (the "
    "comparison was interrupted: the report covers what it had)",
}

DEFAULT_IMPLEMENTATIONS = ("bleu_impl", "nltk")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_impl_argument(parser, default="bleu_impl and nltk")
    add_selection_arguments(parser)
    add_generate_arguments(
        parser, 0, "also compare on N generated corpora designed to separate semantics"
    )
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
        default=None,
        choices=range(7),
        metavar="N",
        help="the precision people print, in decimals of BLEU on 0-100: a difference of at "
        "least half a unit of the N-th decimal is material (default 2; with --replay, as "
        "the log was written)",
    )
    parser.add_argument(
        "--output",
        metavar="LOG",
        action=OneFile,
        help="also write the log (JSON Lines, written as the work goes; with -r/-i the "
        "corpus report's) that `report LOG` and --replay re-render without running anything",
    )
    parser.add_argument(
        "--report", metavar="FILE", action=OneFile, help="write the rendered report to FILE"
    )
    parser.add_argument(
        "--replay",
        metavar="LOG",
        help="re-render a saved log (any command's: as `report LOG`); runs nothing",
    )
    add_quiet_argument(parser)
    compare_corpus.add_corpus_arguments(parser)
    parser.epilog = compare_corpus.EPILOG


def run_comparison(args: argparse.Namespace, path: Path) -> None:
    """Compare, writing the log to ``path`` as the work goes (fixture problems are
    reported, and the cases they concern left out)."""
    # the engine and the log's records: never for --help
    from ..cases import generate_cases
    from ..engine import WorkerLost, compare_cases, open_subjects
    from ..results.records import End
    from .logged import header, log_name, write_log

    specs = args.impl or list(DEFAULT_IMPLEMENTATIONS)
    loaded, cases = load_selected(args, "compare")
    if args.generate:
        cases.extend(generate_cases(args.generate, args.seed))
    if not cases:
        raise ValueError("no fixture case selected (check -k, --tag and --fixtures)")
    subjects = open_subjects(specs, loaded.keys)  # fails early, in this process, on a bad spec
    head = header(
        "compare",
        args,
        Policy() if args.decimals is None else Policy(decimals=args.decimals),
        implementations_compared=specs,
        items=len(cases),
        generated=args.generate,
        seed=args.seed,
    )

    def work(log: LogWriter) -> None:
        for subject in subjects:
            log.write(subject.info())
        records = compare_cases(
            specs,
            cases,
            loaded.keys,
            subjects=subjects,
            shrink=not args.no_shrink,
            shrink_budget=args.shrink_budget,
            jobs=args.jobs,
        )
        shrunk: list[Shrinking] = []
        try:
            for case_pairs in progress(records, len(cases), "compare", enabled=not args.quiet):
                for pair in case_pairs:
                    log.write(pair)
                    shrunk += [pair.shrink] if pair.shrink is not None else []
        except WorkerLost as exc:  # no end record: the report says it is incomplete
            print(f"bleu-conformance compare: error: {exc}", file=sys.stderr)
            return
        log.write(End(problems=len(loaded.problems), shrink=_shrink_summary(shrunk)))

    try:
        write_log(path, head, work, log_name(args.output))
    finally:
        for subject in subjects:
            subject.adapter.close()


def _shrink_summary(shrunk: list[Shrinking]) -> ShrinkSummary | None:
    """The end record's account of shrinking; a note on stderr when budgets ran out."""
    from ..results.records import ShrinkSummary

    if not shrunk:
        return None
    spent = sum(s.exhausted for s in shrunk)
    if spent:
        print(
            f"note: shrinking stopped at its budget ({shrunk[0].budget} candidate inputs) "
            f"on {spent} of {len(shrunk)} disagreements: their minimal inputs may shrink "
            "further (raise --shrink-budget)",
            file=sys.stderr,
        )
    return ShrinkSummary(len(shrunk), sum(s.steps for s in shrunk), spent)


def _emit(path: Path, args: argparse.Namespace) -> int:
    """Render the log at ``path``; 2 when it is no verdict (interrupted, fixture problems)."""
    from ..results.log import read_log
    from .logged import emit

    report = read_log(path)
    status = emit(report, args)
    if not report.complete:
        return fail("compare", f"{path}: the comparison was interrupted (no end record)")
    return status


#: The fixture-mode options (destination -> (option, default)): corpus mode refuses them
#: rather than ignore them (an ignored --output is a log never written).
FIXTURE_ONLY: dict[str, tuple[str, object]] = {
    "generate": ("--generate", 0),
    "seed": ("--seed", 0),
    "no_shrink": ("--no-shrink", False),
    "shrink_budget": ("--shrink-budget", SHRINK_BUDGET),
    "verbose": ("-v", False),
    "decimals": ("--decimals", None),
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


def _replay(args: argparse.Namespace) -> int:
    """``--replay LOG``: ``report LOG`` with this command's options; runs nothing."""
    given = compare_corpus.given(args, {**REPLAY_REFUSES, **compare_corpus.CORPUS_ONLY})
    given += ["-r"] * bool(args.ref) + ["-i"] * bool(args.input)
    if given:
        return fail("compare", f"{', '.join(given)}: --replay re-renders a log and runs nothing")
    check_distinct([(args.report, "--report")], [(args.replay, "the log")])
    return _emit(Path(args.replay), args)


#: What says what to run: refused with --replay (never silently ignored); -v and
#: --decimals say how to show it.
REPLAY_REFUSES: dict[str, tuple[str, object]] = {
    "impl": ("--impl", []),
    "output": ("--output", None),
    **{k: v for k, v in FIXTURE_ONLY.items() if k not in ("verbose", "decimals")},
}


def run(args: argparse.Namespace) -> int:
    try:
        if args.report:
            check_writable(args.report, "--report")
        if args.replay:
            return _replay(args)
        corpus = compare_corpus.is_corpus_mode(args)
        mixed = _mixed_modes(args, corpus)
        if mixed is not None:
            return fail("compare", mixed)
        if corpus and args.pairs:
            from . import compare_pairs

            return compare_pairs.run_pairs(args)
        if corpus:
            return compare_corpus.run(args)
        reads = [(f, "the fixture") for f in args.fixtures or ()]
        check_distinct([(args.report, "--report"), (args.output, "--output")], reads)
        if args.output:
            check_writable(args.output, "--output")
        from .logged import log_path

        with log_path(args.output) as path:
            run_comparison(args, path)
            return _emit(path, args)
    except BrokenPipeError:  # the reader went away (`| head`): cli.main ends quietly
        raise
    except (AdapterError, OSError, ValueError) as exc:
        return fail("compare", exc)
