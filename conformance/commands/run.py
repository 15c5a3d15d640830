"""Verify BLEU implementations against the fixture library and report what fails and why.

Each --impl is driven through one adapter interface; a case it cannot express (a knob or
level it lacks) is skipped with the reason before anything is sent, and the expected
answer is never handed to it. Results: pass, fail (field by field: expected, got, delta,
tolerance), error (crash, hang, garbage, the implementation raising), skip, and with a
known-failures file xfail, fixed, changed. Every report can be re-rendered from --output.

Which expected values: by default the implementation's own expectation keys (what the
library recorded for it; papineni2002 for your function), or those named by --expect.
With --as NAME (a profile such as sacrebleu or nltk, or an expectation key) every case is
checked: against the real tool's recorded output where the case has one, else against
bleu_impl's emulation of that tool; each result names the source of its expected value.

implementations (--impl, repeatable):
  nltk | sacrebleu | torchmetrics      the live libraries
  bleu_impl:PROFILE | bleu_impl:KEY     this project's exact BLEU (e.g. bleu_impl:sacrebleu)
  mypkg.metrics:bleu                    your function (hypotheses, references, **config)
  jsonl:'node examples/node-bleu/adapter.js'   a program speaking docs/protocol.md
  my-adapter.yaml                       an adapter file (command templates, e.g. multi-bleu)
  NAME[:ARG]                            an adapter from the bleu_conformance.adapters group

examples:
  bleu-conformance run --impl nltk --impl sacrebleu
  bleu-conformance run --impl mypkg.metrics:bleu --as sacrebleu    # every case, as sacrebleu
  bleu-conformance run --impl mypkg.metrics:bleu --expect 'sacrebleu>=2' -k paper
  bleu-conformance run --impl examples/multi-bleu.yaml --tag perl-groundtruth
  bleu-conformance run --impl sacrebleu --junit-xml junit.xml --output run.jsonl
  bleu-conformance run --impl sacrebleu --baseline bleu-baseline.json --update-baseline
  bleu-conformance run --impl sacrebleu --baseline bleu-baseline.json        # CI: what moved?
  bleu-conformance report run.jsonl --format markdown
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from .. import baseline, known_failures, reporters
from ..adapters import Adapter, make_adapter
from ..cases import Case, ExpectationKey
from ..engine import (
    Reference,
    candidate_keys,
    implementation_info,
    make_reference,
    startup_failure,
    verify_as,
    verify_cases,
)
from ..protocol import AdapterError
from ..results import CaseResult, ImplementationInfo
from ..runlog import RunLogWriter, read_run_log
from .options import (
    EXIT_OK,
    ProgressBar,
    add_impl_argument,
    add_quiet_argument,
    add_report_arguments,
    add_selection_arguments,
    fail,
    load_selected,
    positive_float,
)

EXIT_CODES = {
    0: "nothing unexpected: no fail, error, fixed or changed, no baseline movement (and "
    "always after --update-baseline, which accepts the current state)",
    1: "a fail, error, fixed or changed result, or a moved baseline",
    2: "bad usage, unreadable fixtures or baseline, no case selected",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_impl_argument(parser, required=True)
    add_selection_arguments(parser)
    parser.add_argument(
        "--expect",
        action="append",
        default=[],
        metavar="KEY",
        help="expectation key(s) to check against, first present wins "
        "(default: the adapter's own, e.g. nltk>=3.6.6, sacrebleu>=2; "
        "papineni2002 for your function)",
    )
    parser.add_argument(
        "--as",
        dest="as_reference",
        metavar="NAME",
        help="check every case against NAME (a profile, e.g. sacrebleu, nltk, google-nmt, or "
        "an expectation key): the tool's recorded output where the case has one, else "
        "bleu_impl's emulation of it; each result names its source",
    )
    add_report_arguments(parser, reporters.FORMATS)
    parser.add_argument(
        "--output",
        "-o",
        metavar="RUN.jsonl",
        help="write the run log (JSON Lines) here; re-render it with `bleu-conformance report`",
    )
    parser.add_argument(
        "--known-failures",
        action="append",
        default=[],
        metavar="FILE",
        help="YAML of known failures (case id or glob, reason, link): "
        "they become xfail, and fixed/changed when they move",
    )
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="regression baseline (JSON): report every case whose outcome "
        "or number moved since it was recorded",
    )
    parser.add_argument(
        "--update-baseline",
        action="store_true",
        help="accept the current state: show what moved since --baseline, write this run's "
        "answers to it and exit 0",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        metavar="SECONDS",
        help="per-case timeout for every implementation (a number > 0; default: 30)",
    )
    add_quiet_argument(parser)
    parser.add_argument("--no-progress", dest="quiet", action="store_true", help=argparse.SUPPRESS)


def _open_adapter(spec: str, keys: Mapping[str, ExpectationKey], timeout: float | None) -> Adapter:
    adapter = make_adapter(spec, keys)
    if timeout is not None:
        adapter.capabilities = replace(adapter.capabilities, timeout=timeout)
    return adapter


def _reference(args: argparse.Namespace, keys: Mapping[str, ExpectationKey]) -> Reference | None:
    """The reference of ``--as`` (ValueError when it is unknown or combined with --expect)."""
    if not args.as_reference:
        return None
    if args.expect:
        raise ValueError("--as and --expect both say what to check against: give one")
    return make_reference(args.as_reference, keys)


def execute(args: argparse.Namespace, log_path: Path) -> int | None:
    """Run everything, writing the run log to ``log_path``; an int is an early exit status."""
    try:
        known = known_failures.load_all(args.known_failures)
        loaded, cases = load_selected(args, "run")
        reference = _reference(args, loaded.keys)
    except (AdapterError, ValueError) as exc:
        return fail("run", exc)
    if not cases:
        return fail("run", "no fixture case selected (check -k, --tag and --fixtures)")
    with (
        log_path.open("w", encoding="utf-8") as stream,
        ProgressBar(len(cases) * len(args.impl), "run", enabled=not args.quiet) as bar,
    ):
        log = RunLogWriter(stream)
        log.header(
            argv=sys.argv[1:],
            impls=args.impl,
            cases=len(cases),
            fixtures=args.fixtures or ["(bundled)"],
            reference=reference.describe() if reference else "",
        )
        results: list[CaseResult] = []
        infos: list[ImplementationInfo] = []

        def record(result: CaseResult) -> None:
            log.result(result)
            results.append(result)
            bar.update(1)

        def announce(info: ImplementationInfo) -> None:
            log.implementation(info)
            infos.append(info)

        for spec in args.impl:
            bar.describe(spec)
            _verify(spec, args, (loaded.keys, cases, known, reference), announce, record)
        status = _baseline(args, log, infos, results)
        log.end(status=status)
    return status


Work = tuple[
    Mapping[str, ExpectationKey],
    Sequence[Case],
    Sequence[known_failures.KnownFailure],
    "Reference | None",
]


def _verify(
    spec: str,
    args: argparse.Namespace,
    work: Work,
    announce: Callable[[ImplementationInfo], None],
    record: Callable[[CaseResult], None],
) -> None:
    """Verify one implementation on the cases: ``announce`` its info, then ``record`` each
    result (every case errors when the implementation cannot even be opened)."""
    keys, cases, known, reference = work
    try:
        adapter = _open_adapter(spec, keys, args.timeout)
    except Exception as exc:  # an unusable implementation errors every case
        error = (
            exc
            if isinstance(exc, AdapterError)
            else AdapterError("config", f"{type(exc).__name__}: {exc}")
        )
        announce(ImplementationInfo(name=spec, version="?", spec=spec, startup_error=str(error)))
        for result in startup_failure(spec, error, cases):
            record(result)
        return
    with adapter:
        if reference is not None:
            announce(implementation_info(spec, adapter, [f"as {reference.name}"]))
            verify_as(adapter, cases, reference, known=known, on_result=record)
            return
        announce(
            implementation_info(
                spec, adapter, candidate_keys(adapter.capabilities, keys, args.expect)
            )
        )
        verify_cases(
            adapter,
            cases,
            keys,
            expect=args.expect,
            known=known,
            on_result=record,
            observe=bool(args.baseline),
        )


def _baseline(
    args: argparse.Namespace,
    log: RunLogWriter,
    infos: Sequence[ImplementationInfo],
    results: Sequence[CaseResult],
) -> int | None:
    if not args.baseline:
        if args.update_baseline:
            return fail("run", "--update-baseline needs --baseline FILE")
        return None
    try:
        return _compare_baseline(args, log, infos, baseline.build(infos, results))
    except ValueError as exc:  # an unreadable or foreign baseline file
        return fail("run", exc)


def _compare_baseline(
    args: argparse.Namespace,
    log: RunLogWriter,
    infos: Sequence[ImplementationInfo],
    current: dict,
) -> int | None:
    """Log what moved since the baseline; with --update-baseline, accept it (write the file)
    and make the run's status 0."""
    path = Path(args.baseline)
    subset = bool(args.keywords or args.tags or args.fixtures)
    broken = [i for i in infos if i.startup_error]
    if args.update_baseline and broken:  # not a state to accept: the environment is wrong
        names = ", ".join(f"{i.spec} ({i.startup_error})" for i in broken)
        return fail("run", f"not writing {path}: could not start {names}")
    if not path.exists():
        if args.update_baseline:
            baseline.write(path, current)
            print(f"baseline written: {path} (new)", file=sys.stderr)
            return EXIT_OK
        return fail("run", f"no baseline at {path}; record one with --update-baseline")
    old = baseline.read(path)
    for movement in baseline.diff(old, current, subset=subset):
        log.baseline({**movement, "accepted": bool(args.update_baseline)})
    if not args.update_baseline:
        return None
    baseline.write(path, baseline.merge(old, current) if subset else current)
    print(f"baseline written: {path} (the current state is accepted)", file=sys.stderr)
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    if args.output:
        path = Path(args.output)
        early = execute(args, path)
        if early is not None and not path.exists():
            return early
        status = reporters.emit(read_run_log(path), args.format, args.junit_xml)
    else:
        with tempfile.TemporaryDirectory(prefix="bleu-conformance-") as tmp:
            path = Path(tmp) / "run.jsonl"
            early = execute(args, path)
            if early is not None and not path.exists():
                return early
            status = reporters.emit(read_run_log(path), args.format, args.junit_xml)
    return early if early is not None else status
