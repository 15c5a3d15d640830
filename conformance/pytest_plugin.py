"""pytest plugin: collect fixture cases as test items for one or more BLEU implementations.

    pytest --bleu-impl=mypkg.metrics:bleu fixtures/
    pytest --bleu-impl=sacrebleu --bleu-impl=nltk fixtures/nltk -k smoothing

Each case of each fixture file becomes an item ``fixtures/<dir>/<file>.yaml::<case-id>``
(``::<case-id>[<impl>]`` with several implementations). A mismatch is FAILED with a
field-by-field table; an adapter error (crash, hang, garbage, the implementation raising
where a score was expected) is ERROR; a case the implementation cannot express is SKIPPED;
a known failure (``--bleu-known-failures``) is XFAIL; an answer holding none of the
expectation's fields is SKIPPED as unchecked. A session in which an implementation was
checked on no case, or only on the default expectation's (nothing says what its BLEU is),
fails with the reason in the summary (:mod:`conformance.results.coverage`). Without
``--bleu-impl`` the plugin does nothing. With ``--bleu-impl`` and no path on the command
line, the bundled fixture library is collected too (``pytest --bleu-impl=mypkg.metrics:bleu``
checks it against every bundled case), besides whatever pytest collects by default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

# Everything else is imported inside the hooks: an installed package must not load
# bleu_impl, regex and yaml into every pytest session that never asks for it.
if TYPE_CHECKING:
    from .adapters import Adapter
    from .cases import Case, ExpectationKey
    from .engine import Reference
    from .protocol import AdapterError
    from .results.records import CaseResult

_STATE = pytest.StashKey["_Session"]()
#: The user property of a case item: (spec, outcome, checked against, by default).
_OUTCOME = "bleu_conformance_outcome"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("bleu-conformance", "BLEU conformance fixtures")
    group.addoption(
        "--bleu-impl",
        action="append",
        default=[],
        metavar="SPEC",
        help="verify this BLEU implementation against fixture YAML files "
        "(nltk, sacrebleu, bleu_impl:PROFILE, pkg.module:function, "
        "jsonl:COMMAND, an adapter file...); repeatable",
    )
    group.addoption(
        "--bleu-expect",
        action="append",
        default=[],
        metavar="KEY",
        help="expectation key(s) to check against (default: the adapter's own)",
    )
    group.addoption(
        "--bleu-as",
        default=None,
        metavar="NAME",
        help="check every case against NAME (a profile or expectation key): the tool's "
        "recorded output where the case has one, else bleu_impl's emulation of it",
    )
    group.addoption(
        "--bleu-known-failures",
        action="append",
        default=[],
        metavar="FILE",
        help="known-failures YAML: matching failures are reported as xfail",
    )
    group.addoption(
        "--bleu-timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="per-case timeout for every implementation",
    )


def _seconds(text: str) -> float:
    """``--bleu-timeout``: as ``--timeout`` (imported when given: plugin start-up stays light)."""
    from .commands.options import positive_float

    return positive_float(text)


class _Session:
    """Adapters opened once per pytest session (lazily), closed at the end."""

    def __init__(self, config: pytest.Config) -> None:
        from .results import known_failures

        self.specs: list[str] = config.getoption("bleu_impl")
        self.expect: list[str] = config.getoption("bleu_expect")
        self.timeout: float | None = config.getoption("bleu_timeout")
        self.as_name: str | None = config.getoption("bleu_as")
        if not all(spec.strip() for spec in self.specs):
            raise pytest.UsageError("--bleu-impl is empty (an unset shell variable?)")
        if self.as_name is not None and not self.as_name.strip():
            raise pytest.UsageError("--bleu-as is empty (an unset shell variable?)")
        if self.as_name and self.expect:
            raise pytest.UsageError("--bleu-as and --bleu-expect both say what to check against")
        self._reference: Reference | None = None
        try:
            self.known = known_failures.load_all(config.getoption("bleu_known_failures"))
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.adapters: dict[str, Adapter | AdapterError] = {}
        self.keys: dict[str, ExpectationKey] = {}  # of every fixture file collected
        # spec -> (outcomes, what it was checked against, by default), from every report
        self.outcomes: dict[str, tuple[list[str], str, bool]] = {}

    def shortfalls(self) -> list[str]:
        """Why the session is no verdict on an implementation (:mod:`..results.coverage`)."""
        from .results.coverage import coverage
        from .results.records import ImplementationInfo

        found = []
        for spec, (outcomes, against, by_default) in self.outcomes.items():
            info = ImplementationInfo(spec, "", spec, expect_key=against, default_expect=by_default)
            found.append(coverage(spec, outcomes, info).shortfall)
        return [s for s in found if s is not None]

    # hooks of the session (registered as a plugin; xdist workers' reports reach the
    # controller's pytest_runtest_logreport with their user_properties)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Tally each case's outcome per implementation."""
        if report.when != "teardown":
            return
        for name, value in report.user_properties:
            if name == _OUTCOME:
                spec, outcome, against, by_default = cast(tuple[str, str, str, bool], value)
                self.outcomes.setdefault(spec, ([], against, by_default))[0].append(outcome)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Fail a session that checked too little to be a verdict."""
        if self.shortfalls() and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        found = self.shortfalls()
        if found:
            terminalreporter.section("bleu-conformance: too little checked", red=True)
            for line in found:
                terminalreporter.line(line)

    def check_names(self) -> None:
        """Once collected: every ``--bleu-expect`` key and the ``--bleu-as`` name exist in
        the fixture files' registry (a usage error, not every case skipped or errored)."""
        if not self.keys:
            return
        unknown = [k for k in self.expect if k not in self.keys]
        if unknown:
            raise pytest.UsageError(
                f"--bleu-expect {', '.join(unknown)}: no such expectation key (known: "
                f"{', '.join(sorted(self.keys))})"
            )
        if self.as_name:
            self.reference(self.keys)

    def adapter(self, spec: str, keys: Mapping[str, ExpectationKey]) -> Adapter | AdapterError:
        from .adapters import make_adapter
        from .protocol import AdapterError

        if spec not in self.adapters:
            try:
                adapter = make_adapter(spec, keys)
                if self.timeout is not None:
                    adapter.capabilities = replace(adapter.capabilities, timeout=self.timeout)
                self.adapters[spec] = adapter
            except AdapterError as exc:
                self.adapters[spec] = exc
        return self.adapters[spec]

    def reference(self, keys: Mapping[str, ExpectationKey]) -> Reference:
        """The reference of ``--bleu-as`` (made once; a bad name is a usage error)."""
        from .engine import make_reference

        if self._reference is None:
            assert self.as_name is not None
            try:
                self._reference = make_reference(self.as_name, keys)
            except ValueError as exc:
                raise pytest.UsageError(str(exc)) from None
        return self._reference

    def close(self) -> None:
        from .adapters import Adapter

        for adapter in self.adapters.values():
            if isinstance(adapter, Adapter):
                adapter.close()


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("bleu_impl"):
        config.stash[_STATE] = _Session(config)
        if not hasattr(config, "workerinput"):  # the controller tallies every case
            config.pluginmanager.register(config.stash[_STATE], "bleu-conformance-session")
        if config.args_source != pytest.Config.ArgsSource.ARGS:
            from .cases.implementations import BUNDLED_ROOT

            config.args = [*config.args, str(BUNDLED_ROOT)]


