"""``compare -r REF ... -i SYSTEM ...``: the corpus report on a user's own files.

Every implementation scores every system; the report shows the score matrix with ranks and
spread, why each implementation differs from the baseline (the knob path, with the BLEU
change of each step), every pair of systems two implementations rank differently with the
paired-bootstrap p-value under each (as sacrebleu --paired-bs: 1,000 resamples, seed
12345), and the segments behind the largest difference.
"""

from __future__ import annotations

import argparse
import importlib.util
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bleu_impl import PROFILES, BleuError, get_profile

from ..knobargs import knob_pair
from ..outputs import check_distinct, check_writable
from ..protocol import AdapterError
from ..results.vocab import Policy
from .options import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    ProgressBar,
    fail,
    non_negative_int,
    positive_int,
    resample_count,
)

__all__ = [
    "CORPUS_ONLY",
    "EPILOG",
    "add_corpus_arguments",
    "default_implementations",
    "given",
    "is_corpus_mode",
    "run",
]

if TYPE_CHECKING:  # the engine and the log: loaded by the run, never for --help
    from ..engine.corpus.analysis import CorpusOptions
    from ..results.log import LogWriter

EPILOG = """\
corpus mode (your own files: one segment per line, UTF-8, `-` = stdin once, .gz accepted):
  bleu-conformance compare -r ref.de -i sysA.de -i sysB.de -i sysC.de
  bleu-conformance compare -r ref0 -r ref1 -i a.txt -i b.txt --format html --report r.html
  bleu-conformance compare -r ref -i a -i b --impl sacrebleu --impl bleu_impl:nltk
  bleu-conformance compare -r ref.zh -i a.zh -i b.zh --knob tokenize=char   # every implementation
  bleu-conformance compare -r ref -i a -i b --between bleu_impl:sacrebleu,bleu_impl:multi-bleu
  bleu-conformance compare --pairs wmt22.yaml --output wmt22-logs   # every pair of a task
  bleu-conformance compare --pairs wmt22-general --output wmt22-logs --scheduler local:2
  --pairs DIR reads a checkout laid out as the WMT system repositories: one pair per
  SRC-TGT, its references txt/references/TEST.SRC-TGT.ref.R.TGT, its systems
  txt/system-outputs/TEST.SRC-TGT.hyp.SYSTEM.TGT, sacrebleu's tokenizer for a zh/ja/ko
  target. --scheduler local:2 computes each pair as a task on a Dask LocalCluster of 2
  worker processes (tcp://HOST:8786: a running cluster). Each pair's log is
  wmt22-logs/PAIR.jsonl; the same command after an interruption computes only the pairs
  whose log is incomplete, then prints the cross-pair summary.
  default implementations: every bleu_impl profile and every importable live library; default
  baseline: sacrebleu, else bleu_impl:sacrebleu, else the first --impl (by name or spec).
  --output LOG writes the corpus log as the report is computed; `report LOG` (or
  compare --replay LOG) renders it again in any format without running anything.
  --generate, -k, --tag, --fixtures, -v and --decimals are fixture-mode options: given with
  -r/-i they are an error, never silently ignored (and the reverse).
  corpus-mode exit codes: 0 report written; 1 report written but no implementation scored any
  system; 2 bad files (named with the line), unknown implementation or knob; a bad system file
  among good ones is left out, named under No score, the others compared, and the exit is 2.
  An implementation failing on a system is an error cell, not an exit.
"""


