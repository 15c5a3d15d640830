"""python -m bench: how fast is bleu_impl's corpus and sentence BLEU, and at what memory?

Generates seeded synthetic MT-like corpora (bench/corpus.py: Zipfian ~30k-type
vocabulary, news-like lengths, hypotheses made from reference 1 by substitutions,
deletions, insertions and local swaps; BLEU about 25-35), writes them under --cache, and
measures, each in a fresh process (warm-up + --reps timed runs, median):

  floor      str.split of every hypothesis and reference (the cost of just reading tokens)
  pretok     corpus BLEU on pre-tokenized text: bleu_impl, bleu_impl --jobs 2, sacrebleu
             tokenize="none", NLTK corpus_bleu, bleuscore, torchmetrics, sacrebleu-mojo
  13a        corpus BLEU on detokenized text with 13a: bleu_impl, sacrebleu, bleuscore,
             torchmetrics SacreBLEUScore
  sentence   sentence BLEU of every segment (sizes <= 100k): bleu_impl.sentence_bleu per
             segment and bleu_impl.sentence_scores for all at once vs sacrebleu
             BLEU(effective_order=True).sentence_score per segment
  compare    bleu-conformance compare --generate 200 / 1000 (and --jobs 2, a constant-score
             and an ignite-like callable): CPU and wall time, what was found
  zh         corpus BLEU of Chinese text (bench/mtsystems.py) with zh (sizes <= 100k)
  ja-mecab   corpus BLEU of Japanese text with ja-mecab, and MeCab's parse alone (<= 100k)
  streamed   bleu_impl reading the corpus files line by line (sizes >= 100k): bounded memory;
             and on a 2-worker Dask LocalCluster whose workers read their own byte ranges
             of the files; both in wall time and CPU time on the critical path (cluster
             start-up and the workers' imports before the clock, their times stated)
  identify   `bleu-conformance identify --impl nltk` and `--impl sacrebleu`, each in a fresh
             process, wall and CPU time (target: 10 s); after a full run, or alone with
             --identify-only (not with --quick)

A library that does not import is listed with the reason. No time is reported unless the
score equals sacrebleu's (or bleu_impl's profile of that library's semantics) to 1e-12.
Peak memory is the measuring process's peak RSS during the timed calls (corpus included).
At --big segments and above only the libraries in --big-libs run, once each. A measurement
whose peak RSS, extrapolated linearly from the previous size, would exceed 80% of the
available memory is skipped with that reason (sacrebleu at 1M x 4 refs needs ~29 GB).
--append adds a run's rows to the saved results (e.g. 1M x 4 for bleu_impl only). The report
is always rendered from the saved results (--output's .json) alone: --render writes it again.

examples:
  python -m bench --quick                      # smoke run, seconds; writes nothing
  python -m bench --clock cpu                  # 10k,100k,1M x 1,4 refs -> docs/benchmarks.json, .md
  python -m bench --render docs/benchmarks.json   # docs/benchmarks.md again from saved results
  python -m bench --sizes 100k --refs 1 --libs bleu_impl,sacrebleu --no-write
  python -m bench --sizes 3k,100k --refs 1 --tasks zh,ja-mecab --append  # CJK rows only
  python -m bench --identify-only --no-write   # the identify rows alone
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from conformance.commands.options import non_negative_int, positive_int

from .cfloor import C_FLOOR
from .generated import RUNS, Measured, measure
from .libs import ADAPTERS, FILE_ROWS, SENTENCE_BATCH
from .report import console, markdown
from .results import Run, load_run, merge, merge_runs, run_meta, save_run
from .runner import ALL_TASKS, DEFAULT_CACHE, TASKS, Plan, Row, run_plan

_T = TypeVar("_T")
#: what ``--quick`` times
QUICK_LIBS = ("bleu_impl", SENTENCE_BATCH, "sacrebleu", C_FLOOR)


def parse_size(text: str) -> int:
    """'3k' -> 3000, '1M' -> 1000000, '2500' -> 2500."""
    text = text.strip().lower()
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    number = text[:-1] if scale > 1 else text
    try:
        value = int(float(number) * scale)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (use e.g. 3k, 100k, 1M)") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"size must be >= 1, got {text!r}")
    return value


def _seconds(text: str) -> float:
    """argparse type: a finite number of seconds > 0 (``--timeout``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


def _list(kind: Callable[[str], _T]) -> Callable[[str], list[_T]]:
    def parse(text: str) -> list[_T]:
        return [kind(part) for part in text.split(",") if part.strip()]

    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options (shared with ``bleu-conformance bench``)."""
    parser.add_argument(
        "--sizes",
        type=_list(parse_size),
        default=None,
        help="comma-separated corpus sizes in segments (default 10k,100k,1M)",
    )
    parser.add_argument(
        "--refs",
        type=_list(positive_int),
        default=None,
        help="comma-separated references per segment (default 1,4)",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time measured: wall (default) or the measuring process's CPU time, steadier on "
        "a loaded machine (rows with worker processes, --jobs and Dask, and the streamed row "
        "compared with Dask are timed in wall time either way)",
    )
    parser.add_argument(
        "--reps", type=positive_int, default=5, help="timed runs per measurement (5)"
    )
    parser.add_argument("--warmup", type=non_negative_int, default=1, help="untimed runs first (1)")
    parser.add_argument(
        "--libs",
        type=_list(str),
        default=(),
        help="only these library labels, e.g. bleu_impl,sacrebleu,str.split",
    )
    parser.add_argument(
        "--tasks",
        type=_list(str),
        default=(),
        help=f"only these tasks: {','.join(ALL_TASKS)} (default all)",
    )
    parser.add_argument(
        "--big",
        type=parse_size,
        default=1_000_000,
        help="sizes >= this run only --big-libs, once (default 1M)",
    )
    parser.add_argument(
        "--big-libs",
        type=_list(str),
        default=list(Plan.big_libs),
        help="libraries measured at --big sizes",
    )
    parser.add_argument("--seed", type=int, default=0, help="corpus seed (0)")
    parser.add_argument(
        "--cache",
        type=Path,
        default=DEFAULT_CACHE,
        help=f"where generated corpora are written and reused ({DEFAULT_CACHE})",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=3600.0,
        help="seconds before a measurement is abandoned (3600)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=Path("docs/benchmarks.md"),
        help="Markdown report path (docs/benchmarks.md)",
    )
    parser.add_argument(
        "--check-against",
        choices=("sacrebleu", "reference"),
        default="sacrebleu",
        help="what scores must equal: sacrebleu's, or bleu_impl's reference path (for sizes "
        "where sacrebleu does not fit in memory)",
    )
    parser.add_argument(
        "--append",
        action="store_true",
        help="add this run's rows to the saved results (--output's .json) instead of "
        "replacing them",
    )
    parser.add_argument("--note", default="", help="a sentence printed at the top of the report")
    parser.add_argument("--no-write", action="store_true", help="print only, write no report")
    parser.add_argument(
        "--identify-only",
        action="store_true",
        help="only the identify rows (kept in --output's .json, the report rendered again, "
        "unless --no-write)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run in seconds: bleu_impl, sentence_scores, the C floor and sacrebleu "
        "(when installed; else bleu_impl is checked against its reference path) on 300 and "
        "2k segments, 1 ref, pre-tokenized, 13a and sentence, 1 run, no report",
    )
    parser.add_argument(
        "--render",
        type=Path,
        nargs="+",
        metavar="RESULTS",
        help="only write --output (and beside it the merged .json) from saved runs (their "
        ".json; several: their rows in order, e.g. a 1M run made beside a 10k,100k one), "
        "then exit",
    )


def run_comparisons(compared: list[Measured], done: Callable[[], None]) -> None:
    """Measure every generated-comparison run into ``compared``, saving after each."""
    root = Path(__file__).resolve().parents[1]
    for compare_run in RUNS:
        compared.append(measure(compare_run, root))
        last = compared[-1]
        print(f"[compare] {compare_run.label}: {last.cpu:.1f} s CPU, {last.wall:.1f} s wall")
        done()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    return run(build_parser().parse_args(argv), "python -m bench " + shlex.join(argv))


def run_identify(args: argparse.Namespace, run: Run | None = None) -> None:
    """The identify rows: printed, and kept in ``run`` (``--identify-only``: in the saved
    results at ``--output``'s .json, the report rendered again from them)."""
    from .identify import identify_rows, identify_table

    rows = identify_rows()
    print("\nidentify (fresh process each, default options):\n" + identify_table(rows))
    if run is None:
        saved = args.output.with_suffix(".json")
        run = (
            load_run(saved)
            if saved.exists()
            else Run([], meta=run_meta("python -m bench --identify-only", 0, 0, "wall"))
        )
    run.identify = rows
    run.meta["identify_load"] = [round(x, 2) for x in os.getloadavg()]
    _save(args, run, measuring=not args.identify_only)


def _plan(args: argparse.Namespace) -> Plan:
    """The plan of ``args``: ``--quick`` is two small sizes, one reference, one repetition;
    an unknown ``--tasks`` name exits with the valid ones."""
    quick = args.quick
    if quick:
        args.libs = args.libs or list(QUICK_LIBS)
        args.tasks = args.tasks or ["pretok", "13a", "sentence"]
    plan = Plan(
        sizes=args.sizes or ([300, 2_000] if quick else [10_000, 100_000, 1_000_000]),
        refs=args.refs or ([1] if quick else [1, 4]),
        reps=1 if quick else args.reps,
        warmup=0 if quick else args.warmup,
        seed=args.seed,
        cache=args.cache,
        big=args.big,
        big_libs=tuple(args.big_libs),
        timeout=args.timeout,
        libs=tuple(args.libs),
        tasks=tuple(args.tasks),
        check_against=args.check_against,
    )
    unknown = sorted(set(args.tasks) - set(ALL_TASKS))
    if unknown:
        raise SystemExit(
            f"unknown task(s) {', '.join(unknown)}: choose from {', '.join(ALL_TASKS)}"
        )
    known = sorted({a.lib for a in ADAPTERS} | set(FILE_ROWS))
    for option, labels in (("libs", args.libs), ("big-libs", args.big_libs)):
        strangers = sorted(set(labels) - set(known))
        if strangers:
            raise SystemExit(
                f"unknown {option} label(s) {', '.join(strangers)}: choose from {', '.join(known)}"
            )
    plan.tasks = tuple(t for t in TASKS if t in args.tasks)  # () = every corpus task
    plan.clock = args.clock
    return plan


def _save(args: argparse.Namespace, run: Run, measuring: bool = True) -> None:
    """Write the run's JSON beside the report and the report rendered from it
    (``measuring``: see :func:`~bench.results.save_run`)."""
    if args.no_write:
        return
    save_run(args.output.with_suffix(".json"), run, measuring=measuring)
    args.output.write_text(markdown(run), encoding="utf-8")


def render(args: argparse.Namespace) -> int:
    """``--render``: the report (and beside it the merged .json) from saved runs alone."""
    merged = merge_runs(args.render)
    if args.output.with_suffix(".json") not in args.render:
        save_run(args.output.with_suffix(".json"), merged, measuring=False)
    args.output.write_text(markdown(merged), encoding="utf-8")
    print(f"wrote {args.output} and its .json")
    return 0


def run(args: argparse.Namespace, command: str = "python -m bench") -> int:
    """Run the benchmark described by parsed ``args``; ``command`` is quoted in the report."""
    if getattr(args, "identify_only", False):
        run_identify(args)
        return 0
    if getattr(args, "render", None):
        return render(args)
    plan = _plan(args)
    if args.quick:
        args.no_write = True
    command = command.strip()

    saved = args.output.with_suffix(".json")
    previous = load_run(saved) if args.append and saved.exists() else None  # continued

    compared: list[Measured] = []
    meta = run_meta(command, plan.reps, plan.warmup, plan.clock)
    if args.note:
        meta["note"] = args.note

    def whole(rows: list[Row]) -> Run:
        this = Run(rows, compared, meta)
        return merge([previous, this]) if previous else this

    def save(rows: list[Row]) -> None:  # after every measurement: a long run leaves results
        _save(args, whole(rows))

    rows = run_plan(plan, done=save) if plan.tasks or not args.tasks else []
    if not args.quick and (not args.tasks or "compare" in args.tasks):
        run_comparisons(compared, lambda: save(rows))
    print()
    print(console(rows))
    if not args.quick and not args.tasks:
        run_identify(args, whole(rows))
    if not args.no_write:
        print(f"\nwrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
