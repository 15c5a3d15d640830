"""Rebuild (or check) docs/disagreements.md: conformance matrix and explained disagreements.

Runs every bleu_impl profile and every installed live library (nltk, sacrebleu,
torchmetrics) on the bundled fixtures, compares the libraries pairwise, attributes every
difference to knob changes, and writes the Markdown report. --check regenerates it in
memory and exits 1 when the committed file differs (CI uses this); a library that is not
installed here is left out of the check, and the command says so. Run it at the root of a
checkout (the default --output is relative to the current directory).

examples:
  bleu-conformance disagreements                       # rewrite docs/disagreements.md
  bleu-conformance disagreements --check               # exit 1 when it is stale
  bleu-conformance disagreements --output /tmp/disagreements.md
"""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..outputs import OutputError, check_writable, write_atomic
from .options import OneFile, ProgressBar, add_quiet_argument, fail

if TYPE_CHECKING:  # the engine, adapters and report are imported by build(): not for --help
    from ..cases import LoadResult
    from ..reporters.disagreements_doc import MatrixRow

EXIT_CODES = {
    0: "written, or (--check) up to date",
    1: "(--check) the document is stale",
    2: "bad usage, or (--check) no document at --output",
}

#: The document, relative to the current directory (the root of a checkout).
DEFAULT = Path("docs") / "disagreements.md"

#: The live libraries compared, and the implementations compared pairwise.
LIBRARIES = ("nltk", "sacrebleu", "torchmetrics")
COMPARED = ("bleu_impl:papineni2002", "nltk", "sacrebleu", "torchmetrics")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--output",
        type=Path,
        action=OneFile,
        default=None,
        metavar="FILE",
        help=f"the document to write or check (default: {DEFAULT.as_posix()} in the current "
        "directory)",
    )
    parser.add_argument(
        "--check", action="store_true", help="regenerate in memory and compare; write nothing"
    )
    add_quiet_argument(parser)


def _matrix_row(spec: str, loaded: LoadResult) -> MatrixRow:
    from ..adapters import make_adapter
    from ..engine import verify_cases
    from ..protocol import AdapterError
    from ..reporters.disagreements_doc import MatrixRow

    is_library = not spec.startswith("bleu_impl")
    name = f"bleu_impl as {spec[10:]}" if spec.startswith("bleu_impl:") else spec
    try:
        adapter = make_adapter(spec, loaded.keys)
    except AdapterError as exc:
        return MatrixRow(name, "", unavailable=exc.message.splitlines()[0], is_library=True)
    with adapter:
        results = verify_cases(adapter, loaded.cases, loaded.keys)
    caps = adapter.capabilities
    return MatrixRow(
        name if not is_library else caps.name, caps.version, results, is_library=is_library
    )


def build() -> tuple[str, list[str]]:
    """The whole document and the libraries that could not be run here."""
    from ..cases import load_fixtures  # YAML and JSON Schema: never for --help
    from ..engine import compare_case, open_subjects, pair_record
    from ..reporters.disagreements_doc import render

    loaded = load_fixtures()
    specs = [f"bleu_impl:{key}" for key, value in loaded.keys.items() if value.profile]
    matrix = [_matrix_row(spec, loaded) for spec in [*specs, *LIBRARIES]]
    missing = [row.name for row in matrix if row.unavailable]
    compared = [spec for spec in COMPARED if spec not in missing]
    subjects = open_subjects(compared, loaded.keys)
    try:
        pairs = [pair_record(row) for case in loaded.cases for row in compare_case(case, subjects)]
    finally:
        for subject in subjects:
            subject.adapter.close()
    return render(matrix, pairs, len(loaded.cases)) + "\n", missing


def _without(text: str, names: Sequence[str]) -> list[str]:
    """The document's lines, leaving out the environment line and every line that names an
    implementation not installed here."""
    return [
        line
        for line in text.splitlines()
        if not line.startswith("Python ") and not any(name in line for name in names)
    ]


def run(args: argparse.Namespace) -> int:
    output: Path = args.output or DEFAULT
    if args.check and not output.is_file():
        return fail("disagreements", f"{output} does not exist; run without --check to write it")
    if not args.check:
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
            check_writable(output, "--output")  # before the comparison, not after it
        except OSError as exc:
            return fail("disagreements", exc)
    with ProgressBar(None, "disagreements", enabled=not args.quiet):
        text, missing = build()
    if not args.check:
        try:
            write_atomic(output, text, "the document")
        except OutputError as exc:
            return fail("disagreements", exc)
        print(f"wrote {output}")
        if missing:
            print(f"note: not installed here, so not in the document: {', '.join(missing)}")
        return 0
    current = output.read_text(encoding="utf-8")
    if missing:
        print(f"not checked (not installed here): {', '.join(missing)} and every line naming it")
    old, new = _without(current, missing), _without(text, missing)
    if old == new:
        print(f"{output} is up to date")
        return 0
    diff = difflib.unified_diff(old, new, str(output), "regenerated", lineterm="")
    print("\n".join(list(diff)[:60]))
    return fail("disagreements", f"{output} is stale: run `bleu-conformance disagreements`", 1)