def pytest_report_header(config: pytest.Config) -> str | None:
    if _STATE not in config.stash:
        return None
    specs = ", ".join(config.getoption("bleu_impl"))
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        return f"bleu-conformance: {specs} on the fixture files given"
    from .cases.implementations import BUNDLED_ROOT

    return f"bleu-conformance: {specs} on the bundled fixture library ({BUNDLED_ROOT})"


def pytest_collection_finish(session: pytest.Session) -> None:
    state = session.config.stash.get(_STATE, None)
    if state is not None:
        state.check_names()


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if _STATE not in parent.config.stash or file_path.suffix not in (".yaml", ".yml"):
        return None
    from .bounded import read_bounded
    from .cases.load import SKIP_FILES

    if file_path.name in SKIP_FILES:
        return None
    try:
        head = read_bounded(file_path).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if "\ncases:" not in f"\n{head}":
        return None
    from .cases.implementations import BUNDLED_ROOT
    from .cases.load import display_path

    if file_path.resolve().is_relative_to(BUNDLED_ROOT):  # named as in every report
        return FixtureFile.from_parent(parent, path=file_path, nodeid=display_path(file_path))
    return FixtureFile.from_parent(parent, path=file_path)


class FixtureFile(pytest.File):
    """A fixture case file: one item per case and implementation."""

    def collect(self) -> Any:
        from .cases import load_fixtures
        from .cases.load import display_path

        loaded = load_fixtures([self.path])
        problems = [p for p in loaded.problems if p.file == display_path(self.path)]
        if problems and not loaded.cases:
            text = "\n".join(f"{p.location}: {p.case_id}: {p.message}" for p in problems)
            raise FixtureProblems(f"fixture problems:\n{text}")
        state = self.config.stash[_STATE]
        state.keys.update(loaded.keys)
        for case in loaded.cases:
            for spec in state.specs:
                name = case.id if len(state.specs) == 1 else f"{case.id}[{spec}]"
                yield CaseItem.from_parent(self, name=name, case=case, spec=spec, keys=loaded.keys)


