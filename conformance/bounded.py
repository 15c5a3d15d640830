"""Reading an input file with a bound on what is held in memory.

A file named on the command line may be a device that never ends (``/dev/zero``), a named
pipe fed by one, or a compressed file that expands to gigabytes without a line end (a
``.gz`` bomb). Read whole, or line by line with Python's unbounded ``readline``, such a file
exhausts memory before any check sees its first byte. These readers stop at a bound and say
so (:class:`TooLarge`, an ``OSError``, so that every caller's "cannot read" path reports it
with the file's name).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import AnyStr, Protocol, TypeVar

__all__ = ["MAX_FILE", "MAX_LINE", "LineReader", "TooLarge", "bounded_lines", "read_bounded"]

_Line = TypeVar("_Line", str, bytes, covariant=True)

#: The largest file read whole (case files, known failures, adapter files): the biggest
#: bundled case file is 0.5 MB.
MAX_FILE = 64 * 1024 * 1024
#: The longest line of a text or log file read line by line (a corpus segment, a log
#: record): a 100 MB segment is scored; /dev/zero stops here.
MAX_LINE = 256 * 1024 * 1024


class TooLarge(OSError):
    """A file (or its line ``line``) beyond the bound: never read to its end."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.strerror = message
        self.line = line
        self.message = message

    def __str__(self) -> str:
        return self.message


def _mib(size: int) -> str:
    return f"{size // 2**20} MiB"


def read_bounded(path: str | Path, limit: int = MAX_FILE) -> bytes:
    """The bytes of ``path``; TooLarge when it holds more than ``limit`` bytes."""
    with Path(path).open("rb") as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(
            f"larger than {_mib(limit)} (a device such as /dev/zero, or not the file meant?)"
        )
    return data


class LineReader(Protocol[_Line]):
    """What :func:`bounded_lines` reads: a text or binary file, a ``gzip.GzipFile``."""

    def readline(self, size: int = -1, /) -> _Line: ...


def bounded_lines(stream: LineReader[AnyStr], limit: int = MAX_LINE) -> Iterator[AnyStr]:
    """The lines of ``stream`` (with their line ends); TooLarge at a line longer than
    ``limit`` bytes or characters, which is never read whole."""
    number = 0
    while line := stream.readline(limit + 1):
        number += 1
        if len(line) > limit:
            raise TooLarge(
                f"a line longer than {_mib(limit)} (a device such as /dev/zero, a "
                "compressed file that expands without line ends, or not a text file?)",
                number,
            )
        yield line
