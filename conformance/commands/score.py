"""Score a hypothesis file against reference files, like sacrebleu or multi-bleu.perl.

Reads one segment per line (UTF-8), streaming: memory does not grow with the number of
lines. References are given as one file per reference stream (-r ref0 -r ref1 ...), line i
of every file belonging to hypothesis line i. An empty reference line is a reference of
length 0. The score line shows the profile's scale (0-100 for sacrebleu and multi-bleu).

examples:
  bleu-conformance score -r ref.txt -i hyp.txt
  bleu-conformance score -r ref0.txt -r ref1.txt --profile sacrebleu < hyp.txt
  bleu-conformance score -r ref.txt -i hyp.txt --profile mteval-v13a --knob lowercase=false
  bleu-conformance score -r ref.txt -i hyp.txt --sentence --format json
  bleu-conformance score -r ref.txt -i big.txt --jobs 2        # same result, two processes
  bleu-conformance score -r ref.txt -i hyp.txt --profile sacrebleu --confidence  # as sacrebleu -ci

exit codes: 0 scored; 1 the emulated implementation fails on this input (e.g. mteval-v13a.pl
dies on an empty system); 2 unreadable/invalid input, line-count mismatch or a bad knob.
"""

from __future__ import annotations

import argparse
import json
import sys
from itertools import tee
from typing import Any

import bleu_impl
from bleu_impl import (
    BleuError,
    BleuResult,
    EmulatedFailure,
    iter_segment_stats,
    parallel_corpus_stats,
)

from ..knobargs import add_knob_arguments, knobs_from
from ..reporters.explanation import render_explanation
from ..textio import TextInputError, parallel_lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-r",
        "--ref",
        action="append",
        required=True,
        metavar="FILE",
        help="a reference file (one reference stream); repeat for several references",
    )
    parser.add_argument(
        "-i",
        "--input",
        default="-",
        metavar="FILE",
        help="the hypothesis file (default: standard input)",
    )
    add_knob_arguments(parser)
    parser.add_argument(
        "--sentence",
        action="store_true",
        help="print one sentence-level score per line (profile's sentence defaults) instead "
        "of the corpus score",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="count n-grams in N processes and merge the statistics (identical result)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--confidence",
        action="store_true",
        help="also the bootstrap mean and 95%% interval, as sacrebleu --confidence prints it "
        "(`(μ = MEAN ± HALF)`; the same resamples for the same files and seed; reads the "
        "files into memory)",
    )
    parser.add_argument(
        "--confidence-n", type=int, default=1000, metavar="N", help="bootstrap resamples (1000)"
    )
    parser.add_argument(
        "--confidence-seed",
        type=int,
        default=12345,
        metavar="N",
        help="seed of the resampling (12345, sacrebleu's SACREBLEU_SEED default)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also explain the corpus score: per-order counts, smoothing and BP",
    )


def format_score_line(result: BleuResult) -> str:
    """``BLEU = 50.46 94.4/58.8/43.8/26.7 (BP = 1.000 ratio = 1.000 hyp_len = 18 ...)``."""
    scale = result.config.scale
    digits = 2 if scale == 100 else 4
    precisions = "/".join(
        "-" if p is None else f"{p * scale:.1f}" if scale == 100 else f"{p:.4f}"
        for p in result.precisions
    )
    ref_len = result.ref_len if isinstance(result.ref_len, int) else f"{float(result.ref_len):g}"
    return (
        f"BLEU = {result.score * scale:.{digits}f} {precisions} (BP = {result.bp:.3f} "
        f"ratio = {result.ratio:.3f} hyp_len = {result.hyp_len} ref_len = {ref_len})"
    )


def _fail(message: str, code: int) -> int:
    print(f"bleu-conformance score: error: {message}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    knobs = knobs_from(args)
    try:
        profile = bleu_impl.get_profile(args.profile)
        config = profile.resolve(knobs, "sentence" if args.sentence else "corpus")
        first, second = tee(parallel_lines(args.input, args.ref))
        hyps = (hyp for _, hyp, _ in first)
        refs = (refs for _, _, refs in second)
        if args.sentence:
            return _print_sentences(hyps, refs, profile, config, args.format)
        if args.jobs < 1:
            return _fail(f"--jobs must be >= 1, got {args.jobs}", 2)
        if args.confidence:
            return _run_confidence(list(hyps), list(refs), profile, config, args)
        stats = parallel_corpus_stats(hyps, refs, config, args.jobs)
        result = bleu_impl.score_stats(stats, profile=profile, config=config)
    except TextInputError as exc:
        return _fail(str(exc), 2)
    except EmulatedFailure as exc:
        return _fail(f"{args.profile} fails on this input ({exc.kind}): {exc}", 1)
    except BleuError as exc:
        return _fail(str(exc), 2)
    if args.format == "json":
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(format_score_line(result))
        print(f"signature: {result.signature}")
        if result.note:
            print(f"note: {result.note}")
        if args.verbose:
            print(render_explanation(result))
    return 0


def _run_confidence(hyps: list, refs: list, profile: Any, config: Any, args: Any) -> int:
    if args.confidence_n < 1:
        return _fail(f"--confidence-n must be >= 1, got {args.confidence_n}", 2)
    result, interval = _confidence(hyps, refs, profile, config, args)
    return _print_confidence(result, interval, args)


def _confidence(hyps: list, refs: list, profile: Any, config: Any, args: Any) -> Any:
    """The corpus result and the bootstrap interval of its score (profile's scale)."""
    table = bleu_impl.segment_table(hyps, refs, config)
    result = bleu_impl.score_stats(table.total(), profile=profile, config=config)
    scores = bleu_impl.bootstrap_scores(
        table, config, profile, samples=args.confidence_n, seed=args.confidence_seed
    )
    return result, bleu_impl.bootstrap_interval(scores)


def _print_confidence(result: BleuResult, interval: Any, args: Any) -> int:
    digits = 2 if result.config.scale == 100 else 4
    if args.format == "json":
        record = result.to_dict()
        record["confidence"] = {
            **vars(interval),
            "seed": args.confidence_seed,
            "text": f"μ = {interval.mean:.{digits}f} ± {interval.half:.{digits}f}",
        }
        print(json.dumps(record, ensure_ascii=False))
        return 0
    line = format_score_line(result)
    score_text = f"{result.score * result.config.scale:.{digits}f}"
    shown = f"{score_text} (μ = {interval.mean:.{digits}f} ± {interval.half:.{digits}f})"
    print(line.replace(f"BLEU = {score_text}", f"BLEU = {shown}", 1))
    print(f"signature: {result.signature}|bs:{interval.samples}|seed:{args.confidence_seed}")
    if args.verbose:
        print(render_explanation(result))
    return 0


def _print_sentences(hyps: Any, refs: Any, profile: Any, config: Any, fmt: str) -> int:
    for index, stats in enumerate(iter_segment_stats(hyps, refs, config), start=1):
        try:
            result = bleu_impl.score_stats(stats, profile=profile, config=config)
        except EmulatedFailure as exc:
            line = {"line": index, "error": exc.kind, "message": str(exc)}
            print(json.dumps(line) if fmt == "json" else f"{index}\terror: {exc}")
            continue
        if fmt == "json":
            print(json.dumps({"line": index, **result.to_dict()}, ensure_ascii=False))
        else:
            print(f"{index}\t{format_score_line(result)}")
    return 0
