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
--knob NAME=VALUE (repeatable) sets a knob of that reference, as identify prints it.

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
  bleu-conformance run --impl nltk --junit-xml junit.xml --output run.jsonl
  bleu-conformance run --impl sacrebleu --baseline bleu-baseline.json --update-baseline
  bleu-conformance run --impl sacrebleu --baseline bleu-baseline.json        # CI: what moved?
  bleu-conformance report run.jsonl --format markdown
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import reporters
from ..adapters import Adapter, distinct_name, make_adapter
from ..cases import Case, ExpectationKey, LoadResult
from ..engine import (
    Reference,
    candidate_keys,
    expected_by_default,
    implementation_info,
    make_reference,
    startup_failure,
    unknown_expectations,
    verify_cases,
)
from ..engine.verify_as import verify_as
from ..knobargs import add_knob_option
from ..outputs import OutputError, check_distinct, check_writable
from ..protocol import AdapterError, SpecError
from ..results import baseline, known_failures
from ..results.known_failures import KnownFailure
from ..results.log import LogWriter, read_log
from ..results.records import CaseResult, End, ImplementationInfo, Movement, Problem
from .logged import emit, header, log_name, log_path, write_log
from .options import (
    EXIT_OK,
    OneFile,
    ProgressBar,
    add_impl_argument,
    add_quiet_argument,
    add_report_arguments,
    add_selection_arguments,
    fail,
    load_selected,
    positive_float,
    spec_text,
)

