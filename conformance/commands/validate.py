"""Check fixture files: YAML, schema, vocabularies, inputs and internal consistency.

Loads every case file under PATHS (default: the bundled fixtures/ library) and reports
every problem found -- YAML syntax errors, schema violations, duplicate ids, unknown
tags/knobs/implementation keys, ragged or empty inputs, and expectations whose score
disagrees with their own counts, totals and lengths. Never stops at the first problem.
Files outside the bundled library are checked against the implementations.yaml, tags.yaml
and schema/ found at or above them (or --root); without one, the bundled library's.

examples:
  bleu-conformance validate                          # the bundled library
  bleu-conformance validate my-cases/ --format json  # your own case files
  bleu-conformance validate my-cases.yaml --root my-library/
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ..cases import LoadResult, iter_expectations
from ..reporters.textgrid import grid
from ..results.printable import shown
from .options import fail

EXIT_CODES = {
    0: "no problem found",
    1: "at least one problem (all of them are listed)",
    2: "a path that does not exist",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATHS",
        help="case files or directories (default: the bundled fixtures/ library)",
    )
    parser.add_argument(
        "--format", choices=("table", "json"), default="table", help="output format (table)"
    )
    parser.add_argument(
        "--root",
        default=None,
        metavar="DIR",
        help="directory holding implementations.yaml, tags.yaml and schema/ (default: bundled)",
    )


def summary(result: LoadResult) -> dict[str, Any]:
    """Counts shown under the table (and in the JSON output)."""
    expectations = sum(1 for _ in iter_expectations(result.cases))
    return {
        "files": len({c.file for c in result.cases} | {p.file for p in result.problems}),
        "cases": len(result.cases),
        "expectations": expectations,
        "problems": len(result.problems),
        "problems_by_rule": dict(sorted(Counter(p.rule for p in result.problems).items())),
    }


def run(args: argparse.Namespace) -> int:
    missing = [p for p in args.paths if not (Path(p).exists() or Path(p).is_symlink())]
    if missing:  # bad usage, as an unknown --impl is (a broken link is a file's problem)
        return fail("validate", f"no such file or directory: {', '.join(map(str, missing))}")
    from ..cases import load_fixtures  # YAML and JSON Schema: never for --help

    result = load_fixtures(args.paths, root=args.root)
    info = summary(result)
    if args.format == "json":
        payload = {
            "ok": result.ok,
            "summary": info,
            "problems": [
                {
                    "file": p.file,
                    "line": p.line,
                    "case": p.case_id,
                    "rule": p.rule,
                    "message": p.message,
                }
                for p in result.problems
            ],
        }
        json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        if result.problems:
            # escaped: a case id or message holding a newline or a bidi override would
            # break the table or rewrite the terminal
            rows = [shown([p.location, p.case_id, p.rule, p.message]) for p in result.problems]
            print(grid(["file:line", "case", "rule", "message"], rows, maxwidths=[0, 30, 0, 70]))
            print()
        status = "OK" if result.ok else "FAILED"
        by_rule = ", ".join(f"{rule}: {n}" for rule, n in info["problems_by_rule"].items())
        tail = f" ({by_rule})" if by_rule else ""
        print(
            f"{status}: {info['cases']} cases, {info['expectations']} expectations in "
            f"{info['files']} files; {info['problems']} problems{tail}"
        )
    return 0 if result.ok else 1
