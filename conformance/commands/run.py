"""Verify BLEU implementations against the fixture library and report what fails and why.

Each --impl is driven through one adapter interface; a case it cannot express (a knob or
level it lacks) is skipped with the reason before anything is sent, and the expected
answer is never handed to it. Results: pass, fail (field by field: expected, got, delta,
tolerance), error (crash, hang, garbage, the implementation raising), skip, and with a
known-failures file xfail, fixed, changed. Every report can be re-rendered from --output.

implementations (--impl, repeatable):
  nltk | sacrebleu | torchmetrics      the live libraries
  bleu_impl:PROFILE | bleu_impl:KEY     this project's exact BLEU (e.g. bleu_impl:sacrebleu)
  mypkg.metrics:bleu                    your function (hypotheses, references, **config)
  jsonl:'node examples/node-bleu/adapter.js'   a program speaking docs/protocol.md
  my-adapter.yaml                       an adapter file (command templates, e.g. multi-bleu)
  NAME[:ARG]                            an adapter from the bleu_conformance.adapters group

examples:
  bleu-conformance run --impl nltk --impl sacrebleu
  bleu-conformance run --impl mypkg.metrics:bleu --expect 'sacrebleu>=2' -k paper
  bleu-conformance run --impl examples/multi-bleu.yaml --tag perl-groundtruth
  bleu-conformance run --impl sacrebleu --junit-xml junit.xml --output run.jsonl
  bleu-conformance run --impl sacrebleu --baseline bleu-baseline.json        # CI: what moved?
  bleu-conformance run --impl sacrebleu --baseline bleu-baseline.json --update-baseline
  bleu-conformance report run.jsonl --format markdown

exit status: 0 when nothing unexpected happened (no fail, error, fixed or changed, and no
baseline movement), 1 otherwise, 2 for bad usage or unreadable fixtures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from .. import baseline, known_failures, reporters
from ..adapters import Adapter, make_adapter
from ..adapters.base import DEFAULT_EXPECT
from ..cases import ExpectationKey
from ..engine import candidate_keys, implementation_info, startup_failure, verify_cases
from ..protocol import AdapterError
from ..results import CaseResult, ImplementationInfo
from ..runlog import RunLogWriter, read_run_log
from .options import (
    ProgressBar,
    add_impl_argument,
    add_report_arguments,
    add_selection_arguments,
    fail,
    load_selected,
)


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
        help="write this run's answers to --baseline instead of comparing",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="per-case timeout for every implementation (default: 30)",
    )
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is off anyway when stderr is not a terminal)",
    )


def _open_adapter(spec: str, keys: Mapping[str, ExpectationKey], timeout: float | None) -> Adapter:
    adapter = make_adapter(spec, keys)
    if timeout is not None:
        adapter.capabilities = replace(adapter.capabilities, timeout=timeout)
    return adapter


def execute(args: argparse.Namespace, log_path: Path) -> int | None:
    """Run everything, writing the run log to ``log_path``; an int is an early exit status."""
    try:
        known = known_failures.load_all(args.known_failures)
    except ValueError as exc:
        return fail("run", exc)
    loaded, cases = load_selected(args, "run")
    if not cases:
        return fail("run", "no fixture case selected (check -k, --tag and --fixtures)")
    with (
        log_path.open("w", encoding="utf-8") as stream,
        ProgressBar(len(cases) * len(args.impl), "run", enabled=not args.no_progress) as bar,
    ):
        log = RunLogWriter(stream)
        log.header(
            argv=sys.argv[1:],
            impls=args.impl,
            cases=len(cases),
            fixtures=args.fixtures or ["(bundled)"],
        )
        results: list[CaseResult] = []
        infos: list[ImplementationInfo] = []
        for spec in args.impl:
            bar.describe(spec)
            try:
                adapter = _open_adapter(spec, loaded.keys, args.timeout)
            except Exception as exc:  # an unusable implementation errors every case
                error = (
                    exc
                    if isinstance(exc, AdapterError)
                    else AdapterError("config", f"{type(exc).__name__}: {exc}")
                )
                info = ImplementationInfo(
                    name=spec, version="?", spec=spec, startup_error=str(error)
                )
                log.implementation(info)
                infos.append(info)
                for result in startup_failure(spec, error, cases):
                    log.result(result)
                    results.append(result)
                bar.update(len(cases))
                continue
            with adapter:
                keys = candidate_keys(adapter.capabilities, loaded.keys, args.expect)
                if not args.expect:
                    _note_unnamed(spec, adapter, keys, cases)
                info = implementation_info(spec, adapter, keys)
                log.implementation(info)
                infos.append(info)

                def record(result: CaseResult) -> None:
                    log.result(result)
                    results.append(result)
                    bar.update(1)

                verify_cases(
                    adapter,
                    cases,
                    loaded.keys,
                    expect=args.expect,
                    known=known,
                    on_result=record,
                    observe=bool(args.baseline),
                )
        status = _baseline(args, log, infos, results)
        log.end(status=status)
    return status


def _note_unnamed(spec: str, adapter: Adapter, keys: Sequence[str], cases: Sequence) -> None:
    """Say first (stderr) when no expectation names the implementation: it is then checked
    only on the cases of the default expectation, and every other case is skipped."""
    if tuple(adapter.capabilities.expect) != DEFAULT_EXPECT:
        return
    covered = sum(any(k in case.expected for k in keys) for case in cases)
    print(
        f"note: no expectation names {spec}: it is checked against {', '.join(keys)} on "
        f"{covered} of {len(cases)} cases and the other {len(cases) - covered} are skipped "
        "(use --as PROFILE to check it against a profile, or --expect KEY)",
        file=sys.stderr,
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
        return _compare_baseline(args, log, baseline.build(infos, results))
    except ValueError as exc:  # an unreadable or foreign baseline file
        return fail("run", exc)


def _compare_baseline(args: argparse.Namespace, log: RunLogWriter, current: dict) -> int | None:
    path = Path(args.baseline)
    subset = bool(args.keywords or args.tags or args.fixtures)
    if args.update_baseline:
        old = baseline.read(path) if path.exists() and subset else {}
        baseline.write(path, baseline.merge(old, current) if old else current)
        print(f"baseline written: {path}", file=sys.stderr)
        return None
    if not path.exists():
        return fail("run", f"no baseline at {path}; record one with --update-baseline")
    for movement in baseline.diff(baseline.read(path), current, subset=subset):
        log.baseline(movement)
    return None


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
