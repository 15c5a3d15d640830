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
import json
import sys
from dataclasses import dataclass
from itertools import islice, tee
from typing import Any

from tabulate import tabulate

import bleu_impl
from bleu_impl import BleuError, BleuResult, Config, EmulatedFailure, Profile, iter_segment_stats
from bleu_impl.bulk import parallel_corpus_stats

from ..knobargs import add_knob_arguments, knobs_from
from ..reporters.explain_text import render_explanation
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


@dataclass(frozen=True)
class Scored:
    """One system's outcome: a result, or the error and its exit status."""

    system: str
    result: BleuResult | None = None
    error: str = ""
    status: int = EXIT_OK


def format_score(result: BleuResult, width: int | None = None) -> str:
    """The score on the profile's scale with ``width`` decimals (2 on 0-100, 4 on 0-1)."""
    scale = result.config.scale
    digits = width if width is not None else (2 if scale == 100 else 4)
    return f"{result.score * scale:.{digits}f}"


def format_score_line(result: BleuResult, width: int | None = None) -> str:
    """``BLEU = 50.46 94.4/58.8/43.8/26.7 (BP = 1.000 ratio = 1.000 hyp_len = 18 ...)``."""
    scale = result.config.scale
    precisions = "/".join(
        "-" if p is None else f"{p * scale:.1f}" if scale == 100 else f"{p:.4f}"
        for p in result.precisions
    )
    ref_len = result.ref_len if isinstance(result.ref_len, int) else f"{float(result.ref_len):g}"
    return (
        f"BLEU = {format_score(result, width)} {precisions} (BP = {result.bp:.3f} "
        f"ratio = {result.ratio:.3f} hyp_len = {result.hyp_len} ref_len = {ref_len})"
    )


def _case(config: Config) -> str:
    return "mixed" if config.lowercase is False else f"lc-{config.lowercase}"


def short_signature(profile: Profile, config: Config, level: str, nrefs: int) -> str:
    """sacrebleu-style ``nrefs:1|profile:P|case:mixed|tok:13a|smooth:exp|version:V``, plus
    ``knob:value`` for every knob that differs from the profile's default at ``level``
    (the long signature, with every knob, is ``result.signature``)."""
    default = profile.resolve({}, level).as_dict()
    shown = {
        "nrefs": nrefs,
        "profile": profile.name,
        "case": _case(config),
        "tok": config.tokenize,
        "smooth": config.smoothing,
    }
    headline = {"lowercase", "tokenize", "smoothing"}
    for knob, value in config.as_dict().items():
        if knob not in headline and value != default[knob]:
            shown[knob] = "uniform" if value is None and knob == "weights" else value
    shown["version"] = bleu_impl.__version__
    return "|".join(f"{name}:{_show(value)}" for name, value in shown.items())


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ",".join(f"{v:g}" for v in value)
    return f"{value:g}" if isinstance(value, float) else str(value)


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
    signature = short_signature(profile, config, level, len(refs))
    _print_corpus(args, scored, signature)
    return max(item.status for item in scored)


def _print_corpus(args: argparse.Namespace, scored: list[Scored], signature: str) -> None:
    if args.format == "json":
        for item in scored:
            data = item.result.to_dict() if item.result else {"error": item.error}
            print(json.dumps({"system": item.system, **data, "short_signature": signature}))
        return
    if args.score_only:
        for item in scored:
            print(format_score(item.result, args.width) if item.result else "error")
        return
    if len(scored) == 1 and scored[0].result is not None:
        result = scored[0].result
        print(format_score_line(result, args.width))
        print(f"signature: {signature}")
        if args.verbose:
            print(render_explanation(result))  # the note and the full signature, once
        elif result.note:
            print(f"note: {result.note}")
    elif len(scored) > 1:
        _print_table(args, scored, signature)


def _print_table(args: argparse.Namespace, scored: list[Scored], signature: str) -> None:
    rows = []
    for item in scored:
        if item.result is None:
            rows.append([item.system, "error", item.error])
            continue
        line = format_score_line(item.result, args.width)
        rows.append([item.system, format_score(item.result, args.width), line.split(" ", 3)[3]])
    print(tabulate(rows, headers=["system", "BLEU", "details"], disable_numparse=True))
    print(f"\nsignature: {signature}")
    if args.verbose:
        for item in scored:
            if item.result is not None:
                print(f"\n{item.system}:\n{render_explanation(item.result)}")


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
    signature = short_signature(profile, config, "corpus", len(refs))
    _print_confidence(result, interval, f"{signature}|bs:{interval.samples}", args)
    return EXIT_OK


def _print_confidence(
    result: BleuResult, interval: Any, signature: str, args: argparse.Namespace
) -> None:
    scale = result.config.scale
    digits = args.width if args.width is not None else (2 if scale == 100 else 4)
    text = f"μ = {interval.mean:.{digits}f} ± {interval.half:.{digits}f}"
    signature += f"|seed:{args.confidence_seed}"
    if args.format == "json":
        record = result.to_dict()
        record["confidence"] = {**vars(interval), "seed": args.confidence_seed, "text": text}
        print(json.dumps({**record, "short_signature": signature}, ensure_ascii=False))
        return
    score = format_score(result, args.width)
    if args.score_only:
        print(f"{score} ({text})")
        return
    line = format_score_line(result, args.width)
    print(line.replace(f"BLEU = {score}", f"BLEU = {score} ({text})", 1))
    print(f"signature: {signature}")
    if args.verbose:
        print(render_explanation(result))


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
                _print_sentence(index, result, args)
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
            result = bleu_impl.score_stats(stats, profile=profile, config=config)
        except EmulatedFailure as exc:
            line = {"line": index, "error": exc.kind, "message": str(exc)}
            print(json.dumps(line) if args.format == "json" else f"{index}\terror: {exc}")
            continue
        _print_sentence(index, result, args)


def _print_sentence(index: int, result: BleuResult, args: argparse.Namespace) -> None:
    if args.format == "json":
        print(json.dumps({"line": index, **result.to_dict()}, ensure_ascii=False))
    elif args.score_only:
        print(format_score(result, args.width))
    else:
        print(f"{index}\t{format_score_line(result, args.width)}")
