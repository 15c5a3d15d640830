"""The life of a log, the same for every command that writes one: write it as the work goes
(to ``--output``, or a temporary file), read it back, render it, write the ``--report`` and
``--junit-xml`` files, and exit with what the log stands for.
"""

from __future__ import annotations

import argparse
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bleu_impl import __version__

from ..outputs import OutputError, open_log, write_atomic
from ..reporters import View, render
from ..reporters.view import use_color
from ..results.log import LogWriter, utc_now
from ..results.records import Header
from ..results.report import Report
from ..results.vocab import Command, Policy
from .options import terminal_width

__all__ = ["emit", "header", "log_name", "log_path", "write_log"]


def header(
    command: Command, args: argparse.Namespace, policy: Policy | None = None, **params: object
) -> Header:
    """The header of a log written now by ``command`` called with ``args``."""
    return Header(
        command,
        getattr(args, "argv", ()),
        utc_now(),
        __version__,
        policy or Policy(),
        params,
    )


def log_name(output: str | None) -> str:
    """How messages name the log: the option that named it, or "the log"."""
    return "--output" if output else "the log"


@contextmanager
def log_path(output: str | None) -> Iterator[Path]:
    """``--output``, or a temporary file removed afterwards. An ``--output`` that is not a
    file (a named pipe, ``>(gzip > log.gz)``, ``/dev/fd/N``) cannot be read back: the log
    is written to a temporary file, then copied to it (also when the command stops early)."""
    if output and not _is_file(output):
        with tempfile.TemporaryDirectory(prefix="bleu-conformance-") as tmp:
            path = Path(tmp) / "log.jsonl"
            try:
                yield path
            finally:
                if path.exists():
                    _copy(path, output)
        return
    if output:
        yield Path(output)
        return
    with tempfile.TemporaryDirectory(prefix="bleu-conformance-") as tmp:
        yield Path(tmp) / "log.jsonl"


def _is_file(output: str) -> bool:
    """A regular file, or none yet (it will be one)."""
    try:
        return stat.S_ISREG(os.stat(output).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _copy(path: Path, output: str) -> None:
    try:
        with path.open("rb") as source, open(output, "wb") as target:
            shutil.copyfileobj(source, target)
    except OSError as exc:
        raise OutputError(f"cannot write --output {output}: {exc.strerror or exc}") from None


def write_log(
    path: Path, head: Header, work: Callable[[LogWriter], None], what: str = "the log"
) -> None:
    """Run ``work`` with a writer of the log at ``path`` (header first); a failure to write
    the log (its disk is full, its file vanished) is an :class:`OutputError` naming it
    (``what``: ``--output`` when the user named it)."""
    try:
        with open_log(path, what) as stream:
            work(LogWriter(stream, head))
    except OutputError:
        raise
    except OSError as exc:
        if exc.filename is not None and exc.filename != str(path):
            raise  # another file (one being read): named as it is
        raise OutputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None


def emit(report: Report, args: argparse.Namespace) -> int:
    """Print the report of ``report`` (or write it to ``--report``), write ``--junit-xml``;
    the exit status the log stands for."""
    fmt = getattr(args, "format", "table")
    target = getattr(args, "report", None)
    view = View(
        width=100 if target else terminal_width(),
        verbose=getattr(args, "verbose", False),
        decimals=getattr(args, "decimals", None),
        color=fmt == "table" and not target and use_color(sys.stdout),
    )
    text = render(report, fmt, view)
    if target:
        write_atomic(target, text if text.endswith("\n") else text + "\n", "--report")
    else:
        print(text, end="" if text.endswith("\n") else "\n")
    if getattr(args, "junit_xml", None):
        from ..reporters import junit

        junit.write(report, args.junit_xml)
    return report.exit_status()
