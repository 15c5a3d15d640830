"""Options and habits shared by the subcommands: which implementations, which cases, how
to report, progress, and how errors are printed (one place, so every command agrees)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar

from ..cases import LoadResult, load_fixtures, select_cases
from ..cases.model import Case

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_OK",
    "EXIT_USAGE",
    "IMPL_HELP",
    "ProgressBar",
    "add_impl_argument",
    "add_report_arguments",
    "add_selection_arguments",
    "fail",
    "load_selected",
    "progress",
]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

IMPL_HELP = (
    "SPEC is bleu_impl[:PROFILE or expectation KEY], nltk, sacrebleu, torchmetrics, "
    "package.module:function, jsonl:COMMAND, cmd:TEMPLATE, an adapter file, or NAME[:ARG] "
    "of the bleu_conformance.adapters entry-point group"
)

T = TypeVar("T")


def add_impl_argument(
    parser: argparse.ArgumentParser, *, required: bool = False, default: str = ""
) -> None:
    """``--impl SPEC`` (repeatable)."""
    parser.add_argument(
        "--impl",
        action="append",
        default=[],
        required=required,
        metavar="SPEC",
        help=f"an implementation (repeatable{'; default: ' + default if default else ''}). "
        + IMPL_HELP,
    )


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    """``-k``, ``--tag`` and ``--fixtures``: which fixture cases a command works on."""
    parser.add_argument(
        "-k",
        dest="keywords",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only cases whose id, file or tag contains PATTERN (or matches "
        "it as a glob); repeatable, any matches",
    )
    parser.add_argument(
        "--tag",
        dest="tags",
        action="append",
        default=[],
        metavar="TAG",
        help="only cases with this tag (repeatable, any matches)",
    )
    parser.add_argument(
        "--fixtures",
        action="append",
        default=[],
        metavar="PATH",
        help="fixture files or directories (default: the bundled library)",
    )


def add_report_arguments(parser: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    """``--format`` and ``--junit-xml``: how a run (or a saved run log) is reported."""
    parser.add_argument(
        "--format",
        choices=formats,
        default="table",
        help="report format on stdout (default: table)",
    )
    parser.add_argument("--junit-xml", metavar="PATH", help="also write JUnit XML here")


def load_selected(args: argparse.Namespace, command: str) -> tuple[LoadResult, list[Case]]:
    """The fixtures of ``--fixtures`` (with their expectation keys) and the cases ``-k`` /
    ``--tag`` select. Fixture problems are reported on stderr; a case with a problem is left
    out (it cannot be trusted), the others are used, and the command exits 2 at the end
    (``loaded.problems`` is not empty)."""
    loaded = load_fixtures(args.fixtures)
    for problem in loaded.problems[:20]:
        print(
            f"fixture problem: {problem.location}: {problem.case_id}: {problem.message}",
            file=sys.stderr,
        )
    if loaded.problems:
        print(
            f"bleu-conformance {command}: {len(loaded.problems)} fixture problem(s); run "
            "`bleu-conformance validate` for details (the cases without problems are still "
            "used; exit status 2)",
            file=sys.stderr,
        )
    bad = {(p.file, p.case_id) for p in loaded.problems if p.case_id}
    clean = [c for c in loaded.cases if (c.file, c.id) not in bad]
    cases = select_cases(clean, args.keywords, args.tags)
    return loaded, cases


def fail(command: str, message: object, status: int = EXIT_USAGE) -> int:
    """Print ``bleu-conformance COMMAND: error: MESSAGE`` on stderr and return ``status``."""
    print(f"bleu-conformance {command}: error: {message}", file=sys.stderr)
    return status


class ProgressBar:
    """A progress bar on stderr when it is a terminal (never in CI or when disabled);
    otherwise it does nothing."""

    def __init__(self, total: int, desc: str, *, enabled: bool = True) -> None:
        self._bar: Any = None
        if enabled and sys.stderr.isatty() and not os.environ.get("CI"):
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit="case", file=sys.stderr, leave=False)

    def update(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def describe(self, text: str) -> None:
        if self._bar is not None:
            self._bar.set_description(text)

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()


def progress(iterable: Iterable[T], total: int, desc: str, *, enabled: bool = True) -> Iterator[T]:
    """``iterable``, advancing a :class:`ProgressBar` per item."""
    with ProgressBar(total, desc, enabled=enabled) as bar:
        for item in iterable:
            yield item
            bar.update()