def add_corpus_arguments(parser: argparse.ArgumentParser) -> None:
    """The corpus-mode options of ``compare`` (fixture mode ignores them)."""
    group = parser.add_argument_group("corpus mode (compare your own files)")
    group.add_argument(
        "-r",
        "--ref",
        action="append",
        default=[],
        metavar="FILE",
        help="a reference file (one reference stream); repeat for several references",
    )
    group.add_argument(
        "-i",
        "--input",
        action="append",
        default=[],
        metavar="FILE",
        help="a system's output file; repeat for several systems",
    )
    group.add_argument(
        "--pairs",
        metavar="MANIFEST",
        help="every pair of a shared task: a YAML/JSON manifest of pairs (name, refs, systems "
        "with globs, knobs) or a directory laid out as the WMT system repositories "
        "(txt/references, txt/system-outputs), each pair's report logged to --output "
        "DIR/NAME.jsonl (complete logs are kept: an interrupted run resumes), then a "
        "cross-pair summary",
    )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --pairs: compute each pair as a task on the Dask scheduler at ADDRESS "
        "(local:N starts a LocalCluster of N worker processes); the workers read the files",
    )
    group.add_argument(
        "--baseline",
        metavar="IMPL",
        help="the implementation the others are explained against (default: sacrebleu if "
        "compared, else bleu_impl:sacrebleu if compared, else the first --impl)",
    )
    group.add_argument(
        "--knob",
        action="append",
        type=knob_pair,
        default=[],
        metavar="NAME=VALUE",
        help="a knob every implementation is asked with (e.g. tokenize=char); an "
        "implementation that cannot set it is marked skipped",
    )
    group.add_argument(
        "--paired-ar",
        action="store_true",
        help="p-values of the ranking flips by approximate randomization (sacrebleu "
        "--paired-ar, 10,000 trials, the first -i of a pair as baseline) instead of paired "
        "bootstrap resampling",
    )
    group.add_argument(
        "--paired-bs-n",
        type=resample_count,
        default=Policy.resamples,
        metavar="N",
        help=f"bootstrap resamples ({Policy.resamples})",
    )
    group.add_argument(
        "--paired-ar-n",
        type=resample_count,
        default=Policy.trials,
        metavar="N",
        help=f"AR trials ({Policy.trials})",
    )
    group.add_argument(
        "--paired-seed",
        type=non_negative_int,
        default=Policy.seed,
        metavar="N",
        help="seed of the resampling (default 12345, sacrebleu's SACREBLEU_SEED default)",
    )
    group.add_argument(
        "--between",
        metavar="A,B",
        help="the two implementations whose segment-level difference is shown (default: the "
        "baseline and the implementation farthest from it)",
    )
    group.add_argument(
        "--system", metavar="NAME", help="the system of that section (default: largest gap)"
    )
    group.add_argument(
        "--top",
        type=positive_int,
        default=10,
        metavar="N",
        help="segments shown in that section (10)",
    )


def is_corpus_mode(args: argparse.Namespace) -> bool:
    return bool(
        getattr(args, "ref", None) or getattr(args, "input", None) or getattr(args, "pairs", None)
    )


#: The corpus-mode options (destination -> (option, default)): fixture mode refuses them
#: rather than ignore them (a --knob silently left out changes every number).
CORPUS_ONLY: dict[str, tuple[str, Any]] = {
    "pairs": ("--pairs", None),
    "scheduler": ("--scheduler", None),
    "baseline": ("--baseline", None),
    "knob": ("--knob", []),
    "paired_ar": ("--paired-ar", False),
    "paired_bs_n": ("--paired-bs-n", Policy.resamples),
    "paired_ar_n": ("--paired-ar-n", Policy.trials),
    "paired_seed": ("--paired-seed", Policy.seed),
    "between": ("--between", None),
    "system": ("--system", None),
    "top": ("--top", 10),
}


def given(args: argparse.Namespace, options: dict[str, tuple[str, Any]]) -> list[str]:
    """The ``options`` (destination -> (option, default)) set away from their default."""
    return [option for dest, (option, default) in options.items() if getattr(args, dest) != default]


def default_implementations() -> list[str]:
    """Every bleu_impl profile, then every built-in live library that imports here."""
    from ..adapters.libraries import LIBRARIES

    live = [
        name
        for name, library in LIBRARIES.items()  # found by its top package: nothing imported
        if importlib.util.find_spec(library.module.partition(".")[0]) is not None
    ]
    return [f"bleu_impl:{p}" for p in PROFILES] + live


def default_baseline(names: list[str]) -> str:
    """sacrebleu when compared, else bleu_impl's emulation of it, else the first."""
    return next((n for n in ("sacrebleu", "bleu_impl:sacrebleu") if n in names), names[0])


def _named(wanted: str, subjects: list[Any]) -> str:
    """The name of the implementation ``wanted`` names by name or by its ``--impl`` spec
    (``--baseline bleu_impl`` is ``bleu_impl:papineni2002``); ``wanted`` when none does."""
    for subject in subjects:
        if wanted in (subject.name, subject.spec):
            return str(subject.name)
    return wanted


