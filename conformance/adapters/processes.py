"""Child processes of adapters: each in its own process group, killed as a group.

An implementation under test may start children of its own (``bash -c '...'``, a wrapper
script, a worker pool). Started with :func:`spawn`, it leads a new session, so
:func:`kill_group` ends it *and* its descendants on a timeout, a crash or at the end, and
Ctrl-C at a terminal reaches only the harness (which then stops the groups itself).
Every group alive is registered; :func:`kill_all` (run at exit, and by the command line on
SIGTERM/SIGINT) kills whatever is left, so an interrupted harness leaves no orphans. A
descendant that left the group (``setsid``, a daemon) is found by a mark in its
environment, inherited from the process spawned (:data:`MARK_ENV`), and killed with it. Each
process may take at most :func:`memory_limit` bytes of address space (``RLIMIT_AS``,
inherited by what it starts): an implementation that allocates without bound fails alone
(``MemoryError``, or killed) instead of taking the machine down.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import resource
import signal
import subprocess
import threading
from collections.abc import Sequence
from typing import Any

from ..protocol import AdapterError

__all__ = [
    "MARK_ENV",
    "MEMORY_ENV",
    "describe_exit",
    "kill_all",
    "kill_group",
    "memory_limit",
    "spawn",
]

#: Environment variable: the memory limit of each implementation's process in MiB (0: none).
MEMORY_ENV = "BLEU_CONFORMANCE_MEMORY_MB"

#: Environment variable marking every process an implementation starts (one value per
#: process spawned: what the harness kills with it, wherever its group or session).
MARK_ENV = "BLEU_CONFORMANCE_SPAWNED"

_LIVE: dict[int, subprocess.Popen[Any]] = {}
_MARKS: dict[int, bytes] = {}  # pid spawned -> its mark, as /proc/PID/environ holds it
_COUNT = itertools.count(1)
_LOCK = threading.Lock()


def spawn(argv: Sequence[str], **popen: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(argv, **popen)`` as the leader of a new process group."""
    if os.name == "posix":
        popen["start_new_session"] = True
    limit = memory_limit()  # read first: a bad setting starts nothing
    mark = f"{os.getpid()}.{next(_COUNT)}"
    popen["env"] = {**(popen.get("env") or os.environ), MARK_ENV: mark}
    proc: subprocess.Popen[Any] = subprocess.Popen(list(argv), **popen)
    with _LOCK:
        _LIVE[proc.pid] = proc
        _MARKS[proc.pid] = f"{MARK_ENV}={mark}".encode() + b"\0"
    if limit is not None:  # set at once, before the program is loaded, let alone allocates
        with contextlib.suppress(OSError, ValueError):  # gone already, or not allowed
            resource.prlimit(proc.pid, resource.RLIMIT_AS, (limit, limit))
    return proc


def memory_limit() -> int | None:
    """Bytes of address space each implementation process may take: ``$MEMORY_ENV`` MiB
    (0: no limit), by default half the machine's memory but at least 4 GiB; AdapterError
    for a setting that is not a whole number."""
    text = os.environ.get(MEMORY_ENV, "").strip()
    if text:
        if not text.isdigit():
            message = f"${MEMORY_ENV}={text!r}: give a whole number of MiB (0: no limit)"
            raise AdapterError("config", message)
        return int(text) * 2**20 or None
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return max(4 * 2**30, total // 2)


def kill_group(proc: subprocess.Popen[Any], wait: float = 5.0) -> int | None:
    """Kill ``proc``'s process group (the process and everything it started) and reap it;
    its exit status, or None if it would not die within ``wait`` seconds."""
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError, PermissionError):  # gone already
            os.killpg(proc.pid, signal.SIGKILL)
    if proc.poll() is None:
        proc.kill()
    with _LOCK:
        mark = _MARKS.pop(proc.pid, None)
    if mark is not None:
        _kill_marked(mark)
    try:
        code = proc.wait(timeout=wait)
    except subprocess.TimeoutExpired:  # pragma: no cover - an unkillable child (D state)
        return None
    with _LOCK:
        _LIVE.pop(proc.pid, None)
    return code


def _kill_marked(mark: bytes) -> None:
    """Kill every process whose environment carries ``mark`` (Linux: ``/proc``)."""
    try:
        entries = [e.name for e in os.scandir("/proc") if e.name.isdigit()]
    except OSError:  # no /proc: the process groups are all there is
        return
    for pid in entries:
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                found = environ.read()
        except OSError:  # gone, or another user's
            continue
        if found.startswith(mark) or b"\0" + mark in found:
            with contextlib.suppress(OSError):
                os.kill(int(pid), signal.SIGKILL)


def kill_all() -> None:
    """Kill every process group still registered (at exit, or on SIGTERM/SIGINT)."""
    with _LOCK:
        procs = list(_LIVE.values())
    for proc in procs:
        kill_group(proc, wait=1.0)


def describe_exit(code: int | None) -> str:
    """``exit status 3`` or ``killed by SIGSEGV`` for a process's return code."""
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


atexit.register(kill_all)
