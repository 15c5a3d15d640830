"""Options and habits shared by the subcommands: which implementations, which cases, how
to report, progress, and how errors are printed (one place, so every command agrees)."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import textwrap
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the fixture loader (jsonschema, YAML) only for the commands that load
    from ..cases import LoadResult
    from ..cases.model import Case

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_INTERNAL",
    "EXIT_OK",
    "EXIT_USAGE",
    "HEARTBEAT_ENV",
    "IMPL_HELP",
    "MAX_GENERATE",
    "MAX_JOBS",
    "MAX_RESAMPLES",
    "HelpFormatter",
    "OneFile",
    "ProgressBar",
    "add_generate_arguments",
    "add_impl_argument",
    "add_quiet_argument",
    "add_report_arguments",
    "add_selection_arguments",
    "exit_codes_epilog",
    "fail",
    "generated_count",
    "jobs_count",
    "load_selected",
    "non_negative_int",
    "positive_float",
    "positive_int",
    "progress",
    "resample_count",
    "spec_text",
    "terminal_width",
]

#: Exit codes, the same for every command: 0 nothing wrong, 1 findings (failures, problems,
#: a stale document, the emulated tool failing), 2 bad usage or input, 3 a bug in
#: bleu-conformance itself (never a verdict about the implementation under test).
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

IMPL_HELP = (
    "SPEC is bleu_impl[:PROFILE or expectation KEY], nltk, sacrebleu, torchmetrics, "
    "package.module:function, jsonl:COMMAND, cmd:TEMPLATE, an adapter file, or NAME[:ARG] "
    "of the bleu_conformance.adapters entry-point group"
)

T = TypeVar("T")

#: Environment variable: seconds between heartbeat lines (default 5).
HEARTBEAT_ENV = "BLEU_CONFORMANCE_HEARTBEAT"
_DEFAULT_HEARTBEAT = 5.0


#: The widths a screen is kept within, whatever the window: a report stays a report.
MIN_WIDTH, MAX_WIDTH = 60, 200


def terminal_width() -> int:
    """The columns to print in: ``COLUMNS`` when set, else the width of the terminal on
    standard output, error or input (so ``compare | less`` fits the window), else 80; kept
    within [MIN_WIDTH, MAX_WIDTH]."""
    columns = os.environ.get("COLUMNS", "")
    width = int(columns) if columns.isdigit() and int(columns) > 0 else 0
    for fd in (1, 2, 0):
        if width:
            break
        try:
            width = os.get_terminal_size(fd).columns
        except (OSError, ValueError):
            continue
    return max(MIN_WIDTH, min(MAX_WIDTH, width or 80))


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help at :func:`terminal_width`; a description's or epilog's line wider
    than that is wrapped: prose refilled, a list item under its text, an example's comment
    on the next line and a long example continued with ``\\`` (still one command)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=terminal_width(), max_help_position=30)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        blocks: list[list[str]] = []
        listing = False  # in an ``examples:`` block
        for line in text.splitlines():
            listing = (listing and bool(line.strip())) or line.rstrip().endswith("examples:")
            example = listing or line.lstrip().startswith(("bleu-conformance ", "pytest "))
            lead = len(line) - len(line.lstrip())
            last = blocks[-1][-1] if blocks and blocks[-1] else ""
            joins = (
                not example
                and line.strip()
                and last.strip()
                and not last.rstrip().endswith(":")
                and lead == len(last) - len(last.lstrip())
                and not _ITEM.match(line)
            )
            if joins:
                blocks[-1].append(line)
            else:
                blocks.append([line] if not example else [line, ""])
        out = [
            line
            for block in blocks
            for line in (block if max(map(len, block)) <= width else _fitted(block, width))
            if line or block[-1:] != [""] or block == [""]
        ]
        return "\n".join(indent + line for line in out) + "\n"


#: A list item's start: a term, then two spaces or more, then its meaning.
_ITEM = re.compile(r"\s*\S+(?: \S+)*?\s{2,}")


def _fitted(block: list[str], width: int) -> list[str]:
    """A block of lines (a paragraph, a list item, or an example with ``""`` after it) as
    lines of at most ``width`` columns (see :class:`HelpFormatter`)."""
    line = block[0]
    lead = line[: len(line) - len(line.lstrip())]
    if block[-1:] == [""] and len(block) == 2:  # an example
        code, _, comment = line.partition("  # ")
        out = [lead]
        for word in code.split():
            if out[-1].strip() and len(out[-1]) + len(word) + 3 > width:
                out[-1] += " \\"
                out.append(lead + "    ")
            out[-1] += (" " if out[-1].strip() else "") + word
        tail = lead + "# "
        return out + textwrap.wrap(comment, width, initial_indent=tail, subsequent_indent=tail)
    item = _ITEM.match(line)
    hang = " " * len(item.group()) if item and len(item.group()) < width // 2 else lead
    text = " ".join(part.strip() for part in block)
    return textwrap.wrap(
        text, width, initial_indent=lead, subsequent_indent=hang, break_on_hyphens=False
    )


def exit_codes_epilog(codes: Mapping[int, str]) -> str:
    """The ``exit codes:`` block of a command's ``--help``: its own meanings of 0, 1 and 2,
    then 2 for usage errors and 3 for internal errors, worded the same everywhere."""
    meanings = dict(codes)
    meanings.setdefault(EXIT_USAGE, "bad usage or input")
    meanings[EXIT_INTERNAL] = (
        "internal error: a bug in bleu-conformance, not a finding (traceback printed)"
    )
    meanings[130] = "interrupted (Ctrl-C); a log written so far stays readable"
    meanings[143] = "terminated (SIGTERM); likewise"
    meanings[129] = "hung up (SIGHUP: the terminal or session went away); likewise"
    return "exit codes:\n" + "\n".join(
        f"  {code}  {text}" for code, text in sorted(meanings.items())
    )


class OneFile(argparse.Action):
    """A file option (``--output``, ``--report``...): given twice with different paths it
    is an error, as the last-one-wins convention would silently drop a file asked for; so is
    an empty path (``--junit-xml "$UNSET"``), which wrote nothing and said nothing."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if not str(values).strip():
            name = max(self.option_strings, key=len)
            parser.error(f"{name} is empty (an unset shell variable?): give a file")
        given = getattr(namespace, self.dest, None)
        seen = f"_{self.dest}_given"
        if getattr(namespace, seen, False) and given != values:
            name = max(self.option_strings, key=len)
            parser.error(f"{name} given twice ({given} and {values}): give it once")
        setattr(namespace, seen, True)
        setattr(namespace, self.dest, values)


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1 (``--top``)."""
    return _bounded_int(text, 1)


#: The most worker processes ``--jobs`` may ask for: each is a Python process (and one per
#: live implementation below it), so ``--jobs 100000`` would be a fork bomb, not a speed-up.
MAX_JOBS = 256


def jobs_count(text: str) -> int:
    """argparse type: an integer from 1 to :data:`MAX_JOBS` (``--jobs``)."""
    return _bounded_int(text, 1, MAX_JOBS)


#: The most corpora ``--generate`` may ask for: they are built before the work starts
#: (about 2 kB each), so a slip such as ``--generate 99999999999999`` would fill memory.
MAX_GENERATE = 100_000


def generated_count(text: str) -> int:
    """argparse type: an integer from 0 to :data:`MAX_GENERATE` (``--generate``)."""
    return _bounded_int(text, 0, MAX_GENERATE)


def add_generate_arguments(parser: argparse.ArgumentParser, default: int, meaning: str) -> None:
    """``--generate N`` (generated separating corpora: ``meaning``) and its ``--seed``."""
    parser.add_argument(
        "--generate", type=generated_count, default=default, metavar="N", help=meaning
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of --generate (default 0)")


#: The most bootstrap resamples or randomization trials (``--paired-bs-n``, ``--paired-ar-n``,
#: ``--confidence-n``): every one is kept as statistics per implementation and system, so a
#: slip such as ``--paired-bs-n 100000000`` would fill memory (sacrebleu's defaults: 1,000 and
#: 10,000).
MAX_RESAMPLES = 100_000


def resample_count(text: str) -> int:
    """argparse type: an integer from 1 to :data:`MAX_RESAMPLES`."""
    return _bounded_int(text, 1, MAX_RESAMPLES)


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0 (``--shrink-budget``)."""
    return _bounded_int(text, 0)


