"""Files a command writes: checked before the work starts, written atomically.

:func:`check_writable` runs before anything is computed, so a typo in ``--junit-xml`` fails
in a second, not after an hour's run. :func:`write_atomic` writes a whole document (a
report, JUnit XML, a baseline) to a temporary file next to the target and renames it into
place: a reader never sees half a file, and a failed write leaves the old one intact. A
symbolic link is followed (the file it names is replaced, the link kept). A target that is
not a regular file (a named pipe, ``/dev/full``) or that names an open descriptor
(``/dev/stdout``, ``/dev/fd/N``, even when the descriptor is a redirected file) is written
directly, the descriptor appended to. Logs are different: they are appended to in place
as the work goes (see :mod:`conformance.results.log`), so an interrupted run keeps what it had;
:func:`open_log` holds an exclusive lock on the log while it is written, so two runs cannot
interleave one file.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO

__all__ = ["OutputError", "check_distinct", "check_writable", "open_log", "write_atomic"]


class OutputError(OSError):
    """An output file cannot be written (the message names the file and the reason)."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


#: A path naming an open file descriptor (``/dev/stdout`` links to ``/proc/self/fd/1``).
_DESCRIPTOR = re.compile(r"/(?:dev|proc/(?:self|thread-self|\d+))/fd/\d+|/dev/std(?:in|out|err)")


def _names_descriptor(path: str | os.PathLike[str]) -> bool:
    """Whether ``path``, or a link on the way to its file, names an open file descriptor:
    replacing it would swap a system link (``/dev/stdout``) for a file, and the command's
    own output would go to a file no longer there."""
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's limit on a chain of links
        if _DESCRIPTOR.fullmatch(current):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.normpath(os.path.join(os.path.dirname(current), os.readlink(current)))
    return False


def _resolved(path: str | os.PathLike[str]) -> Path:
    """The file ``path`` names once symbolic links are followed (replacing that file keeps
    the user's link; replacing the link would cut it)."""
    return Path(os.path.realpath(path))


def check_writable(path: str | os.PathLike[str], what: str = "output") -> None:
    """Raise :class:`OutputError` unless ``path`` can be written (its directory exists and
    takes a new file; an existing file is not a directory and is writable)."""
    if _names_descriptor(path):
        return  # written directly, like a device
    target = _resolved(path)
    if target.is_dir():
        raise OutputError(f"{what} {path}: is a directory")
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        missing = "does not exist" if not directory.exists() else "is not a directory"
        raise OutputError(f"{what} {path}: directory {directory} {missing}")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise OutputError(f"{what} {path}: not writable")
        if not stat.S_ISREG(target.stat().st_mode):
            return  # a device or a pipe: written directly
    try:  # a read-only file system, or no permission (os.access is wrong for root)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".bleu-conformance-"):
            pass
    except OSError as exc:
        raise OutputError(f"{what} {path}: cannot write in {directory}: {_reason(exc)}") from None


_CASE_FILES = (".yaml", ".yml")


def _identity(path: str | os.PathLike[str]) -> tuple[object, ...] | None:
    """What names one file: its device and inode when it exists (links and relative paths
    agree), else its resolved path; None for a device or a pipe (``--output /dev/null
    --junit-xml /dev/null`` is fine)."""
    try:
        info = os.stat(path)
    except OSError:
        return ("path", os.path.realpath(path))
    if not stat.S_ISREG(info.st_mode):
        return None if not stat.S_ISDIR(info.st_mode) else ("dir", info.st_dev, info.st_ino)
    return ("file", info.st_dev, info.st_ino)


def _inside(path: str | os.PathLike[str], folder: str | os.PathLike[str]) -> bool:
    """``path`` would be read as a case file of the fixture folder ``folder``."""
    if not str(path).endswith(_CASE_FILES) or not os.path.isdir(folder):
        return False
    real, root = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([real, root]) == root


def check_distinct(
    writes: Sequence[tuple[str | None, str]], reads: Sequence[tuple[str | None, str]] = ()
) -> None:
    """Raise :class:`OutputError` when two outputs name one file (the second write would
    replace the first), or an output names a file the command reads (a fixture file, the
    log being replayed, a baseline only compared with): writing it would destroy the input,
    before any work."""
    seen: dict[tuple[object, ...], str] = {}
    for path, what in writes:
        if not path:
            continue
        key = _identity(path)
        if key is None:
            continue
        if key in seen:
            raise OutputError(f"{what} {path}: the same file as {seen[key]}")
        seen[key] = f"{what} {path}"
        for source, role in reads:
            if not source:
                continue
            if _identity(source) == key:
                raise OutputError(f"{what} {path}: would overwrite {role} {source}, which it reads")
            if _inside(path, source):
                raise OutputError(
                    f"{what} {path}: inside {role} folder {source}, where it would be read as "
                    "a case file"
                )


def _default_mode() -> int:
    """What ``open(path, "w")`` would give a new file: 0o666 minus the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: str | os.PathLike[str], text: str, what: str = "output") -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file renamed into place (the
    file a symbolic link names; a device, a pipe or a descriptor directly)."""
    target = _resolved(path)
    try:
        if _names_descriptor(path):
            with open(path, "a", encoding="utf-8") as stream:
                stream.write(text)
            return
        if target.exists() and not stat.S_ISREG(target.stat().st_mode):
            with target.open("w", encoding="utf-8") as stream:
                stream.write(text)
            return
        mode = target.stat().st_mode & 0o777 if target.exists() else _default_mode()
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.chmod(temp, mode)
            os.replace(temp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
    except OSError as exc:
        raise OutputError(f"cannot write {what} {path}: {_reason(exc)}") from None


def open_log(path: str | os.PathLike[str], what: str = "log") -> IO[str]:
    """``path`` opened for writing a log (UTF-8, emptied first), locked for as long as it is
    open: a second command writing the same file is refused (:class:`OutputError`) instead of
    interleaving its records with the first one's."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, _default_mode())
    except OSError as exc:
        raise OutputError(f"cannot write {what} {path}: {_reason(exc)}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputError(
                f"cannot write {what} {path}: another process is writing it (a second "
                "bleu-conformance command with the same file?)"
            ) from None
        except OSError:  # a file system without locks: written unlocked, as before
            pass
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.ftruncate(fd, 0)
        return os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise
