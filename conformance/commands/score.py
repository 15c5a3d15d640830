"""Score hypothesis files against references: a drop-in for the sacrebleu command (BLEU).

The same command line gives the same text as sacrebleu 2.6.0: `bleu-conformance score REF
-i SYS` prints sacrebleu's JSON (0-100, one decimal, its signature); sacrebleu's flags work
and each is a knob (`--knob NAME=VALUE`, shown in its help). `--profile` changes what is
computed: papineni2002 is the paper's definition (whitespace tokens, 0-1), others reproduce
multi-bleu.perl, mteval, NLTK ... (`bleu-conformance profiles`); their signature names the
profile and this tool's version.

Reads one segment per line (UTF-8; a file ending in .gz is decompressed), streaming.
References are one file per stream, positional (before -i) and/or with -r; several systems
(-i a b c) are scored against the same references.

examples:
  bleu-conformance score ref.txt -i hyp.txt                  # = sacrebleu ref.txt -i hyp.txt
  bleu-conformance score ref.txt -i hyp.txt -f text -tok intl -lc
  bleu-conformance score ref0.txt ref1.txt -i hyp.txt -b -w 2
  bleu-conformance score ref.txt -i hyp.txt -l en-ja          # ja-mecab (extra [ja])
  bleu-conformance score ref.txt -i hyp.txt -sl               # one line per sentence
  bleu-conformance score ref.txt -i sys1.txt sys2.txt --paired-bs
  bleu-conformance score ref.txt -i hyp.txt --profile papineni2002   # the paper, 0-1
  bleu-conformance score ref.txt -i hyp.txt --profile multi-bleu -f text
  bleu-conformance score -r ref.txt -i hyp.txt -f text -v     # every step explained
  bleu-conformance score -r ref.txt --profile sacrebleu < hyp.txt

Not taken from sacrebleu: test sets (-t, --echo, --download), -nr, -e, metrics other than
BLEU, hypotheses split on tabs from standard input; colours are never printed.
"""

from __future__ import annotations

import argparse
import os
import sys
from itertools import islice, tee
from typing import TYPE_CHECKING, Any

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

from ..knobargs import add_knob_arguments, knob_error_text, knobs_from
from ..reporters import score_text
from ..reporters.score_text import Scored, ScoreView
from ..results.vocab import Policy
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

if TYPE_CHECKING:  # the significance records: only with -ci, --paired-bs or --paired-ar
    from ..results.records import Flip, Interval

EXIT_CODES = {
    0: "scored",
    1: "the emulated implementation fails on this input (e.g. mteval-v13a.pl dies on an "
    "empty system)",
    2: "unreadable or invalid input, a line-count mismatch, a bad knob",
}

#: sacrebleu's flags that set a knob: (flags, knob, argparse keywords, help).
KNOB_FLAGS: tuple[tuple[tuple[str, ...], str, dict[str, Any], str], ...] = (
    (("-tok", "--tokenize"), "tokenize", {"metavar": "TOK"}, "tokenizer"),
    (
        ("-lc", "--lowercase"),
        "lowercase",
        {"action": "store_const", "const": True},
        "case-insensitive",
    ),
    (("-s", "--smooth-method"), "smoothing", {"metavar": "METHOD"}, "exp, floor, add-k, none"),
    (
        ("-sv", "--smooth-value"),
        "smoothing_value",
        {"type": float, "metavar": "V"},
        "of floor/add-k",
    ),
)

#: sacrebleu's tokenizer for a target language (-l xx-zh/ja/ko; 13a otherwise).
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