def _bounded_int(text: str, low: int, high: int | None = None) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
    if high is not None and value > high:
        raise argparse.ArgumentTypeError(f"must be at most {high:,}, got {value:,}")
    return value


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0 (``--timeout``): no 0, negatives, nan or inf,
    nothing above :data:`~conformance.adapters.declared.MAX_TIMEOUT` (a wait that long
    overflows the platform's clock)."""
    from ..adapters.declared import MAX_TIMEOUT  # the adapters, for the commands that ask

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    if value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_TIMEOUT:,} (a week), got {text!r}")
    return value


def spec_text(text: str) -> str:
    """argparse type of ``--impl`` and ``--as``: not empty (an unset shell variable is a
    mistake, never "the default")."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def add_impl_argument(
    parser: argparse.ArgumentParser, *, required: bool = False, default: str = ""
) -> None:
    """``--impl SPEC`` (repeatable)."""
    parser.add_argument(
        "--impl",
        action="append",
        type=spec_text,
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
    parser.add_argument(
        "--junit-xml", metavar="PATH", action=OneFile, help="also write JUnit XML here"
    )


def load_selected(args: argparse.Namespace, command: str) -> tuple[LoadResult, list[Case]]:
    """The fixtures of ``--fixtures`` (with their expectation keys) and the cases ``-k`` /
    ``--tag`` select. Fixture problems are reported on stderr; a case with a problem is left
    out (it cannot be trusted), the others are used, and the command exits 2 at the end
    (``loaded.problems`` is not empty)."""
    from ..cases import load_fixtures, select_cases

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


def add_quiet_argument(parser: argparse.ArgumentParser) -> None:
    """``-q/--quiet``: no progress bar and no heartbeat lines on stderr."""
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress on stderr (a bar on a terminal; otherwise, e.g. in CI logs, a "
        f"heartbeat line every {_DEFAULT_HEARTBEAT:g} s of work, set by ${HEARTBEAT_ENV})",
    )


def _heartbeat_interval() -> float:
    try:
        value = float(os.environ.get(HEARTBEAT_ENV, _DEFAULT_HEARTBEAT))
    except ValueError:
        return _DEFAULT_HEARTBEAT
    return value if math.isfinite(value) and value > 0 else _DEFAULT_HEARTBEAT


class ProgressBar:
    """Progress of long work on stderr, one mechanism for every command.

    On a terminal (outside CI): a bar (a running clock when the total is unknown) that a
    background thread keeps fresh. Otherwise (CI logs, files): a heartbeat line every few
    seconds from that thread, e.g. ``bleu-conformance run: 120/588 (20%), 15 s, nltk``, so a
    long job never looks hung; a job shorter than one interval prints nothing.
    ``enabled=False`` (``--quiet``) silences both."""

    def __init__(
        self, total: int | None, desc: str, *, enabled: bool = True, unit: str = "case"
    ) -> None:
        self._bar: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.total, self.desc, self.done, self.detail = total, desc, 0, ""
        self._start = time.monotonic()
        if not enabled:
            return
        if sys.stderr.isatty() and not os.environ.get("CI"):
            from tqdm import tqdm

            shape = None if total is not None else "{desc}{elapsed}"  # tqdm adds ": "
            self._bar = tqdm(total=total, unit=unit, file=sys.stderr, leave=False, bar_format=shape)
            self._bar.set_description(desc)
        self._thread = threading.Thread(target=self._beat, name="heartbeat", daemon=True)
        self._thread.start()

    def _beat(self) -> None:
        interval = 1.0 if self._bar is not None else _heartbeat_interval()
        while not self._stop.wait(interval):
            if self._bar is not None:
                self._bar.refresh()  # the clock moves even when no item finishes
            else:
                print(self.heartbeat_line(), file=sys.stderr, flush=True)

    def heartbeat_line(self) -> str:
        """``bleu-conformance DESC: DONE/TOTAL (P%), S s[, DETAIL]``."""
        elapsed = f"{time.monotonic() - self._start:.0f} s"
        if self.total:
            count = f"{self.done}/{self.total} ({100 * self.done / self.total:.0f}%), "
        else:
            count = f"{self.done} done, " if self.done else "working, "
        detail = f", {self.detail}" if self.detail else ""
        return f"bleu-conformance {self.desc}: {count}{elapsed}{detail}"

    def update(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)

    def describe(self, text: str) -> None:
        """What is being done now (shown in the bar and in the heartbeat line)."""
        self.detail = text
        if self._bar is not None:
            self._bar.set_description(f"{self.desc}: {text}")

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._bar is not None:
            self._bar.close()


def progress(iterable: Iterable[T], total: int, desc: str, *, enabled: bool = True) -> Iterator[T]:
    """``iterable``, advancing a :class:`ProgressBar` per item."""
    with ProgressBar(total, desc, enabled=enabled) as bar:
        for item in iterable:
            yield item
            bar.update()
