"""Score hypothesis files against reference files, like sacrebleu or multi-bleu.perl.

Reads one segment per line (UTF-8; a file ending in .gz is decompressed), streaming: memory
does not grow with the number of lines. References are one file per reference stream, given
as positional arguments (sacrebleu's `sacrebleu REF... -i SYS`) and/or with -r; line i of
every file belongs to hypothesis line i, and an empty reference line is a reference of
length 0. Several systems (-i a b c, or -i repeated) are scored against the same references,
one row each. The score line shows the profile's scale (0-100 for sacrebleu and multi-bleu);
the signature line names the number of references, the profile, the case, tokenizer and
smoothing, every knob changed from the profile's default and the version (-v: every knob,
with the step-by-step explanation).

examples:
  bleu-conformance score ref.txt -i hyp.txt --profile sacrebleu
  bleu-conformance score -r ref0.txt -r ref1.txt --profile sacrebleu < hyp.txt
  bleu-conformance score ref.txt -i sys1.txt sys2.txt sys3.txt.gz -b      # one score per line
  bleu-conformance score -r ref.txt -i hyp.txt --profile mteval-v13a --knob lowercase=false
  bleu-conformance score -r ref.txt -i hyp.txt --sentence --format json
  bleu-conformance score -r ref.txt -i hyp.txt -v          # every knob, step by step
  bleu-conformance score -r ref.txt -i big.txt --jobs 2        # same result, two processes
  bleu-conformance score -r ref.txt -i hyp.txt --profile sacrebleu --confidence  # as sacrebleu -ci
"""

from __future__ import annotations

import argparse
import sys
from itertools import islice, tee
from typing import Any

import bleu_impl
from bleu_impl import (
    BleuError,
    BleuResult,
    Config,
    EmulatedFailure,
    Profile,
    iter_segment_stats,
)
from bleu_impl.bulk import parallel_corpus_stats

from ..knobargs import add_knob_arguments, knobs_from
from ..reporters import score_text
from ..reporters.score_text import Scored, ScoreView
from ..textio import TextInputError, parallel_lines
from .options import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    fail,
    jobs_count,
    non_negative_int,
    resample_count,
)

EXIT_CODES = {
    0: "scored",
    1: "the emulated implementation fails on this input (e.g. mteval-v13a.pl dies on an "
    "empty system)",
    2: "unreadable or invalid input, a line-count mismatch, a bad knob",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "refs",
        nargs="*",
        metavar="REF",
        help="reference files, one per reference stream (as in sacrebleu, before -i; same as -r)",
    )
    parser.add_argument(
        "-r",
        "--ref",
        action="append",
        default=[],
        metavar="FILE",
        help="a reference file (one reference stream); repeat for several references",
    )
    parser.add_argument(
        "-i",
        "--input",
        action="extend",
        nargs="+",
        default=[],
        metavar="FILE",
        help="hypothesis file(s): several systems are scored one by one against the same "
        "references (-i a b c, or -i repeated; default: standard input)",
    )
    add_knob_arguments(parser)
    parser.add_argument(
        "--sentence",
        action="store_true",
        help="print one sentence-level score per line (profile's sentence defaults) instead "
        "of the corpus score (one system only)",
    )
    parser.add_argument(
        "--jobs",
        type=jobs_count,
        default=1,
        metavar="N",
        help="count n-grams in N processes and merge the statistics (identical result)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text, or json: one JSON object per system (per line with --sentence)",
    )
    parser.add_argument(
        "-b",
        "--score-only",
        action="store_true",
        help="print only the score (one line per system), as sacrebleu -b",
    )
    parser.add_argument(
        "-w",
        "--width",
        type=int,
        choices=range(0, 17),
        default=None,
        metavar="N",
        help="decimals of the score (0-16; default 2 on the 0-100 scale, 4 on 0-1)",
    )
    parser.add_argument(
        "--confidence",
        action="store_true",
        help="also the bootstrap mean and 95%% interval, as sacrebleu --confidence prints it "
        "(`(μ = MEAN ± HALF)`; the same resamples for the same files and seed; reads the "
        "files into memory)",
    )
    parser.add_argument(
        "--confidence-n",
        type=resample_count,
        default=1000,
        metavar="N",
        help="bootstrap resamples (1000)",
    )
    parser.add_argument(
        "--confidence-seed",
        type=non_negative_int,
        default=12345,
        metavar="N",
        help="seed of the resampling (12345, sacrebleu's SACREBLEU_SEED default)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also explain the corpus score: per-order counts, smoothing, BP and the full "
        "signature with every knob",
    )


def _score_system(
    system: str, refs: list[str], profile: Profile, config: Config, jobs: int
) -> Scored:
    shown = "<stdin>" if system == "-" else system
    try:
        first, second = tee(parallel_lines(system, refs))
        hyps = (hyp for _, hyp, _ in first)
        ref_lines = (r for _, _, r in second)
        stats = parallel_corpus_stats(hyps, ref_lines, config, jobs)
        return Scored(shown, bleu_impl.score_stats(stats, profile=profile, config=config))
    except TextInputError as exc:
        return Scored(shown, error=str(exc), status=EXIT_USAGE)
    except EmulatedFailure as exc:
        message = f"{shown}: {profile.name} fails on this input ({exc.kind}): {exc}"
        return Scored(shown, error=message, status=EXIT_FINDINGS)
    except BleuError as exc:
        return Scored(shown, error=f"{shown}: {exc}", status=EXIT_USAGE)


