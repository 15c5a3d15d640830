"""A child's output read with bounded memory, whatever it writes.

An implementation may flood its stderr (gigabytes, without a newline), print one endless
"line" on stdout, or leave a daemon holding its pipes open. The harness reads in chunks and
keeps only what a report can use: :class:`OutputTail` keeps the last bytes of a stream (the
stderr shown next to a case), :func:`pump_lines` hands over protocol lines up to
:data:`MAX_LINE` bytes (a longer one is :data:`TOO_LONG`), and :class:`Capture` keeps the
head of a one-shot command's stdout up to :data:`MAX_OUTPUT` bytes.
"""

from __future__ import annotations

import queue
import re
import threading
from typing import IO, Any

__all__ = [
    "EOF",
    "MAX_LINE",
    "MAX_OUTPUT",
    "TOO_LONG",
    "Capture",
    "MarkedTail",
    "OutputTail",
    "end_mark",
    "pump_lines",
]

#: The longest protocol line read (a hello or an answer is a few kB).
MAX_LINE = 16 * 1024 * 1024
#: The most of a one-shot command's stdout kept (its score line is near the start).
MAX_OUTPUT = 16 * 1024 * 1024
_CHUNK = 64 * 1024
EOF = object()
TOO_LONG = object()


class OutputTail:
    """The last ``limit`` bytes a stream produced, fed by :meth:`pump` (a daemon thread).

    :meth:`mark` and :meth:`since` give what was written between two moments (the stderr
    of one case), with a note when more than the tail was written meanwhile.
    """

    def __init__(self, limit: int = 64 * 1024) -> None:
        self._limit = limit
        self._data = bytearray()
        self._total = 0
        self._lock = threading.Lock()

    def pump(self, stream: IO[bytes]) -> None:
        """Read ``stream`` in chunks until it ends (run in a daemon thread)."""
        try:
            while chunk := stream.read1(_CHUNK):  # type: ignore[attr-defined]
                self.feed(chunk)
        except (OSError, ValueError):  # closed under us: the process is gone
            return

    def feed(self, chunk: bytes) -> None:
        with self._lock:
            self._data += chunk
            self._total += len(chunk)
            if len(self._data) > 2 * self._limit:
                del self._data[: len(self._data) - self._limit]

    def mark(self) -> int:
        """A point in the stream, for :meth:`since`."""
        with self._lock:
            return self._total

    def since(self, mark: int = 0, chars: int = 8000) -> str:
        """At most the last ``chars`` characters written after ``mark`` (with a note
        when more was written)."""
        with self._lock:
            written = self._total - mark
            kept = min(written, len(self._data))
            data = bytes(self._data[len(self._data) - kept :]) if kept > 0 else b""
        text = data.decode("utf-8", "replace")
        shown = text[-chars:]
        if kept == written and len(shown) == len(text):
            return shown
        return f"[... {written:,} bytes written; the last {len(shown):,} characters:]\n{shown}"

    def text(self, chars: int = 8000) -> str:
        """The last ``chars`` characters of the stream."""
        return self.since(0, chars)


_MARK_HEAD = b"\x00bleu-conformance:end:"
_MARK = re.compile(re.escape(_MARK_HEAD) + rb"([0-9]{1,18})\x00")


def end_mark(number: int) -> bytes:
    """The bytes a worker writes on its stderr after reply ``number``'s output (read by
    :class:`MarkedTail`)."""
    return _MARK_HEAD + b"%d\x00" % number


def _partial_mark(tail: bytes) -> bool:
    """Whether ``tail`` (from a NUL to the end of what was read) may be the start of a
    mark whose rest is still in the pipe."""
    if len(tail) <= len(_MARK_HEAD):
        return _MARK_HEAD.startswith(tail)
    rest = tail[len(_MARK_HEAD) :]
    return tail.startswith(_MARK_HEAD) and rest.isdigit() and len(rest) <= 18


class MarkedTail(OutputTail):
    """An :class:`OutputTail` of a stream that carries :func:`end_mark` marks: they are
    taken out of the text, and :meth:`wait_mark` waits until a mark has been read.

    The output a worker prints during a case and the reply to it travel in two pipes read
    by two threads: the reply may arrive before the last of the output has been read. The
    worker writes a mark after the output, before the reply, so waiting for the mark
    attributes every byte to the case that printed it.
    """

    def __init__(self, limit: int = 64 * 1024) -> None:
        super().__init__(limit)
        self._held = b""
        self._reached = 0
        self._seen = threading.Condition(self._lock)

    def feed(self, chunk: bytes) -> None:
        data = self._held + chunk
        reached = 0
        if b"\x00" in data:
            reached = max((int(m.group(1)) for m in _MARK.finditer(data)), default=0)
            if reached:
                data = _MARK.sub(b"", data)
        cut = data.rfind(b"\x00")
        if cut >= 0 and _partial_mark(data[cut:]):
            data, self._held = data[:cut], data[cut:]
        else:
            self._held = b""
        super().feed(data)
        if reached:
            with self._seen:
                self._reached = max(self._reached, reached)
                self._seen.notify_all()

    def wait_mark(self, number: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds until mark ``number`` has been read."""
        with self._seen:
            return self._seen.wait_for(lambda: self._reached >= number, timeout)


def pump_lines(stream: IO[bytes], lines: queue.Queue[Any]) -> None:
    """Put each line of ``stream`` (decoded, replacement characters for bad UTF-8) on
    ``lines``; a line longer than :data:`MAX_LINE` is :data:`TOO_LONG` (and skipped);
    :data:`EOF` at the end."""
    try:
        while line := stream.readline(MAX_LINE + 1):
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                lines.put(TOO_LONG)
                while (rest := stream.readline(_CHUNK)) and not rest.endswith(b"\n"):
                    pass
                continue
            lines.put(line.decode("utf-8", "replace"))
    except (OSError, ValueError):
        pass
    lines.put(EOF)


class Capture:
    """A one-shot command's output: the head of its stdout (up to :data:`MAX_OUTPUT`
    bytes; :attr:`overflow` says more came) and the tail of its stderr, each read by a
    daemon thread that drains the pipe so the command never blocks on a full pipe."""

    def __init__(self, stdout: IO[bytes], stderr: IO[bytes]) -> None:
        self._head = bytearray()
        self.overflow = False
        #: Set when stdout overflows (the command need not be waited for any longer).
        self.overflowed = threading.Event()
        self.stderr = OutputTail()
        self._threads = [
            threading.Thread(target=self._read_head, args=(stdout,), daemon=True),
            threading.Thread(target=self.stderr.pump, args=(stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read_head(self, stream: IO[bytes]) -> None:
        try:
            while chunk := stream.read1(_CHUNK):  # type: ignore[attr-defined]
                room = MAX_OUTPUT - len(self._head)
                if len(chunk) > room:
                    self.overflow = True
                    self.overflowed.set()
                self._head += chunk[: max(room, 0)]
        except (OSError, ValueError):
            return

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for both pipes to close; True when they did."""
        for thread in self._threads:
            thread.join(seconds)
        return not any(thread.is_alive() for thread in self._threads)

    @property
    def stdout(self) -> str:
        return self._head.decode("utf-8", "replace")
