"""Run an in-process adapter (a user's function, a live library) in a worker process.

Whatever the implementation does stays in its worker: ``sys.exit``, ``os._exit``, a
segfault, ``KeyboardInterrupt``, an endless loop or a print to stdout. The harness keeps
:class:`WorkerAdapter`, which forwards each ``check`` and ``run`` and waits at most the
timeout; a worker that dies or hangs is killed with its whole process group (see
:mod:`.processes`), the case becomes an :class:`AdapterError` (``crash``/``timeout``), and
the next case starts a fresh worker. One worker per implementation, not per case.

The worker (``python -m conformance.adapters.worker``) talks over its stdin/stdout in
length-prefixed pickles, first moving those two descriptors out of the implementation's
reach: fd 0 reads ``/dev/null`` and fd 1 writes to stderr, whose tail the harness keeps
and attaches to each case's result.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import queue
import struct
import sys
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import IO, Any, NoReturn

from ..protocol import AdapterError, Answer, Request, checked
from .base import DEFAULT_TIMEOUT, Adapter, Capabilities
from .declared import checked_capabilities
from .processes import describe_exit, kill_group, spawn
from .pyerrors import message_of
from .streams import MarkedTail, end_mark

__all__ = ["STARTUP_TIMEOUT", "WorkerAdapter"]

#: How long a worker may take to import and build its adapter (torch takes seconds).
STARTUP_TIMEOUT = 120.0
_HEADER = struct.Struct(">I")
_EOF = object()
_STDERR_CHARS = 8000
#: How long a reply waits for the output printed before it (a worker whose implementation
#: closed its stderr writes no mark).
_MARK_WAIT = 0.5


def _pack(message: Any) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _send(stream: IO[bytes], message: Any) -> None:
    stream.write(_pack(message))
    stream.flush()


#: The largest reply read (an answer or capabilities take a few kB; a bigger "size" is
#: bytes something in the worker wrote on the harness's channel).
_MAX_REPLY = 64 * 1024 * 1024
#: The only classes a reply may hold: unpickling anything else could run code of the
#: worker's choosing in the harness.
_REPLY_CLASSES = {
    ("conformance.protocol", "Answer"),
    ("conformance.protocol", "Failure"),
    ("conformance.adapters.base", "Capabilities"),
}


class _ReplyUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _REPLY_CLASSES:
            raise pickle.UnpicklingError(f"a reply may not hold {module}.{name}")
        return super().find_class(module, name)


def _trusted(data: bytes) -> Any:
    return pickle.loads(data)


def _reply(data: bytes) -> Any:
    return _ReplyUnpickler(io.BytesIO(data)).load()


def _receive(stream: IO[bytes], loads: Callable[[bytes], Any] = _trusted) -> Any:
    """The next message, or ``_EOF`` when the other side has gone."""
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return _EOF
    (size,) = _HEADER.unpack(head)
    if loads is _reply and size > _MAX_REPLY:
        raise ValueError(f"a reply of {size:,} bytes")
    data = stream.read(size)
    if len(data) < size:
        return _EOF
    return loads(data)


class _Broken:
    """An unreadable reply: why (the worker is then killed)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


