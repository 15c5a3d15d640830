"""The one message and result model of a conformance run, and its JSON Lines run log.

Three kinds of message cross the harness boundary:

* :class:`Request` - what an implementation is asked: level, knobs and input. It is built
  from a case *without* its expectations, so the expected answer is never handed over.
* :class:`Answer` - what the implementation replied: a score (on the adapter's declared
  scale) with optional statistics, or a :class:`Failure` (the implementation rejected the
  input or died on it, which a case may expect).
* :class:`AdapterError` - the harness could not get an answer at all (timeout, crash of a
  protocol process, garbage output, wrong sequence number, import error...).

A :class:`CaseResult` classifies one (implementation, case) pair. The run log holds one JSON
object per line: a ``run`` header, one ``implementation`` record per adapter, one ``result``
per case, optional ``baseline`` records and an ``end`` trailer. Every report is rendered from
it (:func:`read_run_log`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

LOG_FORMAT = "bleu-conformance-run"
LOG_VERSION = 1

PASS, FAIL, ERROR, SKIP = "pass", "fail", "error", "skip"
XFAIL, FIXED, CHANGED = "xfail", "fixed", "changed"
#: Every outcome, in report order.
OUTCOMES: tuple[str, ...] = (PASS, FAIL, ERROR, SKIP, XFAIL, FIXED, CHANGED)
#: Outcomes that make a run unsuccessful (exit status 1).
UNEXPECTED: frozenset[str] = frozenset({FAIL, ERROR, FIXED, CHANGED})

Text = str | Sequence[str]


@dataclass(frozen=True)
class Request:
    """One question to an implementation. Never carries an expected value."""

    level: str
    config: Mapping[str, Any]
    hypotheses: tuple[Text, ...]
    references: tuple[tuple[Text | None, ...], ...]
    input_format: str = "raw"
    #: knobs the case itself sets (not sent; decides what an adapter must be able to set)
    case_knobs: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, Any]:
        def plain(t: Text | None) -> Any:
            return t if t is None or isinstance(t, str) else list(t)

        return {
            "level": self.level,
            "config": _jsonable(dict(self.config)),
            "input_format": self.input_format,
            "hypotheses": [plain(h) for h in self.hypotheses],
            "references": [[plain(r) for r in refs] for refs in self.references],
        }


@dataclass(frozen=True)
class Failure:
    """The implementation rejected the input or died on it.

    ``kind`` uses the fixtures' error vocabulary when the adapter knows it (bleu_impl's
    EmulatedFailure kinds, or what a protocol adapter reports); ``None`` when it cannot
    tell (an exception type or exit status is then in ``message``).
    """

    kind: str | None
    message: str
    stderr: str = ""


@dataclass(frozen=True)
class Answer:
    """An implementation's reply: a score on the adapter's scale, or a failure."""

    score: float | None = None
    counts: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None
    bp: float | None = None
    hyp_len: int | None = None
    ref_len: float | None = None
    failure: Failure | None = None
    stderr: str = ""

    def reported(self) -> dict[str, Any]:
        """The fields the implementation reported (JSON-friendly)."""
        if self.failure is not None:
            return {"failure": asdict(self.failure)}
        out: dict[str, Any] = {}
        for name in ("score", "counts", "totals", "bp", "hyp_len", "ref_len"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out


class AdapterError(Exception):
    """No usable answer: timeout, crash, garbage, protocol violation, bad configuration."""

    def __init__(self, kind: str, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.stderr = stderr


@dataclass(frozen=True)
class Mismatch:
    """One field that differs: expected vs got, the difference and the tolerance used."""

    field: str
    expected: Any
    got: Any
    delta: float | None = None
    tolerance: float | None = None
    note: str = ""


@dataclass(frozen=True)
class CaseResult:
    """The classified outcome of one case on one implementation."""

    implementation: str
    case_id: str
    file: str
    outcome: str
    reason: str = ""
    expect_key: str = ""
    mismatches: tuple[Mismatch, ...] = ()
    expected: Mapping[str, Any] = field(default_factory=dict)
    got: Mapping[str, Any] = field(default_factory=dict)
    stderr: str = ""
    known_failure: Mapping[str, Any] | None = None
    tags: tuple[str, ...] = ()
    duration: float = 0.0

    @property
    def node_id(self) -> str:
        """``fixtures/<suite>/<file>.yaml::<case-id>`` (pytest-style id)."""
        return f"{self.file}::{self.case_id}" if self.file else self.case_id

    @property
    def unexpected(self) -> bool:
        return self.outcome in UNEXPECTED

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["mismatches"] = [asdict(m) for m in self.mismatches]
        return _jsonable(data)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CaseResult:
        values = {k: v for k, v in data.items() if k in _RESULT_FIELDS}
        values["mismatches"] = tuple(Mismatch(**m) for m in values.get("mismatches", ()))
        values["tags"] = tuple(values.get("tags", ()))
        return cls(**values)


_RESULT_FIELDS = frozenset(CaseResult.__dataclass_fields__)


@dataclass(frozen=True)
class ImplementationInfo:
    """What the run log records about one implementation under test."""

    name: str
    version: str
    spec: str
    signature: str = ""
    expect_key: str = ""
    capabilities: Mapping[str, Any] = field(default_factory=dict)
    startup_error: str = ""


@dataclass
class RunLog:
    """A run log read back: header, implementations, results, baseline movements."""

    header: dict[str, Any] = field(default_factory=dict)
    implementations: list[ImplementationInfo] = field(default_factory=list)
    results: list[CaseResult] = field(default_factory=list)
    baseline: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] = field(default_factory=dict)

    def results_for(self, implementation: str) -> list[CaseResult]:
        return [r for r in self.results if r.implementation == implementation]


def _jsonable(value: Any) -> Any:
    """Tuples to lists, non-finite floats to strings, anything else unknown to ``str``."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and value != value:  # NaN is not JSON
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


