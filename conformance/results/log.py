"""The two JSON Lines logs every report is rendered from, written as the work goes.

* The **run log** of ``run`` (format ``bleu-conformance-run``): a ``run`` header, one
  ``problem`` record per fixture problem, one ``implementation`` record per adapter, one
  ``result`` per case, optional ``baseline`` records and an ``end`` trailer; each line is a
  JSON object with a ``record`` key.
* The **compare log** of ``compare`` (kind ``bleu-conformance-compare``): a header, one
  ``implementation`` record per implementation and one ``pair`` record per (case, pair of
  implementations); each line has a ``kind`` key.

Both are flushed line by line, so an interrupted run keeps what it had; a truncated last
line is ignored when read back, and a log without its end is reported as incomplete.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from ..bounded import TooLarge, bounded_lines
from ..protocol import jsonable
from .logshapes import COMPARE_RECORDS, RUN_RECORDS, checked
from .records import CaseResult, ImplementationInfo

__all__ = [
    "COMPARE_LOG_KIND",
    "RUN_LOG_FORMAT",
    "CompareLog",
    "CompareLogWriter",
    "RunLog",
    "RunLogWriter",
    "read_compare_log",
    "read_run_log",
]

RUN_LOG_FORMAT = "bleu-conformance-run"
RUN_LOG_VERSION = 1
COMPARE_LOG_KIND = "bleu-conformance-compare"
#: Version 2 adds the ``end`` record; version 1 logs (no ``end``) are read as complete.
COMPARE_LOG_VERSION = 2


@dataclass
class RunLog:
    """A run log read back: header, implementations, results, baseline movements."""

    header: dict[str, Any] = field(default_factory=dict)
    implementations: list[ImplementationInfo] = field(default_factory=list)
    results: list[CaseResult] = field(default_factory=list)
    baseline: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] = field(default_factory=dict)
    problems: list[dict[str, Any]] = field(default_factory=list)

    def results_for(self, implementation: str) -> list[CaseResult]:
        return [r for r in self.results if r.implementation == implementation]

    @property
    def complete(self) -> bool:
        """False when the run was interrupted before its ``end`` record."""
        return bool(self.end)


class RunLogWriter:
    """Append records to a JSON Lines run log, flushing each line (a crash keeps the log)."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, record: str, payload: Mapping[str, Any]) -> None:
        line = json.dumps({"record": record, **jsonable(dict(payload))}, sort_keys=True)
        self._stream.write(line + "\n")
        self._stream.flush()

    def header(self, **payload: Any) -> None:
        self.write("run", {"format": RUN_LOG_FORMAT, "version": RUN_LOG_VERSION, **payload})

    def implementation(self, info: ImplementationInfo) -> None:
        self.write("implementation", asdict(info))

    def result(self, result: CaseResult) -> None:
        self.write("result", result.to_json())

    def problem(self, **payload: Any) -> None:
        """A fixture problem (file, line, case, rule, message): the run is not a verdict."""
        self.write("problem", payload)

    def baseline(self, movement: Mapping[str, Any]) -> None:
        self.write("baseline", movement)

    def end(self, **payload: Any) -> None:
        self.write("end", payload)


def _check_run_header(record: Mapping[str, Any], path: str | Path) -> None:
    if record.get("format") != RUN_LOG_FORMAT:
        raise ValueError(f"{path}: not a bleu-conformance run log")
    if record.get("version", 0) > RUN_LOG_VERSION:
        raise ValueError(
            f"{path}: run log version {record['version']} is newer than this "
            f"tool understands ({RUN_LOG_VERSION})"
        )


def _result(record: dict[str, Any]) -> CaseResult:
    """A result record, its mismatches and known-failure entry checked too."""
    record = checked(RUN_RECORDS, "result", record)
    record["mismatches"] = [
        checked(RUN_RECORDS, "mismatch", m) for m in record.get("mismatches", ())
    ]
    if record.get("known_failure") is not None:
        checked(RUN_RECORDS, "known_failure", record["known_failure"])
    return CaseResult.from_json(record)


def _add_run_record(log: RunLog, kind: Any, record: dict[str, Any], path: str | Path) -> None:
    if kind not in RUN_RECORDS:
        return  # a record of a newer version: what this version knows is still read
    if kind == "result":
        log.results.append(_result(record))
        return
    record = checked(RUN_RECORDS, kind, record)
    if kind == "run":
        if log.header:
            raise ValueError("a second run header (two runs written into one file?)")
        _check_run_header(record, path)
        log.header = record
    elif kind == "implementation":
        known = ImplementationInfo.__dataclass_fields__
        log.implementations.append(
            ImplementationInfo(**{k: record[k] for k in record if k in known})
        )
    elif kind == "baseline":
        log.baseline.append(record)
    elif kind == "problem":
        log.problems.append(record)
    elif kind == "end":
        log.end = record or {"status": None}


def _check_first(
    result: CaseResult, first: dict[tuple[str, str, str], int], path: str | Path, number: int
) -> None:
    """``result`` (on line ``number``) is the first of its case and implementation
    (``first``: the line of each seen)."""
    key = (result.implementation, result.file, result.case_id)
    if key in first:
        raise ValueError(
            f"{path}:{number}: run log: a second result for case {result.case_id} of "
            f"{result.implementation} (the first is on line {first[key]}); was the log "
            "edited, or written by two runs at once?"
        )
    first[key] = number


