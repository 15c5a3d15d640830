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
baseline movement), 1 otherwise, 2 for bad usage, a file that cannot be written, or a
problem in the selected fixtures (the other cases still run and are reported; the cases
with a problem are not checked), 130 when interrupted (the log so far stays readable).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import baseline, known_failures, reporters
from ..adapters import Adapter, distinct_name, make_adapter
from ..cases import Case, ExpectationKey, LoadResult
from ..engine import (
    candidate_keys,
    implementation_info,
    startup_failure,
    unknown_expectations,
    verify_cases,
)
from ..outputs import OutputError, check_writable
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


def _check_outputs(args: argparse.Namespace) -> None:
    """Every file this run will write can be written (OutputError otherwise), before any
    work; ``--update-baseline`` needs ``--baseline``."""
    if args.update_baseline and not args.baseline:
        raise ValueError("--update-baseline needs --baseline FILE")
    for path, what in (
        (args.output, "--output"),
        (args.junit_xml, "--junit-xml"),
        (args.baseline if args.update_baseline else None, "--baseline"),
    ):
        if path:
            check_writable(path, what)


def _old_baseline(args: argparse.Namespace) -> dict[str, Any] | None:
    """The baseline to compare with (or to merge into), read before the run (ValueError)."""
    if not args.baseline:
        return None
    path = Path(args.baseline)
    if args.update_baseline:
        return baseline.read(path) if path.exists() and _subset(args) else None
    if not path.exists():
        raise ValueError(f"no baseline at {path}; record one with --update-baseline")
    return baseline.read(path)


def _subset(args: argparse.Namespace) -> bool:
    return bool(args.keywords or args.tags or args.fixtures)


def _open_adapter(
    spec: str, keys: Mapping[str, ExpectationKey], timeout: float | None, taken: set[str]
) -> Adapter:
    adapter = make_adapter(spec, keys)
    name = distinct_name(adapter.capabilities.name, spec, taken)
    changes: dict[str, Any] = {"name": name}
    if timeout is not None:
        changes["timeout"] = timeout
    adapter.capabilities = replace(adapter.capabilities, **changes)
    return adapter


class _Run:
    """One run's log, results and progress, filled implementation by implementation."""

    def __init__(self, args: argparse.Namespace, log: RunLogWriter, bar: ProgressBar) -> None:
        self.args, self.log, self.bar = args, log, bar
        self.results: list[CaseResult] = []
        self.infos: list[ImplementationInfo] = []
        self.taken: set[str] = set()

    def record(self, result: CaseResult) -> None:
        self.log.result(result)
        self.results.append(result)
        self.bar.update(1)

    def failed_start(self, spec: str, error: AdapterError, cases: Sequence[Case]) -> None:
        """An implementation that cannot start errors every case (named by its spec)."""
        name = distinct_name(spec, spec, self.taken)
        self.taken.add(name)
        info = ImplementationInfo(name=name, version="?", spec=spec, startup_error=str(error))
        self.log.implementation(info)
        self.infos.append(info)
        for result in startup_failure(name, error, cases):
            self.record(result)

    def verify(self, spec: str, loaded: LoadResult, cases: Sequence[Case], known: Any) -> None:
        args = self.args
        try:
            adapter = _open_adapter(spec, loaded.keys, args.timeout, self.taken)
        except Exception as exc:  # an unusable implementation errors every case
            error = exc if isinstance(exc, AdapterError) else AdapterError("config", repr(exc))
            self.failed_start(spec, error, cases)
            return
        with adapter:
            keys = candidate_keys(adapter.capabilities, loaded.keys, args.expect)
            unknown = unknown_expectations(keys, loaded.keys)
            if unknown is not None:
                self.failed_start(spec, AdapterError("config", unknown), cases)
                return
            self.taken.add(adapter.capabilities.name)
            info = implementation_info(spec, adapter, keys)
            self.log.implementation(info)
            self.infos.append(info)
            verify_cases(
                adapter,
                cases,
                loaded.keys,
                expect=args.expect,
                known=known,
                on_result=self.record,
                observe=bool(args.baseline),
            )


def _prepare(args: argparse.Namespace) -> tuple[Any, LoadResult, list[Case]]:
    """Known failures, fixtures and selected cases (ValueError: bad usage)."""
    known = known_failures.load_all(args.known_failures)
    loaded, cases = load_selected(args, "run")
    if not cases:
        raise ValueError("no fixture case selected (check -k, --tag and --fixtures)")
    unknown = [k for k in args.expect if k not in loaded.keys]
    if unknown:
        raise ValueError(
            f"--expect {', '.join(unknown)}: no such expectation key (known: "
            f"{', '.join(sorted(loaded.keys))})"
        )
    return known, loaded, cases


def execute(args: argparse.Namespace, log_path: Path) -> int | None:
    """Run everything, writing the run log to ``log_path`` as the work goes; the exit status
    when the baseline decides it (the report decides otherwise). ValueError: bad usage,
    before anything is written."""
    known, loaded, cases = _prepare(args)
    old = _old_baseline(args)
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
        for p in loaded.problems:
            log.problem(file=p.file, line=p.line, case=p.case_id, rule=p.rule, message=p.message)
        state = _Run(args, log, bar)
        for spec in args.impl:
            bar.describe(spec)
            state.verify(spec, loaded, cases, known)
        status = _baseline(args, log, old, baseline.build(state.infos, state.results))
        log.end(status=status)
    return status


def _baseline(
    args: argparse.Namespace, log: RunLogWriter, old: dict[str, Any] | None, current: dict
) -> int | None:
    if not args.baseline:
        return None
    path = Path(args.baseline)
    if args.update_baseline:
        baseline.write(path, baseline.merge(old, current) if old else current)
        print(f"baseline written: {path}", file=sys.stderr)
        return None
    assert old is not None
    for movement in baseline.diff(old, current, subset=_subset(args)):
        log.baseline(movement)
    return None


def _report(args: argparse.Namespace, path: Path) -> int:
    try:
        early = execute(args, path)
    except OutputError:
        raise
    except OSError as exc:  # the log's disk is full, or its file vanished
        raise OutputError(f"cannot write the run log {path}: {exc.strerror or exc}") from None
    status = reporters.emit(read_run_log(path), args.format, args.junit_xml)
    return early if early is not None else status


def run(args: argparse.Namespace) -> int:
    try:
        _check_outputs(args)
        if args.output:
            return _report(args, Path(args.output))
        with tempfile.TemporaryDirectory(prefix="bleu-conformance-") as tmp:
            return _report(args, Path(tmp) / "run.jsonl")
    except (ValueError, OutputError) as exc:  # bad usage, or a file that cannot be written
        return fail("run", exc)