class RunLogWriter:
    """Append records to a JSON Lines run log, flushing each line (a crash keeps the log)."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, record: str, payload: Mapping[str, Any]) -> None:
        line = json.dumps({"record": record, **_jsonable(dict(payload))}, sort_keys=True)
        self._stream.write(line + "\n")
        self._stream.flush()

    def header(self, **payload: Any) -> None:
        self.write("run", {"format": LOG_FORMAT, "version": LOG_VERSION, **payload})

    def implementation(self, info: ImplementationInfo) -> None:
        self.write("implementation", asdict(info))

    def result(self, result: CaseResult) -> None:
        self.write("result", result.to_json())

    def baseline(self, movement: Mapping[str, Any]) -> None:
        self.write("baseline", movement)

    def end(self, **payload: Any) -> None:
        self.write("end", payload)


def iter_records(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Parse run-log lines; a truncated last line (an interrupted run) is ignored."""
    pending: str | None = None
    for raw in lines:
        if pending is not None:
            raise ValueError(f"run log: malformed line: {pending[:80]!r}")
        line = raw.strip()
        if not line:
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            pending = line


def read_run_log(path: str | Path) -> RunLog:
    """Read a run log written by :class:`RunLogWriter`."""
    log = RunLog()
    with open(path, encoding="utf-8") as stream:
        for record in iter_records(stream):
            kind = record.pop("record", None)
            if kind == "run":
                if record.get("format") != LOG_FORMAT:
                    raise ValueError(f"{path}: not a bleu-conformance run log")
                if int(record.get("version", 0)) > LOG_VERSION:
                    raise ValueError(
                        f"{path}: run log version {record['version']} is newer than this "
                        f"tool understands ({LOG_VERSION})"
                    )
                log.header = record
            elif kind == "implementation":
                log.implementations.append(ImplementationInfo(**record))
            elif kind == "result":
                log.results.append(CaseResult.from_json(record))
            elif kind == "baseline":
                log.baseline.append(record)
            elif kind == "end":
                log.end = record
    if not log.header:
        raise ValueError(f"{path}: no run header; is this a bleu-conformance run log?")
    return log