#: The decimals sacrebleu prints by default (-w 1).
SACREBLEU_WIDTH = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "refs", nargs="*", metavar="REF", help="reference files, one per stream (before -i)"
    )
    parser.add_argument(
        "-r", "--ref", action="append", default=[], metavar="FILE", help="a reference file"
    )
    parser.add_argument(
        "-i",
        "--input",
        action="extend",
        nargs="+",
        default=[],
        metavar="FILE",
        help="hypothesis file(s), one system each (default: standard input)",
    )
    add_knob_arguments(parser, default="sacrebleu")
    flags = parser.add_argument_group("sacrebleu's flags (each a knob)")
    for names, knob, keywords, meaning in KNOB_FLAGS:
        value = "true" if keywords.get("action") == "store_const" else keywords["metavar"]
        flags.add_argument(
            *names, dest=knob, default=None, help=f"{meaning}: --knob {knob}={value}", **keywords
        )
    flags.add_argument(
        "-l",
        "--language-pair",
        metavar="SRC-TGT",
        help="the tokenizer for the target language when -tok is not given (zh, ja-mecab, "
        "ko-mecab, else 13a): --knob tokenize=...",
    )
    flags.add_argument("-m", "--metrics", nargs="+", choices=["bleu"], help="BLEU only")
    flags.add_argument(
        "-f",
        "--format",
        choices=("json", "text"),
        default=None,
        help="json (default, or $SACREBLEU_FORMAT) or text; -sl prints text unless -f json",
    )
    flags.add_argument(
        "-sl",
        "--sentence-level",
        "--sentence",
        dest="sentence",
        action="store_true",
        help="one score per sentence (the profile's sentence-level knobs)",
    )
    flags.add_argument("-b", "--score-only", action="store_true", help="print only the score")
    flags.add_argument(
        "-w",
        "--width",
        type=int,
        choices=range(0, 17),
        default=None,
        metavar="N",
        help="decimals (0-16; default 1 as sacrebleu; 2 for other 0-100 profiles, 4 on 0-1)",
    )
    flags.add_argument("-sh", "--short", action="store_true", help="the short signature")
    flags.add_argument(
        "-ci", "--confidence", action="store_true", help="bootstrap mean and 95%% interval"
    )
    flags.add_argument(
        "-cin", "--confidence-n", type=resample_count, default=1000, metavar="N", help="(1000)"
    )
    flags.add_argument(
        "--confidence-seed",
        type=non_negative_int,
        default=12345,
        metavar="N",
        help="seed of the resampling (12345, sacrebleu's SACREBLEU_SEED default)",
    )
    paired = flags.add_mutually_exclusive_group()
    paired.add_argument(
        "-pbs", "--paired-bs", action="store_true", help="paired bootstrap test (2+ systems)"
    )
    paired.add_argument(
        "-par", "--paired-ar", action="store_true", help="paired approximate randomization"
    )
    flags.add_argument(
        "-pbsn", "--paired-bs-n", type=resample_count, default=1000, metavar="N", help="(1000)"
    )
    flags.add_argument(
        "-parn", "--paired-ar-n", type=resample_count, default=10000, metavar="N", help="(10000)"
    )
    for names in (("-q", "--quiet"), ("-nc", "--no-color"), ("--force",)):
        flags.add_argument(*names, action="store_true", help="accepted; changes nothing here")
    parser.add_argument(
        "--jobs",
        type=jobs_count,
        default=1,
        metavar="N",
        help="count n-grams in N processes and merge the statistics (identical result)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also explain the corpus score: per-order counts, smoothing, BP, every knob",
    )


def knobs_of(args: argparse.Namespace) -> dict[str, Any]:
    """The knobs set by sacrebleu's flags, then by ``--knob`` (which wins)."""
    knobs = {knob: getattr(args, knob) for _, knob, _, _ in KNOB_FLAGS}
    if args.language_pair and knobs["tokenize"] is None:
        target = args.language_pair.rpartition("-")[2]
        knobs["tokenize"] = LANGUAGE_TOKENIZERS.get(target, "13a")
    return {**{k: v for k, v in knobs.items() if v is not None}, **knobs_from(args)}


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


