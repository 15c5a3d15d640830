"""Adapter for an external program speaking the JSON Lines protocol (``docs/protocol.md``).

The program is long-running: started once, asked one request per line, stopped at the
end. Every request has a timeout. A crash, hang, garbage line or wrong sequence number is an
:class:`AdapterError` carrying the program's captured stderr; the process is then killed and
restarted for the next case, so one bad case never ends the run.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import IO, Any, NoReturn

from ..contract import brief, violation
from ..protocol import AdapterError, Answer, Request, read_answer
from .base import DEFAULT_TIMEOUT, Adapter, Capabilities
from .declared import read_declaration
from .processes import describe_exit, kill_group, spawn
from .streams import EOF, MAX_LINE, TOO_LONG, OutputTail, pump_lines

PROTOCOL_VERSION = 1


class JsonlProcess:
    """One child process with line-oriented JSON I/O, a stderr tail and timeouts."""

    def __init__(
        self, argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None
    ) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.env = None if env is None else {**os.environ, **env}
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[Any] = queue.Queue()
        self._stderr = OutputTail()
        self._stderr_pump: threading.Thread | None = None
        self._busy = False

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        self._busy = False
        self._lines = queue.Queue()
        self._stderr = OutputTail()
        try:
            self._proc = spawn(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env=self.env,
            )
        except OSError as exc:
            raise AdapterError("crash", f"cannot start {shlex.join(self.argv)}: {exc}") from exc
        proc = self._proc
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=pump_lines, args=(proc.stdout, self._lines), daemon=True).start()
        self._stderr_pump = threading.Thread(
            target=self._stderr.pump, args=(proc.stderr,), daemon=True
        )
        self._stderr_pump.start()

    def stderr_mark(self) -> int:
        """A point in the program's stderr, for :meth:`stderr_tail`."""
        return self._stderr.mark()

    def stderr_tail(self, since: int = 0) -> str:
        """The end of what the program wrote to stderr (after ``since``)."""
        return self._stderr.since(since)

    def exchange(self, message: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        """Send one JSON line and read one JSON object back (or raise AdapterError)."""
        if not self.running:
            self.start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        self._refuse_unasked(message)
        data = (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")
        self._busy = True
        started = time.monotonic()
        writing = _Writer(proc.stdin, data)  # a program that stops reading cannot block us
        if not writing.done.wait(timeout):
            self.fail("timeout", f"the request was not read within {timeout:g}s")
        if writing.failed:
            self.fail("crash", "the process closed its input (it has exited)")
        try:
            answer = self._lines.get(timeout=max(timeout - (time.monotonic() - started), 0.001))
        except queue.Empty:
            self.fail("timeout", f"no answer within {timeout:g}s")
        self._busy = False  # still True when interrupted: stop() then kills at once
        if answer is EOF:
            self.fail("crash", "the process exited without answering")
        if answer is TOO_LONG:
            self.fail("garbage", f"a line longer than {MAX_LINE // 2**20} MiB on stdout")
        return _parse(answer, self)

    def _refuse_unasked(self, message: Mapping[str, Any]) -> None:
        """A line already waiting before ``message`` is sent answers nothing asked (a second
        answer to the last request, or one to a request not yet made): read as the next
        answer, it would be taken for it."""
        try:
            stray = self._lines.queue[0]
        except IndexError:
            return
        if isinstance(stray, str):
            self.fail(
                "protocol",
                f"a line written before request seq {message.get('seq')} was sent (a second "
                f"answer, or an answer to a request not made): {stray[:200]!r}",
            )

    def fail(self, kind: str, message: str) -> NoReturn:
        """Kill the process (it is restarted on the next request) and raise."""
        code = self.kill()
        if code is not None and kind == "crash":
            message += f" ({describe_exit(code)})"
        raise AdapterError(kind, message, self.stderr_tail())

    def kill(self) -> int | None:
        """Kill the process and everything it started (its process group)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        code = kill_group(proc)
        if self._stderr_pump is not None:
            self._stderr_pump.join(timeout=1.0)  # collect the last words
        return code

    def stop(self, grace: float = 2.0) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None and proc.stdin is not None and not self._busy:
            try:
                proc.stdin.write(b'{"cmd": "stop"}\n')
                proc.stdin.close()
                proc.wait(timeout=grace)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


class _Writer:
    """Write ``data`` to ``stream`` in a daemon thread: a request larger than the pipe's
    buffer, sent to a program that has stopped reading, would block the harness forever
    (past any timeout, and past SIGTERM)."""

    def __init__(self, stream: IO[bytes], data: bytes) -> None:
        self.done = threading.Event()
        self.failed = False
        threading.Thread(target=self._write, args=(stream, data), daemon=True).start()

    def _write(self, stream: IO[bytes], data: bytes) -> None:
        try:
            stream.write(data)
            stream.flush()
        except (OSError, ValueError):  # a broken pipe, a stream closed by a kill
            self.failed = True
        finally:
            self.done.set()


class _DuplicateKey(Exception):
    """A JSON object naming one key twice: which value is the answer is anyone's guess."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _DuplicateKey(key)
        data[key] = value
    return data


def _parse(line: str, process: JsonlProcess) -> dict[str, Any]:
    """One answer line as a JSON object; anything else (also an object naming a key twice,
    ``{"score": 0.5, "score": 1.0}``) is garbage (the process is killed).
    Python's JSON reader refuses some valid-looking input (integers of more than 4,300
    digits, nesting deeper than its recursion limit): garbage too, never a crash."""
    try:
        data = json.loads(line, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        process.fail(
            "garbage", f"duplicate key {exc.args[0]!r} (ambiguous) on stdout: {line[:200]!r}"
        )
    except (ValueError, RecursionError) as exc:
        reason = "not a JSON line" if isinstance(exc, json.JSONDecodeError) else str(exc)[:100]
        process.fail("garbage", f"{reason} on stdout: {line[:200]!r}")
    if not isinstance(data, dict):
        process.fail("garbage", f"expected a JSON object, got: {line[:200]!r}")
    return data


def capabilities_from_hello(data: Mapping[str, Any], *, timeout: float) -> Capabilities:
    """Read the ``hello`` answer (the schema's ``hello_answer``, see docs/protocol.md); every
    field is checked, and an unknown one is an error (a misspelling is not ignored)."""
    if "protocol" not in data:
        raise AdapterError(
            "protocol",
            'the adapter\'s first line is not a hello (no "protocol" field; it must answer '
            f"the hello request before anything else, see docs/protocol.md): {brief(data, 200)}",
        )
    if data.get("protocol") != PROTOCOL_VERSION:
        raise AdapterError(
            "protocol",
            f"the adapter speaks protocol {brief(data.get('protocol'))}; this harness speaks "
            f"{PROTOCOL_VERSION}",
        )
    problem = violation(data, "hello_answer")
    if problem is not None:
        raise AdapterError("protocol", f"hello: {problem}"[:400])
    fields = read_declaration(data["implementation"], "hello: implementation", "protocol")
    fields["version"] = fields.get("version", "unknown")
    return Capabilities(**{"knobs": {}, **fields}, timeout=timeout)


class JsonlAdapter(Adapter):
    """Drive a long-running program through the JSON Lines protocol."""

    separate_process = True

    def __init__(
        self,
        argv: Sequence[str] | str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        startup_timeout: float | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        expect: Sequence[str] | str = (),
        where: str = "jsonl",
    ) -> None:
        checked = read_declaration(
            {"timeout": timeout, **({"expect": expect} if expect else {})}, where
        )
        if startup_timeout is not None:
            read_declaration({"timeout": startup_timeout}, f"{where}: startup_timeout")
        if env is not None and not (
            isinstance(env, Mapping)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
        ):
            raise AdapterError("config", f"{where}: env must map names to strings")
        try:
            self.argv = shlex.split(argv) if isinstance(argv, str) else list(argv)
        except (ValueError, AttributeError) as exc:
            raise AdapterError("config", f"{where}: command {argv!r}: {exc}") from None
        if not self.argv or not all(isinstance(a, str) for a in self.argv):
            raise AdapterError("config", f"{where}: command must be a command line")
        self.timeout = checked["timeout"]
        self.startup_timeout = startup_timeout or max(self.timeout, 10.0)
        self._proc = JsonlProcess(self.argv, cwd=cwd, env=env)
        self._seq = 0
        self.capabilities = self._hello()
        if expect:
            self.capabilities = replace(self.capabilities, expect=checked["expect"])

    def _hello(self) -> Capabilities:
        self._proc.start()
        data = self._proc.exchange(
            {"cmd": "hello", "protocol": PROTOCOL_VERSION}, self.startup_timeout
        )
        try:
            return capabilities_from_hello(data, timeout=self.timeout)
        except AdapterError as exc:
            self._proc.kill()
            raise AdapterError(exc.kind, exc.message, self._proc.stderr_tail()) from None

    def run(self, request: Request) -> Answer:
        if not self._proc.running:
            self._hello()  # restart after a crash, hang or protocol error
        self._seq += 1
        seq = self._seq
        before = self._proc.stderr_mark()
        data = self._proc.exchange(
            {"cmd": "score", "seq": seq, "request": request.to_json(self.capabilities.knobs)},
            self.capabilities.timeout,
        )
        answered = data.get("seq")
        if not isinstance(answered, int) or isinstance(answered, bool) or answered != seq:
            self._proc.fail(
                "protocol", f"answer has seq {brief(answered)}, expected {seq}: {brief(data, 200)}"
            )
        return read_answer(data, self._proc.stderr_tail(before))

    def close(self) -> None:
        self._proc.stop()
