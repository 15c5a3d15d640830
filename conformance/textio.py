"""Reading parallel text files line by line, with errors that name the file and line.

A path ending in ``.gz`` is decompressed as it is read (as sacrebleu does).
"""

from __future__ import annotations

import gzip
import sys
import zlib
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path

from .bounded import LineReader, TooLarge, bounded_lines


class TextInputError(Exception):
    """A file cannot be read, is not UTF-8, or has the wrong number of lines."""


def _lines(handle: LineReader[bytes], name: str) -> Iterator[str]:
    number = 0
    try:
        for number, raw in enumerate(bounded_lines(handle), start=1):
            yield _decode(raw, name, number)
    except TooLarge as exc:  # /dev/zero, a .gz bomb: never read whole
        raise TextInputError(f"{name}:{exc.line}: {exc}") from None
    except (OSError, EOFError, zlib.error) as exc:  # a read error, a corrupt or truncated .gz
        reason = getattr(exc, "strerror", None) or exc
        raise TextInputError(f"{name}: cannot read after line {number}: {reason}") from None


#: Byte-order marks of the encodings a text file is most often in when it is not UTF-8.
_UTF16_32 = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)
_CONVERT = "the files must be UTF-8 (iconv -f ENCODING -t UTF-8 FILE converts one)"


def _decode(raw: bytes, name: str, number: int) -> str:
    if number == 1:
        for bom, encoding in _UTF16_32:
            if raw.startswith(bom):
                raise TextInputError(
                    f"{name}:1: starts with a {encoding} byte-order mark: the file is "
                    f"{encoding}, not UTF-8; {_CONVERT.replace('ENCODING', encoding)}"
                )
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TextInputError(
            f"{name}:{number}: invalid UTF-8 at byte {exc.start} of the line ({exc.reason}); "
            + _CONVERT
        ) from None
    if "\0" in line:  # valid UTF-8 but no text: UTF-16 without a byte-order mark, or binary
        raise TextInputError(
            f"{name}:{number}: NUL byte at byte {raw.index(0)} of the line: not a text file "
            f"(UTF-16 without a byte-order mark?); {_CONVERT}"
        )
    return line[:-1] if line.endswith("\n") else line


def _open(path: str, stack: ExitStack) -> LineReader[bytes]:
    if path == "-":
        if sys.stdin is None or sys.stdin.closed:
            raise TextInputError("<stdin>: standard input is closed")
        return sys.stdin.buffer
    try:
        if path.endswith(".gz"):
            return stack.enter_context(gzip.open(path, "rb"))
        return stack.enter_context(Path(path).open("rb"))
    except OSError as exc:
        raise TextInputError(f"{path}: cannot read: {exc.strerror or exc}") from None


def parallel_lines(
    hypothesis_path: str, reference_paths: Sequence[str]
) -> Iterator[tuple[int, str, list[str]]]:
    """Yield (line number, hypothesis, references) in lockstep, streaming all files.

    A file that ends before the others is an error naming it and the first missing line.
    """
    names = [hypothesis_path, *reference_paths]
    if names.count("-") > 1:
        roles = [
            "the hypotheses (-i)" if i == 0 else "a reference (-r)"
            for i, n in enumerate(names)
            if n == "-"
        ]
        raise TextInputError(
            f"standard input (-) can be read only once, but {' and '.join(roles)} both use "
            "it; give the others as files (the hypotheses default to standard input)"
        )
    shown = ["<stdin>" if n == "-" else n for n in names]
    with ExitStack() as stack:
        iterators = [_lines(_open(n, stack), s) for n, s in zip(names, shown)]
        number = 0
        while True:
            number += 1
            row = [next(it, None) for it in iterators]
            present = [line is not None for line in row]
            if not any(present):
                return
            if not all(present):
                short = [s for s, p in zip(shown, present) if not p]
                long = [s for s, p in zip(shown, present) if p]
                raise TextInputError(
                    f"line count mismatch: {', '.join(short)} ended after line {number - 1} "
                    f"but {', '.join(long)} continue(s) at line {number}"
                )
            yield number, str(row[0]), [str(line) for line in row[1:]]


def read_lines(path: str) -> list[str]:
    """Every line of ``path`` (UTF-8, ``-`` = stdin, ``.gz`` decompressed), without the
    line ends. TextInputError names the file and line of invalid UTF-8 or a bad gzip."""
    shown = "<stdin>" if path == "-" else path
    with ExitStack() as stack:
        return list(_lines(_open(path, stack), shown))