class _Process:
    """One worker process: framed messages, a stderr tail, a kill that takes the group."""

    def __init__(
        self, recipe: Callable[[], Adapter], python: str | None, pythonpath: str | None
    ) -> None:
        self.recipe = recipe
        self.python = python
        self.pythonpath = pythonpath
        self.proc: Any = None
        self.replies: queue.Queue[Any] = queue.Queue()
        self.output = MarkedTail()
        self.busy = False
        self.seq = 0

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float) -> object:
        """Start the worker; its capabilities as it sent them (read by the caller)."""
        here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
        argv = [sys.executable, "-m", __name__]
        if self.python is not None:  # another environment: the harness's path is not its,
            path = self.pythonpath or ""  # nor the current directory (-P, Python 3.11+)
            argv = [self.python, *(["-P"] if sys.version_info >= (3, 11) else []), *argv[1:]]
        env = {**os.environ, "PYTHONPATH": path, "PYTHONFAULTHANDLER": "1"}
        self.proc = spawn(
            argv,
            stdin=-1,
            stdout=-1,
            stderr=-1,
            env=env,
        )
        self.replies = queue.Queue()
        self.output = MarkedTail()
        self.busy = False
        threading.Thread(target=self._pump_replies, args=(self.proc,), daemon=True).start()
        threading.Thread(target=self.output.pump, args=(self.proc.stderr,), daemon=True).start()
        own_path = sys.path if self.python is None else None
        return self.ask(("init", own_path, os.getpid(), self.recipe), timeout, "start")

    def _pump_replies(self, proc: Any) -> None:
        replies = self.replies
        while True:
            try:
                message = _receive(proc.stdout, _reply)
            except Exception as exc:  # the channel is broken: the worker is unusable
                replies.put(_Broken(f"unreadable reply from the worker: {exc}"[:300]))
                return
            replies.put(message)
            if message is _EOF:
                return

    def output_tail(self, since: int = 0) -> str:
        return self.output.since(since, _STDERR_CHARS)

    def ask(self, message: tuple[Any, ...], timeout: float, what: str) -> Any:
        """Send ``message`` and return the worker's reply payload (or raise AdapterError).
        Each message carries a sequence number its reply must repeat: a reply out of
        sequence or unreadable (something in the worker wrote on the harness's channel)
        kills the worker."""
        self.seq += 1
        try:
            _send(self.proc.stdin, (self.seq, *message))
        except (OSError, ValueError):
            self.fail("crash", f"the worker is gone before the {what}")
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            raise AdapterError("config", f"cannot hand the {what} to the worker: {exc}") from None
        self.busy = True
        try:
            reply = self.replies.get(timeout=timeout)
        except queue.Empty:
            self.fail("timeout", f"no answer within {timeout:g}s (the worker was killed)")
        self.busy = False  # still True if interrupted: close() then kills at once
        if reply is _EOF:
            time.sleep(0.05)  # let the last words reach the tail
            self.fail("crash", f"the implementation ended its process during the {what}")
        if isinstance(reply, _Broken):
            self.fail("garbage", reply.reason)
        if not (isinstance(reply, tuple) and len(reply) >= 3 and reply[0] == self.seq):
            self.fail("garbage", f"a reply out of sequence from the worker: {reply!r}"[:300])
        _, status, *payload = reply
        self.output.wait_mark(self.seq, _MARK_WAIT)  # the reply overtook its output
        if status == "error":
            kind, text, stderr = payload
            raise AdapterError(kind, text, stderr or self.output_tail())
        return payload[0]

    def fail(self, kind: str, message: str) -> NoReturn:
        code = self.kill()
        if kind == "crash" and code is not None:
            message += f" ({describe_exit(code)})"
        raise AdapterError(kind, message, self.output_tail())

    def kill(self) -> int | None:
        proc, self.proc = self.proc, None
        return None if proc is None else kill_group(proc)


class WorkerAdapter(Adapter):
    """The adapter ``recipe()`` builds, run in a worker process (restarted after a crash
    or timeout). ``recipe`` must pickle: a class or function importable by name, or a
    :func:`functools.partial` of one. ``python``: another environment's interpreter (a
    pinned release's), which then sees ``pythonpath`` instead of the harness's path."""

    separate_process = True

    def __init__(
        self,
        recipe: Callable[[], Adapter],
        *,
        startup_timeout: float = 0.0,
        python: str | None = None,
        pythonpath: str | None = None,
    ) -> None:
        self._process = _Process(recipe, python, pythonpath)
        self._startup_timeout = startup_timeout or STARTUP_TIMEOUT
        self._finalizer = weakref.finalize(self, _Process.kill, self._process)
        self.capabilities = self._start()

    def _start(self) -> Capabilities:
        try:
            caps = self._process.start(self._startup_timeout)
        except AdapterError as exc:
            self._process.kill()
            kind = "config" if exc.kind in ("crash", "garbage") else exc.kind
            message = f"cannot start the implementation: {exc.message}"
            raise AdapterError(kind, message, exc.stderr) from None
        try:
            return checked_capabilities(caps, "cannot start the implementation: its capabilities")
        except AdapterError:
            self._process.kill()
            raise

    @property
    def pid(self) -> int | None:
        """The worker's process id (None while no worker runs)."""
        return self._process.proc.pid if self._process.running else None

    @property
    def _timeout(self) -> float:
        return self.capabilities.timeout or DEFAULT_TIMEOUT

    def _ask(self, message: tuple[Any, ...], what: str) -> Any:
        if not self._process.running:
            self._process.kill()
            self._start()  # restart after a crash or a timeout
        return self._process.ask(message, self._timeout, what)

    def warm_up(self) -> None:
        """The adapter's warm-up, in the worker, on the startup clock (a library's first
        call may take longer than a case may)."""
        if self._process.running:
            self._process.ask(("warm_up",), self._startup_timeout, "warm-up")

    def check(self, request: Request) -> str | None:
        reason = self._ask(("check", request), "check")
        return None if reason is None else str(reason)

    def run(self, request: Request) -> Answer:
        if not self._process.running:
            self._process.kill()
            self._start()  # restart after a crash or a timeout (before the mark)
        before = self._process.output.mark()
        answer = checked(self._ask(("run", request), "request"))
        printed = self._process.output_tail(before)
        if printed and not answer.stderr:
            answer = replace(answer, stderr=printed)
        return answer

    def close(self) -> None:
        process = self._process
        if process.running and not process.busy:  # busy: interrupted mid-case, just kill
            try:
                _send(process.proc.stdin, (0, "stop"))
                process.proc.wait(timeout=2.0)
            except Exception:
                pass
        process.kill()