def _usage_problem(args: argparse.Namespace, refs: list[str], systems: list[str]) -> str:
    paired = args.paired_bs or args.paired_ar
    problems = [
        (not refs, "no reference file: give them as REF arguments (before -i) or with -r FILE"),
        ("-" in refs, "references cannot be read from standard input; give files"),
        (args.sentence and len(systems) > 1, "-sl scores one system; got -i with several"),
        (args.sentence and (args.confidence or paired), "no statistical test with -sl"),
        (paired and len(systems) < 2, "paired tests need two or more systems (-i A B ...)"),
        (args.confidence and len(systems) > 1, "-ci scores one system; for several, --paired-bs"),
        (len(set(systems)) < len(systems), "a system is given twice in -i"),
    ]
    return next((message for bad, message in problems if bad), "")


def _waiting_for_stdin(systems: list[str]) -> bool:
    """Whether the hypotheses come from a terminal (nothing piped in)."""
    return systems == ["-"] and sys.stdin is not None and sys.stdin.isatty()


def run(args: argparse.Namespace) -> int:
    refs = [*args.refs, *args.ref]
    systems = args.input or ["-"]
    problem = _usage_problem(args, refs, systems)
    if problem:
        return fail("score", problem)
    level = "sentence" if args.sentence else "corpus"
    try:
        profile = bleu_impl.get_profile(args.profile)
        config = profile.resolve(knobs_of(args), level)
    except BleuError as exc:
        return fail("score", knob_error_text(exc, args.profile))
    if _waiting_for_stdin(systems):
        print(
            "bleu-conformance score: reading the hypotheses from the terminal (no -i); "
            "end with Ctrl-D",
            file=sys.stderr,
        )
    view = _view(args, profile)
    signature = bleu_impl.signature(
        profile.name, config, nrefs=len(refs), level=level, short=args.short and not view.json
    )
    if args.sentence:
        return _sentences(args, refs, profile, config, signature, view)
    if args.confidence or args.paired_bs or args.paired_ar:
        return _run_tests(systems, refs, profile, config, args, signature, view)
    scored = [_score_system(system, refs, profile, config, args.jobs) for system in systems]
    for item in scored:
        if item.error:
            print(f"bleu-conformance score: error: {item.error}", file=sys.stderr)
    sys.stdout.write(score_text.systems(scored, signature, view))
    return max(item.status for item in scored)


def _view(args: argparse.Namespace, profile: Profile) -> ScoreView:
    fmt = args.format or os.environ.get("SACREBLEU_FORMAT", "").lower()
    json_out = fmt == "json" if args.sentence else fmt != "text"
    width = args.width
    if width is None and profile.name == "sacrebleu":
        width = SACREBLEU_WIDTH
    return ScoreView(json_out, args.score_only, width, args.verbose, args.short)


def _read(system: str, refs: list[str]) -> tuple[list[str], list[list[str]]]:
    lines = list(parallel_lines(system, refs))
    return [hyp for _, hyp, _ in lines], [r for _, _, r in lines]


def _resampled(
    systems: list[str], refs: list[str], profile: Profile, config: Config, policy: Policy, test: str
) -> tuple[list[BleuResult], dict[str, Interval], list[Flip]]:
    """Each system's result, bootstrap interval (0-100) and test against the first, computed
    as the corpus report computes its significance section, for one implementation."""
    from bleu_impl.bulk import SharedCounts

    from ..cases import Case
    from ..engine.corpus import significance as tests
    from ..engine.corpus.paths import Reproduction
    from ..engine.corpus.tables import TableCache
    from ..engine.corpus.verdicts import against_first

    cache = TableCache([Case.from_texts(s, *_read(s, refs)) for s in systems], SharedCounts())
    results = [cache.result(k, config, profile.name) for k in range(len(systems))]
    observed = {k: r.score for k, r in enumerate(results)}
    rep = {profile.name: Reproduction(config, profile.name, "native", scores=observed)}
    sig = tests.significance(cache, rep, {profile.name: list(observed)}, policy, test)
    if sig.errors:
        raise sig.errors[profile.name]
    scores = {profile.name: {s: 100 * observed[k] for k, s in enumerate(systems)}}
    p_value = tests.p_values(sig, cache, rep, policy, test)
    versus = against_first(scores, p_value, systems, policy)
    return results, tests.named_intervals(sig, systems)[profile.name], versus


