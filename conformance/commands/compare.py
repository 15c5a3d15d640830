"""Compare BLEU implementations case by case and explain every discrepancy.

With no options, compares our exact implementation (bleu_impl, the paper's definition) with
NLTK's scorer on every bundled fixture. Each implementation answers the same inputs through
its adapter; each pair of implementations is then classified per case as identical, within
tolerance (1e-9 relative, or half a printed digit), differing, errored or skipped. For every
difference the cause is searched in bleu_impl's knob space: the smallest set of knob changes
that turns one side's reproduction into the other's (e.g. "smoothing: none vs
nltk-method0"). Nothing found is reported as "unexplained".

examples:
  bleu-conformance compare                                  # bleu_impl vs nltk, all fixtures
  bleu-conformance compare --impl bleu_impl:sacrebleu --impl sacrebleu --impl nltk
  bleu-conformance compare -k ship --format markdown
  bleu-conformance compare --generate 200 --seed 1          # also random separating corpora
  bleu-conformance compare --output cmp.jsonl && bleu-conformance compare --replay cmp.jsonl

exit codes: 0 the comparison ran (differences are findings, not failures); 2 bad input
(unknown implementation, unreadable fixtures, malformed log).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

from ..adapters.registry import make_adapter
from ..compare.differ import Implementation, Item, PairRow, compare_item
from ..compare.generate import generate_items
from ..compare.report import Comparison, read_log, render, row_record, write_log
from ..compare.shrink import shrink_disagreement
from ..fixtures.loader import load_cases
from ..results import AdapterError
from ..runner.select import add_selection_arguments, select_cases

DEFAULT_IMPLEMENTATIONS = ("bleu_impl", "nltk")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--impl",
        action="append",
        default=[],
        metavar="SPEC",
        help="an implementation (repeat; default: bleu_impl and nltk). SPEC is "
        "bleu_impl[:PROFILE], nltk, sacrebleu, torchmetrics, package.module:function, "
        "jsonl:COMMAND, an adapter file",
    )
    add_selection_arguments(parser)
    parser.add_argument(
        "--generate",
        type=int,
        default=0,
        metavar="N",
        help="also compare on N generated corpora designed to separate semantics",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of --generate (default 0)")
    parser.add_argument(
        "--no-shrink",
        action="store_true",
        help="do not shrink generated disagreements to minimal inputs",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="worker processes (results are identical for every N)",
    )
    parser.add_argument("--format", choices=("table", "markdown", "json", "html"), default="table")
    parser.add_argument(
        "--output",
        metavar="LOG",
        help="also write the run log (JSON Lines) every report can be re-rendered from",
    )
    parser.add_argument("--report", metavar="FILE", help="write the rendered report to FILE")
    parser.add_argument("--replay", metavar="LOG", help="re-render a saved run log; runs nothing")


def _items(args: argparse.Namespace) -> list[Item]:
    result = load_cases(args.fixtures or None)
    if result.problems:
        print(
            f"warning: {len(result.problems)} fixture problem(s); run `bleu-conformance "
            "validate` for details (cases that loaded are still compared)",
            file=sys.stderr,
        )
    items = [Item.from_case(case) for case in select_cases(result.cases, args.keywords, args.tags)]
    if args.generate:
        items.extend(generate_items(args.generate, args.seed))
    return items


_WORKER: dict[str, object] = {}


def _open_implementations(specs: Sequence[str]) -> list[Implementation]:
    return [Implementation(spec, make_adapter(spec)) for spec in specs]


def _init_worker(specs: Sequence[str], shrink: bool) -> None:
    _WORKER["impls"] = _open_implementations(specs)
    _WORKER["shrink"] = shrink


def _work(item: Item) -> list[PairRow]:
    impls = _WORKER["impls"]
    assert isinstance(impls, list)
    shrink = shrink_disagreement if _WORKER["shrink"] and item.file == "<generated>" else None
    return compare_item(item, impls, shrink=shrink)


def _progress(iterable, total: int):
    if sys.stderr.isatty() and not os.environ.get("CI"):
        from tqdm import tqdm

        return tqdm(iterable, total=total, desc="comparing", unit="case", file=sys.stderr)
    return iterable


def run_comparison(args: argparse.Namespace) -> Comparison:
    specs = args.impl or list(DEFAULT_IMPLEMENTATIONS)
    items = _items(args)
    if not items:
        raise ValueError("no fixture case selected (check -k, --tag and --fixtures)")
    impls = _open_implementations(specs)  # fails early, in this process, on a bad spec
    shrink = not args.no_shrink
    rows: list[PairRow] = []
    try:
        if args.jobs > 1:
            with ProcessPoolExecutor(
                args.jobs, initializer=_init_worker, initargs=(specs, shrink)
            ) as pool:
                for item_rows in _progress(pool.map(_work, items, chunksize=4), len(items)):
                    rows.extend(item_rows)
        else:
            _WORKER.update(impls=impls, shrink=shrink)
            for item in _progress(items, len(items)):
                rows.extend(_work(item))
    finally:
        for impl in impls:
            impl.adapter.close()
    header = {
        "created": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "implementations_compared": specs,
        "items": len(items),
        "generated": args.generate,
        "seed": args.seed,
    }
    return Comparison(
        header=header,
        implementations=[{"name": i.name, "version": i.version, "spec": i.spec} for i in impls],
        pairs=[row_record(row) for row in rows],
    )


def run(args: argparse.Namespace) -> int:
    try:
        comparison = read_log(args.replay) if args.replay else run_comparison(args)
    except (AdapterError, OSError, ValueError) as exc:
        print(f"bleu-conformance compare: error: {exc}", file=sys.stderr)
        return 2
    if args.output and not args.replay:
        write_log(args.output, comparison)
    text = render(comparison, args.format)
    if args.report:
        Path(args.report).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0