EXIT_CODES = {
    0: "nothing unexpected: no fail, error, fixed or changed, no baseline movement (and "
    "always after --update-baseline, which accepts the current state)",
    1: "a fail, error, fixed or changed result, or a moved baseline",
    2: "bad usage, a file that cannot be written, unreadable fixtures or baseline, no case "
    "selected, or problems in the selected fixtures (the other cases still run and are "
    "reported; the cases with a problem are not checked)",
    4: "too little checked to be a verdict: an implementation whose answers were compared "
    "with no expectation, or only with the default one on fewer than half of the cases "
    "(use --as PROFILE or --expect KEY)",
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
        type=spec_text,
        metavar="NAME",
        help="check every case against NAME (a profile, e.g. sacrebleu, nltk, google-nmt, or "
        "an expectation key): the tool's recorded output where the case has one, else "
        "bleu_impl's emulation of it; each result names its source",
    )
    add_knob_option(
        parser,
        "with --as: check against NAME with this knob set (repeatable), e.g. the setting "
        "identify names: --as sacrebleu --knob tokenize=intl",
    )
    add_report_arguments(parser, reporters.FORMATS)
    parser.add_argument(
        "--output",
        "-o",
        metavar="RUN.jsonl",
        action=OneFile,
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
        action=OneFile,
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


def _check_outputs(args: argparse.Namespace) -> None:
    """Every file this run will write can be written (OutputError otherwise), before any
    work; ``--update-baseline`` needs ``--baseline``."""
    if args.update_baseline and not args.baseline:
        raise ValueError("--update-baseline needs --baseline FILE")
    writes = [
        (args.output, "--output"),
        (args.junit_xml, "--junit-xml"),
        (args.baseline if args.update_baseline else None, "--baseline"),
    ]
    for path, what in writes:
        if path:
            check_writable(path, what)
    reads = [(path, "the fixture") for path in args.fixtures or ()]
    reads += [(path, "the known-failures file") for path in args.known_failures or ()]
    reads += [(spec, "the adapter file") for spec in args.impl or () if os.path.isfile(spec)]
    reads.append((None if args.update_baseline else args.baseline, "the baseline"))
    check_distinct(writes, reads)


def _old_baseline(args: argparse.Namespace) -> dict[str, Any] | None:
    """The baseline to compare with (or to merge into), read before the run (ValueError)."""
    if not args.baseline:
        return None
    path = Path(args.baseline)
    if args.update_baseline and not path.exists():
        return None
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

    def __init__(
        self,
        args: argparse.Namespace,
        log: LogWriter,
        bar: ProgressBar,
        reference: Reference | None,
        taken: set[str],
    ) -> None:
        self.args, self.log, self.bar, self.reference = args, log, bar, reference
        self.results: list[CaseResult] = []
        self.infos: list[ImplementationInfo] = []
        self.taken = taken

    def record(self, result: CaseResult) -> None:
        self.log.write(result)
        self.results.append(result)
        self.bar.update(1)

    def announce(self, info: ImplementationInfo) -> None:
        self.log.write(info)
        self.infos.append(info)

    def failed_start(self, spec: str, error: AdapterError, cases: Sequence[Case]) -> None:
        """An implementation that cannot start errors every case (named by its spec)."""
        name = distinct_name(spec, spec, self.taken)
        self.taken.add(name)
        self.announce(
            ImplementationInfo(name=name, version="?", spec=spec, startup_error=str(error))
        )
        for result in startup_failure(name, error, cases):
            self.record(result)

    def verify(
        self,
        spec: str,
        opened: Adapter | AdapterError,
        loaded: LoadResult,
        cases: Sequence[Case],
        known: Sequence[KnownFailure],
    ) -> None:
        args = self.args
        if isinstance(opened, AdapterError):  # an implementation that fails to start
            self.failed_start(spec, opened, cases)
            return
        with opened as adapter:
            keys = candidate_keys(adapter.capabilities, loaded.keys, args.expect)
            unknown = unknown_expectations(keys, loaded.keys)
            reference, why = self.reference, ""
            if reference is None and unknown is not None and not args.expect:
                # no recorded outputs (an old release): checked as its profile would answer
                native = adapter.capabilities.native
                reference = make_reference(native, loaded.keys, {}) if native else None
                why = f", its profile: no outputs of {adapter.capabilities.name} are recorded"
            if reference is not None:
                self.taken.add(adapter.capabilities.name)
                self.announce(implementation_info(spec, adapter, [f"as {reference.name}{why}"]))
                verify_as(adapter, cases, reference, known=known, on_result=self.record)
                return
            if unknown is not None:
                self.failed_start(spec, AdapterError("config", unknown), cases)
                return
            self.taken.add(adapter.capabilities.name)
            by_default = expected_by_default(adapter.capabilities, args.expect)
            self.announce(implementation_info(spec, adapter, keys, by_default=by_default))
            verify_cases(
                adapter,
                cases,
                loaded.keys,
                expect=args.expect,
                known=known,
                on_result=self.record,
                observe=bool(args.baseline),
            )


def _reference(args: argparse.Namespace, keys: Mapping[str, ExpectationKey]) -> Reference | None:
    """The reference of ``--as`` (ValueError when it is unknown or combined with --expect)."""
    if not args.as_reference:
        if args.knob:
            raise ValueError("--knob sets a knob of the --as reference: give --as NAME")
        return None
    if args.expect:
        raise ValueError("--as and --expect both say what to check against: give one")
    return make_reference(args.as_reference, keys, dict(args.knob))


def _prepare(args: argparse.Namespace) -> tuple[list[KnownFailure], LoadResult, list[Case]]:
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


def execute(args: argparse.Namespace, path: Path) -> int | None:
    """Run everything, writing the log to ``path`` as the work goes; the exit status when
    the baseline decides it (the report decides otherwise). ValueError: bad usage, before
    anything is written."""
    known, loaded, cases = _prepare(args)
    try:
        reference = _reference(args, loaded.keys)
    except AdapterError as exc:
        raise ValueError(str(exc)) from None
    old = _old_baseline(args)
    head = header(
        "run",
        args,
        impls=args.impl,
        cases=len(cases),
        fixtures=args.fixtures or ["(bundled)"],
        reference=reference.describe() if reference else "",
    )
    decided: list[int | None] = [None]
    taken: set[str] = set()
    opened = _open_all(args.impl, loaded.keys, args.timeout, taken)

    def work(log: LogWriter) -> None:
        with ProgressBar(len(cases) * len(args.impl), "run", enabled=not args.quiet) as bar:
            for p in loaded.problems:
                log.write(Problem(p.file, p.line, p.case_id, p.rule, p.message))
            state = _Run(args, log, bar, reference, taken)
            for spec, adapter in zip(args.impl, opened):
                bar.describe(spec)
                state.verify(spec, adapter, loaded, cases, known)
            decided[0] = _baseline(args, log, old, state.infos, state.results)
            log.write(End(status=decided[0]))

    try:
        write_log(path, head, work, log_name(args.output))
    finally:
        for adapter in opened:
            if isinstance(adapter, Adapter):
                adapter.close()
    return decided[0]


def _open_all(
    specs: Sequence[str],
    keys: Mapping[str, ExpectationKey],
    timeout: float | None,
    taken: set[str],
) -> list[Adapter | AdapterError]:
    """Every ``--impl`` opened before any case runs: a spec that names nothing usable (a
    typo, a missing adapter file, a library not installed) is bad usage (ValueError, exit
    2, as in ``compare``); one that exists but fails to start errors every case."""
    opened: list[Adapter | AdapterError] = []
    try:
        for spec in specs:
            try:
                adapter = _open_adapter(spec, keys, timeout, taken)
                taken.add(adapter.capabilities.name)  # the next one with this name differs
                opened.append(adapter)
            except SpecError:
                raise
            except Exception as exc:
                error = exc if isinstance(exc, AdapterError) else AdapterError("config", repr(exc))
                opened.append(error)
    except SpecError as exc:
        for item in opened:
            if isinstance(item, Adapter):
                item.close()
        raise ValueError(str(exc)) from None
    return opened


def _baseline(
    args: argparse.Namespace,
    log: LogWriter,
    old: dict[str, Any] | None,
    infos: Sequence[ImplementationInfo],
    results: Sequence[CaseResult],
) -> int | None:
    """Log what moved since the baseline; with --update-baseline, accept the current state
    (write the file; the run's status is 0) unless an implementation could not start."""
    if not args.baseline:
        return None
    path = Path(args.baseline)
    current = baseline.build(infos, results)
    broken = [i for i in infos if i.startup_error]
    if args.update_baseline and broken:  # not a state to accept: the environment is wrong
        names = ", ".join(f"{i.spec} ({i.startup_error})" for i in broken)
        return fail("run", f"not writing {path}: could not start {names}")
    subset = _subset(args)
    for movement in baseline.diff(old, current, subset=subset) if old is not None else ():
        log.write(Movement(**movement, accepted=bool(args.update_baseline)))
    if not args.update_baseline:
        return None
    baseline.write(path, baseline.merge(old, current) if old is not None and subset else current)
    state = "the current state is accepted" if old is not None else "new"
    print(f"baseline written: {path} ({state})", file=sys.stderr)
    return EXIT_OK


def _report(args: argparse.Namespace, path: Path) -> int:
    early = execute(args, path)
    status = emit(read_log(path), args)
    return early if early is not None else status


def run(args: argparse.Namespace) -> int:
    try:
        _check_outputs(args)
        with log_path(args.output) as path:
            return _report(args, path)
    except (ValueError, OutputError) as exc:  # bad usage, or a file that cannot be written
        return fail("run", exc)