def _options(args: argparse.Namespace) -> CorpusOptions:
    from ..engine.corpus.analysis import CorpusOptions

    between = None
    if args.between is not None:
        parts = [p.strip() for p in args.between.split(",")]
        if len(parts) != 2 or not all(parts):
            raise ValueError(f"--between takes two implementations A,B, got {args.between!r}")
        between = (parts[0], parts[1])
    knobs = dict(args.knob)
    try:
        get_profile("papineni2002").resolve(knobs, "corpus")
    except BleuError as exc:
        raise ValueError(f"--knob: {exc}") from None
    policy = Policy(resamples=args.paired_bs_n, trials=args.paired_ar_n, seed=args.paired_seed)
    return CorpusOptions(
        knobs=knobs,
        test="paired-ar" if args.paired_ar else "paired-bs",
        policy=policy,
        between=between,
        system=args.system,
        top=args.top,
        jobs=args.jobs,
    )


def _names_check(names: list[str], options: CorpusOptions, baseline: str) -> None:
    if baseline not in names:
        raise ValueError(f"--baseline {baseline!r} is not among the implementations: {names}")
    for impl in options.between or ():
        if impl not in names:
            raise ValueError(f"--between: {impl!r} is not among the implementations: {names}")
    if options.between is not None and options.between[0] == options.between[1]:
        raise ValueError(
            f"--between {options.between[0]!r} twice: it takes two different implementations"
        )


def build(args: argparse.Namespace, path: Path) -> None:
    """Read the files, open the implementations, and write the report's log to ``path`` as
    it is computed."""
    from ..cases.usercorpus import load_corpus
    from ..engine import open_subjects
    from ..engine.corpus.analysis import corpus_report
    from ..results.records import End
    from .logged import header, log_name, write_log

    options = _options(args)
    corpus = load_corpus(args.ref, args.input)
    specs = args.impl or default_implementations()
    # bleu_impl:KEY as in fixture mode; one that cannot start is a column of error cells
    from ..cases.implementations import load_registry  # YAML: never for --help

    subjects = open_subjects(specs, load_registry().keys, keep_unstarted=True)
    try:
        names = [s.name for s in subjects]
        baseline = _named(args.baseline, subjects) if args.baseline else default_baseline(names)
        if options.between is not None:
            options = replace(
                options,
                between=(
                    _named(options.between[0], subjects),
                    _named(options.between[1], subjects),
                ),
            )
        _names_check(names, options, baseline)
        if options.system is not None and options.system not in corpus.names:
            raise ValueError(f"--system {options.system!r}: systems are {list(corpus.names)}")
        head = header(
            "corpus",
            args,
            options.policy,
            implementations=specs,
            references=args.ref,
            systems=args.input,
            knobs=dict(options.knobs),
            baseline=baseline,
            test=options.test,
        )

        def work(log: LogWriter) -> None:
            for subject in subjects:
                log.write(subject.info())
            with ProgressBar(None, "compare", enabled=not getattr(args, "quiet", False)) as bar:
                _, summary = corpus_report(
                    corpus, subjects, baseline, options, bar.describe, log.write
                )
            log.write(summary)
            log.write(End())

        write_log(path, head, work, log_name(args.output))
    finally:
        for subject in subjects:
            subject.adapter.close()


def _inputs(args: argparse.Namespace) -> list[tuple[str | None, str]]:
    """The files the report is computed from (a ``--report`` or ``--output`` naming one
    would destroy it)."""
    return [(p, "reference") for p in args.ref if p != "-"] + [
        (p, "system") for p in args.input if p != "-"
    ]


def run(args: argparse.Namespace) -> int:
    from ..cases.usercorpus import CorpusInputError
    from ..results.log import read_log
    from .logged import emit, log_path

    if args.scheduler:
        return fail("compare", "--scheduler runs the pairs of --pairs; -r/-i runs here", EXIT_USAGE)
    try:
        outputs = [(args.report, "--report"), (args.output, "--output")]
        for target, what in outputs:
            if target:
                check_writable(target, what)  # before the work, not after
        check_distinct(outputs, _inputs(args))
        with log_path(args.output) as path:
            build(args, path)
            status = emit(read_log(path), args)
        if status == EXIT_FINDINGS:
            why = "no implementation scored any system: nothing was compared (the report says why)"
            return fail("compare", why, EXIT_FINDINGS)
        if status == EXIT_USAGE:
            why = "system file(s) left out of the report (it says why, under No score)"
            return fail("compare", why, EXIT_USAGE)
    except BrokenPipeError:  # the reader went away (`| head`): cli.main ends quietly
        raise
    except (CorpusInputError, AdapterError, OSError, ValueError) as exc:
        return fail("compare", exc, EXIT_USAGE)
    return EXIT_OK
