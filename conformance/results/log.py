"""The one JSON Lines log every command writes as it works and every report is rendered from.

Each line is one record (:mod:`.records`): an object whose ``record`` field names its kind,
a ``header`` first (the command, its arguments, the policy) and an ``end`` last; a log
without its end is an interrupted command's, reported as incomplete. Lines are flushed as
they are written, so a crash keeps what was done. Every record is checked against the
published JSON Schema (``conformance/schemas/log.schema.json``) when written and when read;
a malformed line is a ValueError naming the file, the line and the field. Text is kept as
written (reporters escape what they print). Logs of earlier
releases (the run log with a ``run`` header, the compare log with ``kind`` keys) are read
too (:mod:`.legacy`). Files named ``.gz`` are read gzip-compressed.
"""

from __future__ import annotations

import gzip
import json
import threading
import zlib
from collections.abc import Generator, Iterator, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from ..bounded import TooLarge, bounded_lines
from ..contract import LOG_SCHEMA, load_schema, violation
from ..protocol import jsonable
from .codec import from_json
from .legacy import legacy_format, upgrade
from .records import RECORDS, Header
from .report import Report

__all__ = ["LogWriter", "check", "read_log", "records_schema", "utc_now"]


def utc_now() -> str:
    """The time a log records: ``2026-11-27T22:52:49Z``."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def records_schema() -> dict[str, Any]:
    """The log's JSON Schema as shipped."""
    return load_schema(LOG_SCHEMA)


def check(kind: str, data: Mapping[str, Any]) -> None:
    """ValueError naming the field when ``data`` is not a valid ``kind`` record."""
    problem = violation(data, RECORDS[kind].__name__, LOG_SCHEMA, finite=False)
    if problem is not None:
        raise ValueError(f"malformed {kind} record: {problem}")


class LogWriter:
    """Append records to a log, one flushed line each, header first (thread-safe: the corpus
    report asks implementations from several threads)."""

    def __init__(self, stream: IO[str], header: Header) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self.write(header)

    def write(self, record: Any) -> None:
        """Write ``record``; a record its schema refuses is a bug here (AssertionError)."""
        data = {"record": record.KIND, **jsonable(record)}
        try:
            check(record.KIND, data)
        except ValueError as exc:
            raise AssertionError(f"bleu-conformance wrote an invalid log record: {exc}") from None
        line = json.dumps(data, ensure_ascii=False) + "\n"  # mappings keep their order
        with self._lock:
            self._stream.write(line)
            self._stream.flush()


def _lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """The numbered lines of a log (gzip when named ``.gz``); a line beyond
    :data:`~conformance.bounded.MAX_LINE` (``/dev/zero`` named as a log, a gzip bomb) or a
    corrupt gzip file is a ValueError naming the file."""
    compressed = str(path).endswith(".gz")
    opener: Any = gzip.open if compressed else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as stream:
        try:
            yield from enumerate(bounded_lines(stream), start=1)
        except TooLarge as exc:
            raise ValueError(f"{path}:{exc.line}: not a log: {exc}") from None
        except (OSError, EOFError, zlib.error) as exc:
            if not compressed:
                raise
            raise ValueError(f"{path}: not a readable gzip file ({exc})") from None


def _parsed(path: str | Path) -> Generator[tuple[int, dict[str, Any]], None, None]:
    """Each line's JSON object; a truncated last line (an interrupted command) ends it."""
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as exc:  # ValueError: 4,300+ digit integers
            if not line.endswith("\n"):
                return
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)[:100]
            raise ValueError(f"{path}:{number}: not JSON ({reason})") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}:{number}: not a log record: {line[:80]!r}")
        yield number, data


def _record(data: dict[str, Any], legacy: str | None) -> tuple[str, Any] | None:
    """The record of one line (None: a kind of a newer release, skipped); ValueError."""
    if legacy is not None:
        data = upgrade(legacy, data)
    kind = data.get("record")
    if not isinstance(kind, str):
        raise ValueError("no 'record' field naming the record's kind")
    if kind not in RECORDS:
        return None  # a record of a newer version: what this version knows is still read
    check(kind, data)
    return kind, from_json(RECORDS[kind], data)


def _first_line(path: str | Path) -> dict[str, Any]:
    lines = _parsed(path)
    try:
        return next(lines)[1]
    except StopIteration:
        raise ValueError(f"{path}: empty: not a bleu-conformance log") from None
    finally:
        lines.close()


def read_log(path: str | Path) -> Report:
    """The report of the log at ``path`` (any command's, any release's)."""
    first = _first_line(path)
    legacy = legacy_format(first)
    if legacy is None and first.get("record") != "header":
        raise ValueError(f"{path}: no header; is this a bleu-conformance log?")
    report: Report | None = None
    for number, data in _parsed(path):
        try:
            parsed = _record(data, legacy)
            if parsed is None:
                continue
            kind, record = parsed
            if report is None:
                if not isinstance(record, Header):
                    raise ValueError("the first record must be the header")
                if record.version > Header.VERSION:
                    raise ValueError(
                        f"log version {record.version} is newer than this tool understands "
                        f"({Header.VERSION})"
                    )
                report = Report(record)
            else:
                report.add(kind, record, number)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise ValueError(f"{path}:{number}: {exc}") from None
    assert report is not None
    return report