def _run_tests(
    systems: list[str],
    refs: list[str],
    profile: Profile,
    config: Config,
    args: argparse.Namespace,
    signature: str,
    view: ScoreView,
) -> int:
    """sacrebleu's -ci (one system's bootstrap mean and 95% interval) and --paired-bs /
    --paired-ar (each system against the first, the baseline)."""
    test = "paired-ar" if args.paired_ar else "paired-bs"
    n = args.paired_bs_n if args.paired_bs else args.confidence_n
    policy = Policy(resamples=n, trials=args.paired_ar_n, seed=args.confidence_seed)
    try:
        results, intervals, versus = _resampled(systems, refs, profile, config, policy, test)
    except TextInputError as exc:
        return fail("score", exc)
    except EmulatedFailure as exc:
        return fail("score", f"{profile.name} fails on this input ({exc.kind}): {exc}", 1)
    except BleuError as exc:
        return fail("score", exc)
    seed = f"{'rs' if args.short else 'seed'}:{policy.seed}"
    if args.confidence:
        tests = score_text.with_tests(signature, f"bs:{n}|{seed}")
        print(score_text.confidence(results[0], intervals[systems[0]], tests, view))
        return EXIT_OK
    n = args.paired_ar_n if args.paired_ar else n
    signature = bleu_impl.signature(profile.name, config, nrefs=len(refs), short=args.short)
    tests = score_text.with_tests(signature, f"{test[-2:]}:{n}|{seed}")
    scores = {s: r.score * config.scale for s, r in zip(systems, results)}
    shown = {} if args.paired_ar else intervals
    sys.stdout.write(score_text.paired(scores, shown, versus, tests, view, n, config.scale))
    return EXIT_OK


#: Lines scored per ``sentence_scores`` call (memory stays bounded).
SENTENCE_BATCH = 4096


def _sentences(
    args: argparse.Namespace,
    refs: list[str],
    profile: Profile,
    config: Config,
    signature: str,
    view: ScoreView,
) -> int:
    try:
        first, second = tee(parallel_lines(args.input[0] if args.input else "-", refs))
        hyps = (hyp for _, hyp, _ in first)
        ref_lines = (r for _, _, r in second)
        return _print_sentences(hyps, ref_lines, profile, knobs_of(args), signature, view)
    except TextInputError as exc:
        return fail("score", exc)
    except BleuError as exc:
        return fail("score", exc)


def _print_sentences(
    hyps: Any,
    refs: Any,
    profile: Profile,
    knobs: dict[str, Any],
    signature: str,
    view: ScoreView,
) -> int:
    """Every line's sentence BLEU, scored in batches by ``sentence_scores``; a batch with a
    failing line goes line by line, so the lines before it print and the later ones are
    scored."""
    pairs = zip(hyps, refs)
    done = 0
    while batch := list(islice(pairs, SENTENCE_BATCH)):
        batch_hyps, batch_refs = [h for h, _ in batch], [r for _, r in batch]
        try:
            results: list[BleuResult | EmulatedFailure] = list(
                bleu_impl.sentence_scores(
                    batch_hyps, batch_refs, profile=profile, statistics=True, **knobs
                )
            )
        except BleuError:
            results = _one_by_one(batch_hyps, batch_refs, profile, knobs)
        for index, result in enumerate(results, start=done + 1):
            print(score_text.sentence(index, result, signature, view))
        done += len(batch)
    return 0


def _one_by_one(
    hyps: Any, refs: Any, profile: Profile, knobs: dict[str, Any]
) -> list[BleuResult | EmulatedFailure]:
    config = profile.resolve(knobs, "sentence")
    results: list[BleuResult | EmulatedFailure] = []
    for stats in iter_segment_stats(hyps, refs, config):
        try:
            results.append(bleu_impl.score_stats(stats, profile=profile, config=config))
        except EmulatedFailure as exc:
            results.append(exc)
    return results