def run(args: argparse.Namespace) -> int:
    refs = [*args.refs, *args.ref]
    systems = args.input or ["-"]
    if not refs:
        return fail("score", "no reference file: give them as REF arguments or with -r FILE")
    if args.sentence and len(systems) > 1:
        return fail("score", "--sentence scores one system; got -i with several files")
    if "-" in refs:
        return fail("score", "references cannot be read from standard input; give files")
    if args.confidence and (args.sentence or len(systems) > 1):
        return fail(
            "score",
            "--confidence scores one system at corpus level (as sacrebleu); for several "
            "systems, paired tests: `bleu-conformance compare -r REF -i A -i B`",
        )
    level = "sentence" if args.sentence else "corpus"
    try:
        profile = bleu_impl.get_profile(args.profile)
        config = profile.resolve(knobs_from(args), level)
    except BleuError as exc:
        return fail("score", exc)
    if args.sentence:
        return _sentences(args, refs, profile, config)
    if args.confidence:
        return _run_confidence(systems[0], refs, profile, config, args)
    scored = [_score_system(system, refs, profile, config, args.jobs) for system in systems]
    for item in scored:
        if item.error:
            print(f"bleu-conformance score: error: {item.error}", file=sys.stderr)
    signature = bleu_impl.signature(profile.name, config, nrefs=len(refs), level=level)
    sys.stdout.write(score_text.systems(scored, signature, _view(args)))
    return max(item.status for item in scored)


def _view(args: argparse.Namespace) -> ScoreView:
    return ScoreView(args.format == "json", args.score_only, args.width, args.verbose)


def _run_confidence(
    system: str, refs: list[str], profile: Profile, config: Config, args: argparse.Namespace
) -> int:
    """The corpus score with sacrebleu's bootstrap mean and 95% interval (reads the files)."""
    try:
        lines = list(parallel_lines(system, refs))
        hyps = [hyp for _, hyp, _ in lines]
        ref_lines = [r for _, _, r in lines]
        table = bleu_impl.segment_table(hyps, ref_lines, config)
        result = bleu_impl.score_stats(table.total(), profile=profile, config=config)
        scores = bleu_impl.bootstrap_scores(
            table, config, profile, samples=args.confidence_n, seed=args.confidence_seed
        )
    except TextInputError as exc:
        return fail("score", exc)
    except EmulatedFailure as exc:
        return fail("score", f"{profile.name} fails on this input ({exc.kind}): {exc}", 1)
    except BleuError as exc:
        return fail("score", exc)
    interval = bleu_impl.bootstrap_interval(scores)
    signature = bleu_impl.signature(profile.name, config, nrefs=len(refs))
    print(score_text.confidence(result, interval, signature, args.confidence_seed, _view(args)))
    return EXIT_OK


#: Lines scored per ``sentence_scores`` call (memory stays bounded).
SENTENCE_BATCH = 4096


def _sentences(args: argparse.Namespace, refs: list[str], profile: Profile, config: Config) -> int:
    try:
        first, second = tee(parallel_lines(args.input[0] if args.input else "-", refs))
        hyps = (hyp for _, hyp, _ in first)
        ref_lines = (r for _, _, r in second)
        return _print_sentences(hyps, ref_lines, profile, knobs_from(args), args)
    except TextInputError as exc:
        return fail("score", exc)
    except BleuError as exc:
        return fail("score", exc)


def _print_sentences(
    hyps: Any, refs: Any, profile: Profile, knobs: dict[str, Any], args: argparse.Namespace
) -> int:
    """Every line's sentence BLEU, scored in batches by ``sentence_scores``; a batch with a
    failing line goes line by line, so the lines before it print and the later ones are
    scored."""
    pairs = zip(hyps, refs)
    done = 0
    while batch := list(islice(pairs, SENTENCE_BATCH)):
        batch_hyps, batch_refs = [h for h, _ in batch], [r for _, r in batch]
        try:
            results = bleu_impl.sentence_scores(
                batch_hyps, batch_refs, profile=profile, statistics=True, **knobs
            )
        except BleuError:
            results = None
        if results is None:
            _print_one_by_one(batch_hyps, batch_refs, profile, knobs, args, done)
        else:
            for index, result in enumerate(results, start=done + 1):
                print(score_text.sentence(index, result, _view(args)))
        done += len(batch)
    return 0


def _print_one_by_one(
    hyps: Any,
    refs: Any,
    profile: Profile,
    knobs: dict[str, Any],
    args: argparse.Namespace,
    done: int,
) -> None:
    config = profile.resolve(knobs, "sentence")
    for index, stats in enumerate(iter_segment_stats(hyps, refs, config), start=done + 1):
        try:
            result: BleuResult | EmulatedFailure = bleu_impl.score_stats(
                stats, profile=profile, config=config
            )
        except EmulatedFailure as exc:
            result = exc
        print(score_text.sentence(index, result, _view(args)))
