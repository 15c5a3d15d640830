"""Run every release of a live library on the fixtures and on generated separating corpora,
and group them into behaviour classes.

Each release is installed once into its own cached environment (``--impl LIBRARY==RELEASE``;
the cache is ``$BLEU_CONFORMANCE_CACHE``, else ``~/.cache/bleu-conformance``), so a rerun
after a new release installs only that one. Consecutive releases whose answers are all the
same form a class; each class names the profile (of that library's) reproducing every
answer it can express, or "no profile matches" with the nearest, and the case separating it
from the previous class with both answers. A release that cannot be installed or imported
on this Python is a class of its own with the installer's or the import's reason.

``--clean`` removes every cached environment. The whole history of NLTK (every 3.x
release, a few minutes here): ``bleu-conformance versions nltk --from 3.0.0 --jobs 2``.

``-k``/``--tag`` select fixture cases; ``--generate 0`` leaves the generated corpora out.

examples:
  bleu-conformance versions nltk --release 3.2.5 --release 3.10.4 -k edge.exact --generate 0
  bleu-conformance versions nltk --from 3.10.3 --to 3.10.4 -k edge --format markdown
  bleu-conformance versions sacrebleu --release 1.4.14 --release 2.6.0 -k edge --output v.jsonl
"""

from __future__ import annotations

import argparse
import shutil
from typing import TYPE_CHECKING

from ..adapters.libraries import LIBRARIES, release_key
from ..adapters.releases import cache_dir
from ..outputs import check_writable
from ..reporters import FORMATS
from .options import (
    OneFile,
    ProgressBar,
    add_generate_arguments,
    add_quiet_argument,
    add_selection_arguments,
    fail,
    jobs_count,
    load_selected,
)

EXIT_CODES = {
    0: "the sweep ran (its classes are the answer), or the cache was cleaned",
    2: "bad input: unknown library, no release in range, the index cannot be read",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "library",
        nargs="?",
        choices=list(LIBRARIES),
        metavar="LIBRARY",
        help=f"the live library to sweep: {', '.join(LIBRARIES)}",
    )
    parser.add_argument("--from", dest="first", metavar="RELEASE", help="the oldest release")
    parser.add_argument("--to", dest="last", metavar="RELEASE", help="the newest release")
    parser.add_argument(
        "--release",
        action="append",
        default=[],
        metavar="RELEASE",
        help="only these releases (repeatable; default: every release on the index)",
    )
    parser.add_argument(
        "--jobs", type=jobs_count, default=1, metavar="N", help="releases at once (default 1)"
    )
    add_selection_arguments(parser)
    add_generate_arguments(
        parser, 200, "generated separating corpora to add to the fixtures (default 200)"
    )
    parser.add_argument(
        "--clean", action="store_true", help="remove every cached release environment and stop"
    )
    parser.add_argument(
        "--format", choices=FORMATS, default="table", help="output (default: table)"
    )
    parser.add_argument("--report", metavar="FILE", help="write the report to FILE")
    parser.add_argument(
        "--output",
        metavar="LOG",
        action=OneFile,
        help="also write the log (JSON Lines) that `report LOG` re-renders in any format",
    )
    add_quiet_argument(parser)


def _clean() -> int:
    root = cache_dir()
    envs = sorted((root / "releases").glob("*")) if (root / "releases").is_dir() else []
    for entry in envs:
        shutil.rmtree(entry, ignore_errors=True)
    shutil.rmtree(root / "harness", ignore_errors=True)
    print(f"removed {len(envs)} release environments from {root}")
    return 0


if TYPE_CHECKING:
    from ..results.log import LogWriter
    from ..results.records import Release


def _releases(args: argparse.Namespace) -> list[str]:
    from ..engine.versions import available_releases

    chosen = args.release or available_releases(LIBRARIES[args.library].package)
    low = release_key(args.first) if args.first else ()
    high = release_key(args.last) if args.last else None
    return [r for r in chosen if release_key(r) >= low and (high is None or release_key(r) <= high)]


def run(args: argparse.Namespace) -> int:
    # the engine and the log: for a sweep, not for --help
    from ..cases import generate_cases
    from ..engine.versions import behaviour_classes, run_releases
    from ..results.log import read_log
    from ..results.records import End
    from .logged import emit, header, log_name, log_path, write_log

    if args.clean:
        return _clean()
    if args.library is None:
        return fail("versions", "name a library (or --clean)")
    try:
        releases = _releases(args)
        if args.output:
            check_writable(args.output, "--output")
    except (RuntimeError, ValueError) as exc:
        return fail("versions", exc)
    if not releases:
        return fail("versions", f"no release of {args.library} in that range")
    loaded, cases = load_selected(args, "versions")
    cases += generate_cases(args.generate, args.seed)
    head = header("versions", args, library=args.library, releases=releases, cases=len(cases))

    def work(log: LogWriter) -> None:
        records: list[Release] = []
        with ProgressBar(len(releases), "versions", enabled=not args.quiet, unit="release") as bar:

            def done(record: Release) -> None:
                log.write(record)
                records.append(record)
                bar.update(1)

            run_releases(args.library, releases, cases, args.jobs, done)
        for behaviour in behaviour_classes(records, cases, loaded.keys):
            log.write(behaviour)
        log.write(End())

    try:
        with log_path(args.output) as path:
            write_log(path, head, work, log_name(args.output))
            return emit(read_log(path), args)
    except ValueError as exc:
        return fail("versions", exc)