# ---- the worker side ------------------------------------------------------------------


def _isolate_stdio() -> tuple[IO[bytes], IO[bytes]]:
    """The protocol's private copies of stdin/stdout; fd 0 becomes /dev/null and fd 1
    stderr, so the implementation can neither read nor corrupt the protocol."""
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    return proto_in, proto_out


def _restore_output(captured: int, quiet: int) -> None:
    """Point fds 1 and 2 at the captured output again, and fd 0 at /dev/null (``quiet``):
    an implementation that closed or redirected them (``os.close(2)``) loses its own
    output, never the next case's, nor the end mark the harness waits for."""
    for fd, source in ((0, quiet), (1, captured), (2, captured)):
        with contextlib.suppress(OSError):
            os.dup2(source, fd)


def _watch_parent(parent: int) -> None:
    """End the worker when the harness is gone (even while the implementation spins)."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(1)


def _describe(exc: BaseException, starting: bool) -> tuple[str, str]:
    """(kind, message) for what escaped the adapter while starting it or answering."""
    if isinstance(exc, AdapterError):
        return exc.kind, exc.message
    if isinstance(exc, SystemExit):
        return "crash", f"the implementation called sys.exit({exc.code!r})"
    if isinstance(exc, KeyboardInterrupt):
        return "crash", "the implementation raised KeyboardInterrupt"
    prefix = "" if starting else "adapter bug: "
    return "crash", f"{prefix}{type(exc).__name__}: {message_of(exc)}"


def _handle(adapter: Adapter | None, message: list[Any]) -> Any:
    command = message[0]
    if command == "init":
        _, path, parent, recipe = message
        if path is not None:  # the harness's own interpreter: its path too
            sys.path[:] = path
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
        return recipe()
    assert adapter is not None
    if command == "check":
        return adapter.check(message[1])
    if command == "warm_up":
        adapter.ensure_warm()
        return None
    return adapter.run(message[1])


def _serve() -> None:
    proto_in, proto_out = _isolate_stdio()
    captured = os.dup(2)
    quiet = os.dup(0)  # /dev/null (see _isolate_stdio)
    me = os.getpid()
    adapter: Adapter | None = None
    while True:
        received = _receive(proto_in)
        if received is _EOF or received[1] == "stop":
            return
        _restore_output(captured, quiet)
        seq, *message = received
        try:
            result = _handle(adapter, message)
            if message[0] == "init":
                adapter, result = result, result.capabilities
        except BaseException as exc:
            if os.getpid() != me:  # a child the implementation forked: never a second reply
                os._exit(0)
            kind, text = _describe(exc, message[0] == "init")
            stderr = exc.stderr if isinstance(exc, AdapterError) else traceback.format_exc()
            kind = "config" if message[0] == "init" else kind
            data = _pack((seq, "error", kind, text, stderr))
        else:
            if os.getpid() != me:  # a child the implementation forked, returning too
                os._exit(0)
            try:
                data = _pack((seq, "ok", result))
            except Exception as exc:
                text = f"the answer cannot be sent back: {exc}"
                data = _pack((seq, "error", "garbage", text, ""))
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        _restore_output(captured, quiet)
        with contextlib.suppress(OSError):  # after the case's output, before its reply
            os.write(2, end_mark(seq))
        proto_out.write(data)
        proto_out.flush()


if __name__ == "__main__":
    _serve()