def _log_lines(path: str | Path) -> list[tuple[int, str]]:
    """The numbered lines of a log, gzip-compressed when named ``.gz`` as text inputs are
    (only the last can lack its line end); a line beyond
    :data:`~conformance.bounded.MAX_LINE` (``/dev/zero`` named as a log, a gzip bomb) is a
    ValueError naming the file and line, never read whole; so is a corrupt or truncated
    gzip file."""
    compressed = str(path).endswith(".gz")
    opener: Any = gzip.open if compressed else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as stream:
        try:
            return list(enumerate(bounded_lines(stream), start=1))
        except TooLarge as exc:
            raise ValueError(f"{path}:{exc.line}: not a log: {exc}") from None
        except (OSError, EOFError, zlib.error) as exc:
            if not compressed:
                raise
            raise ValueError(f"{path}: not a readable gzip file ({exc})") from None


def read_run_log(path: str | Path) -> RunLog:
    """Read a run log written by :class:`RunLogWriter`; a malformed record is a ValueError
    naming the file and line (a truncated last line is an interrupted run: ignored)."""
    log = RunLog()
    first: dict[tuple[str, str, str], int] = {}  # each result's line, by what it is about
    for number, line in _log_lines(path):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:  # ValueError: 4,300+ digit integers
            if not line.endswith("\n"):
                break  # the last line of an interrupted run
            raise ValueError(f"{path}:{number}: run log: not JSON ({exc})") from None
        if not isinstance(record, dict):
            raise ValueError(f"{path}:{number}: run log: not a record: {line[:80]!r}")
        if record.get("kind") == COMPARE_LOG_KIND:
            raise ValueError(f"{path}: a compare log: render it with `compare --replay {path}`")
        try:
            _add_run_record(log, record.pop("record", None), record, path)
        except (TypeError, ValueError, KeyError) as exc:
            raise ValueError(f"{path}:{number}: run log: malformed record ({exc})") from None
        if len(log.results) > len(first):
            _check_first(log.results[-1], first, path, number)
    if not log.header:
        raise ValueError(f"{path}: no run header; is this a bleu-conformance run log?")
    return log


@dataclass
class CompareLog:
    """A comparison read back: header, implementations and pair records."""

    header: dict[str, Any] = field(default_factory=dict)
    implementations: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """False for a log whose run was interrupted before its ``end`` record."""
        return bool(self.end) or self.header.get("version") == 1


class CompareLogWriter:
    """Write a compare log line by line (flushed), header first."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def _write(self, record: Mapping[str, Any]) -> None:
        self._stream.write(json.dumps(jsonable(dict(record)), ensure_ascii=False) + "\n")
        self._stream.flush()

    def header(self, **payload: Any) -> None:
        self._write({"kind": COMPARE_LOG_KIND, "version": COMPARE_LOG_VERSION, **payload})

    def implementation(self, info: Mapping[str, Any]) -> None:
        self._write({"kind": "implementation", **info})

    def pair(self, record: Mapping[str, Any]) -> None:
        self._write({**record, "kind": "pair"})

    def end(self, **payload: Any) -> None:
        self._write({"kind": "end", **payload})


def _add_compare_record(log: CompareLog, record: Any, where: str) -> None:
    if isinstance(record, dict) and record.get("record") == "run":
        raise ValueError(f"{where}: a run log: render it with `report`")
    kind = record.pop("kind", None) if isinstance(record, dict) else None
    name = "header" if kind == COMPARE_LOG_KIND else kind
    if not isinstance(name, str) or name not in COMPARE_RECORDS:
        raise ValueError(f"{where}: unknown record kind {kind!r}")
    try:
        record = checked(COMPARE_RECORDS, name, record)
    except ValueError as exc:
        raise ValueError(f"{where}: malformed {name} record ({exc})") from None
    if name == "header":
        if record.get("version") not in (1, COMPARE_LOG_VERSION):
            raise ValueError(f"{where}: unsupported log version")
        log.header = record
    elif name == "implementation":
        log.implementations.append(record)
    elif name == "pair":
        log.pairs.append({"kind": "pair", **record})
    else:
        log.end = record


def _check_first_pair(
    pair: Mapping[str, Any], first: dict[tuple[Any, ...], int], path: str | Path, number: int
) -> None:
    """``pair`` (on line ``number``) is the first of its case and pair of implementations: a
    second one would be counted twice in every report."""
    key = (pair.get("file"), pair.get("item"), pair.get("a"), pair.get("b"))
    if key in first:
        raise ValueError(
            f"{path}:{number}: a second pair record for case {pair.get('item')} of "
            f"{pair.get('a')} vs {pair.get('b')} (the first is on line {first[key]}); was the "
            "log edited, or written by two commands at once?"
        )
    first[key] = number


def read_compare_log(path: str | Path) -> CompareLog:
    """Read a compare log; a malformed line is an error naming the file and line."""
    log = CompareLog()
    first: dict[tuple[Any, ...], int] = {}  # (file, item, a, b) -> the line of its pair
    for number, line in _log_lines(path):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:  # ValueError: 4,300+ digit integers
            if not line.endswith("\n"):
                break  # the last line of an interrupted run
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)[:100]
            raise ValueError(f"{path}:{number}: not JSON ({reason})") from None
        pairs = len(log.pairs)
        _add_compare_record(log, record, f"{path}:{number}")
        if len(log.pairs) > pairs:
            _check_first_pair(log.pairs[-1], first, path, number)
    if not log.header:
        raise ValueError(f"{path}: not a bleu-conformance compare log (no header)")
    return log
