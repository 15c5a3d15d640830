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
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import islice, tee

import bleu_impl
from bleu_impl import BleuError, EmulatedFailure, Pipeline
from bleu_impl.reflength import reference_length

from ..knobargs import add_knob_arguments, knobs_from
from ..reporters import explanation
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


#: Lines tokenized at once for --segments (the batch tokenizers are fastest on chunks).
_CHUNK = 4096


def _headers(config: bleu_impl.Config) -> list[str]:
    return ["line", "hyp_len", "ref lengths", f"chosen ({config.ref_length})"]


def _segment_rows(args: argparse.Namespace, config: bleu_impl.Config) -> Iterator[list[object]]:
    """Per segment: line, hypothesis length, reference lengths and the one chosen --
    streamed (chunks tokenized in batch, lengths only: no n-gram is counted)."""
    pipeline, ref_pipeline = Pipeline(config), Pipeline(config, "reference")
    lines = parallel_lines(args.input, args.ref)
    while chunk := list(islice(lines, _CHUNK)):
        hyps = pipeline.batch([hyp for _, hyp, _ in chunk])
        streams = [
            ref_pipeline.batch([refs[k] for _, _, refs in chunk]) for k in range(len(args.ref))
        ]
        for row, (number, _, _) in enumerate(chunk):
            hyp_len = len(hyps[row])
            ref_lens = [len(stream[row]) for stream in streams]
            chosen = reference_length(config.ref_length, hyp_len, ref_lens)
            yield [number, hyp_len, ",".join(map(str, ref_lens)), chosen]


@contextmanager
def _spooled_stdin(args: argparse.Namespace) -> Iterator[None]:
    """--segments reads the input twice: standard input is copied to a temporary file."""
    if not (args.segments and "-" in (args.input, *args.ref)):
        yield
        return
    if sys.stdin is None or sys.stdin.closed:
        raise TextInputError("<stdin>: standard input is closed")
    with tempfile.NamedTemporaryFile(prefix="bleu-explain-") as spool:
        shutil.copyfileobj(sys.stdin.buffer, spool)
        spool.flush()
        args.input = spool.name if args.input == "-" else args.input
        args.ref = [spool.name if r == "-" else r for r in args.ref]
        yield


def run(args: argparse.Namespace) -> int:
    try:
        with _spooled_stdin(args):
            profile = bleu_impl.get_profile(args.profile)
            config = profile.resolve(knobs_from(args), "corpus")
            first, second = tee(parallel_lines(args.input, args.ref))
            hyps, refs = (h for _, h, _ in first), (r for _, _, r in second)
            stats = bleu_impl.corpus_stats(hyps, refs, config)
            result = bleu_impl.score_stats(stats, profile=profile, config=config)
            segments = _segment_rows(args, config) if args.segments else None
            for piece in explanation(result, args.format, segments, _headers(config)):
                sys.stdout.write(piece)
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
