"""Explain a BLEU score step by step so it can be checked by hand.

Prints, for each n-gram order, the clipped matches, the hypothesis n-grams, the exact
precision, what smoothing or zero/absent-order policy was applied, the weight and the log
term; then the lengths, the brevity penalty and the resolved knobs. With --segments it also
lists every segment's hypothesis length, reference lengths and the reference length chosen.

examples:
  bleu-conformance explain -r ref.txt -i hyp.txt --profile nltk
  bleu-conformance explain -r ref.txt -i hyp.txt --profile mteval-v13a --segments
  bleu-conformance explain -r ref.txt -i hyp.txt --format html > explain.html
"""

from __future__ import annotations

import argparse
import sys
from itertools import tee

from tabulate import tabulate

import bleu_impl
from bleu_impl import BleuError, EmulatedFailure, Pipeline

from ..knobargs import add_knob_arguments, knobs_from
from ..reporters.explanation import render_explanation
from ..reporters.explanation_html import render_explanation_html
from ..textio import TextInputError, parallel_lines

EXIT_CODES = {
    0: "explained",
    1: "the emulated tool fails on this input (e.g. mteval-v13a.pl on an empty system)",
    2: "unreadable or invalid input, line-count mismatch, a bad knob",
}


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
        "--segments", action="store_true", help="also list the reference length chosen per segment"
    )
    parser.add_argument(
        "--format",
        choices=("text", "html"),
        default="text",
        help="text (default) or a self-contained HTML page with per-order precision bars",
    )


def _segment_rows(args: argparse.Namespace, config: bleu_impl.Config) -> list[list[object]]:
    pipeline = Pipeline(config)
    rows = []
    for number, hyp, refs in parallel_lines(args.input, args.ref):
        hyp_len = len(pipeline.segment(hyp))
        ref_lens = [len(pipeline.segment(ref)) for ref in refs]
        stats = bleu_impl.sentence_stats(hyp, refs, config)
        rows.append([number, hyp_len, ",".join(map(str, ref_lens)), stats.ref_len])
    return rows


def run(args: argparse.Namespace) -> int:
    try:
        profile = bleu_impl.get_profile(args.profile)
        config = profile.resolve(knobs_from(args), "corpus")
        first, second = tee(parallel_lines(args.input, args.ref))
        stats = bleu_impl.corpus_stats((h for _, h, _ in first), (r for _, _, r in second), config)
        result = bleu_impl.score_stats(stats, profile=profile, config=config)
        headers = ["line", "hyp_len", "ref lengths", f"chosen ({config.ref_length})"]
        segments = _segment_rows(args, config) if args.segments else []
        if args.format == "html":
            print(render_explanation_html(result, segments, headers), end="")
            return 0
        print(render_explanation(result))
        if args.segments:
            print()
            print(tabulate(segments, headers=headers))
    except TextInputError as exc:
        print(f"bleu-conformance explain: error: {exc}", file=sys.stderr)
        return 2
    except EmulatedFailure as exc:
        print(
            f"bleu-conformance explain: {args.profile} fails ({exc.kind}): {exc}", file=sys.stderr
        )
        return 1
    except BleuError as exc:
        print(f"bleu-conformance explain: error: {exc}", file=sys.stderr)
        return 2
    return 0