class FixtureProblems(Exception):
    """The file is a fixture file but no case in it could be loaded."""


class CaseFailure(Exception):
    """A case did not meet its expectation (FAILED), or a known failure moved."""

    def __init__(self, result: CaseResult) -> None:
        super().__init__(result.reason)
        self.result = result


class CaseError(Exception):
    """The implementation could not be asked or did not answer (ERROR)."""

    def __init__(self, result: CaseResult) -> None:
        super().__init__(result.reason)
        self.result = result


class CaseItem(pytest.Item):
    """One case on one implementation."""

    def __init__(
        self, *, case: Case, spec: str, keys: Mapping[str, ExpectationKey], **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.spec = spec
        self.keys = keys
        self.result: CaseResult | None = None
        self.extra_keyword_matches.update(case.tags)  # `-k tag` selects by fixture tag

    def setup(self) -> None:
        from .engine import (
            candidate_keys,
            expected_by_default,
            run_case,
            startup_failure,
        )
        from .engine.verify_as import verify_as
        from .protocol import AdapterError
        from .results.vocab import ERROR, SKIP, UNCHECKED

        state = self.config.stash[_STATE]
        adapter = state.adapter(self.spec, self.keys)
        against, by_default = "", False
        if isinstance(adapter, AdapterError):
            self.result = startup_failure(self.spec, adapter, [self.case])[0]
        elif state.as_name:
            reference = state.reference(self.keys)
            against = f"as {reference.name}"
            (self.result,) = verify_as(adapter, [self.case], reference, known=state.known)
        else:
            candidates = candidate_keys(adapter.capabilities, self.keys, state.expect)
            against = ", ".join(candidates)
            by_default = expected_by_default(adapter.capabilities, state.expect)
            self.result = run_case(adapter, self.case, self.keys, candidates, state.known)
        outcome = self.result.outcome
        self.user_properties.append((_OUTCOME, (self.spec, outcome, against, by_default)))
        if outcome == ERROR:
            raise CaseError(self.result)
        if outcome in (SKIP, UNCHECKED):
            pytest.skip(f"{outcome}: {self.result.reason}")

    def runtest(self) -> None:
        from .results.vocab import CHANGED, FAIL, FIXED, XFAIL

        result = self.result
        assert result is not None
        if result.outcome == XFAIL:
            reason = (result.known_failure or {}).get("reason", "known failure")
            pytest.xfail(f"{reason} ({result.reason})")
        if result.outcome in (FAIL, FIXED, CHANGED):
            raise CaseFailure(result)

    def _describe(self, result: CaseResult) -> str:
        from .reporters.run_text import mismatch_table
        from .results.vocab import CHANGED, FIXED

        lines = [f"{result.implementation}: {result.outcome.upper()} {result.node_id}"]
        if result.expect_key:
            lines.append(f"expected: {result.expect_key}")
        if result.outcome == FIXED:
            lines.append("a known failure now passes: remove it from the known-failures file")
        if result.outcome == CHANGED:
            lines.append("a known failure fails differently than recorded")
        if result.reason and not result.mismatches:
            lines.append(result.reason)
        lines.extend(f"note: {m.note}" for m in result.mismatches if m.note)
        if result.mismatches:
            lines.append(mismatch_table(result))
        if result.stderr.strip():
            lines.append("stderr:\n" + "\n".join(result.stderr.strip().splitlines()[-12:]))
        return "\n".join(lines)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFailure | CaseError):
            return self._describe(excinfo.value.result)
        return super().repr_failure(excinfo)

    def _repr_failure_py(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> Any:
        # setup errors are rendered through here; keep them as readable as failures
        if isinstance(excinfo.value, CaseError):
            return self._describe(excinfo.value.result)
        return super()._repr_failure_py(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, max(self.case.line - 1, 0), f"{self.spec}: {self.case.id}"
