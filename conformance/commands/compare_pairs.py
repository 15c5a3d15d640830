"""``compare --pairs MANIFEST --output DIR``: the corpus report of every pair of a shared task
in one command, with a cross-pair summary.

The manifest (YAML or JSON) lists the pairs, paths relative to it::

    pairs:
      - {name: en-de, refs: [en-de/ref.A], systems: ["en-de/sys/*"]}
      - {name: en-zh, refs: [en-zh/ref.A], systems: ["en-zh/sys/*"], knobs: {tokenize: zh}}

A directory laid out as the WMT system repositories are (``wmt22-news-systems``:
``txt/references/TEST.PAIR.ref.R.LANG``, ``txt/system-outputs/TEST.PAIR.hyp.SYSTEM.LANG``)
is a manifest too: a pair per ``PAIR``, every reference and system of it, and sacrebleu's
tokenizer for the target language (``zh``: zh, ``ja``: ja-mecab, ``ko``: ko-mecab).

Each pair's report is written to ``DIR/NAME.jsonl`` as it is computed (``report`` renders
it); a pair whose log is complete is not computed again, so an interrupted run resumes
where it stopped. A pair whose files are bad is a row saying why; the others go on.

With ``--scheduler ADDRESS`` (a Dask scheduler, or ``local:N`` for a ``LocalCluster`` of N
worker processes) each pair not yet logged is one task: the task graph holds the pair's
paths and options, the worker reads the files and computes the report, and its log comes
back to be written to ``DIR/NAME.jsonl`` here, the same records as in one process.
"""

from __future__ import annotations

import argparse
import glob
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cases.usercorpus import CorpusInputError
from ..knobargs import knob_pair
from ..protocol import AdapterError
from ..reporters.corpus_pairs import render_pairs
from ..results.log import read_log
from ..results.report import Report
from .options import EXIT_OK, EXIT_USAGE, fail

__all__ = ["Pair", "laid_out_pairs", "load_manifest", "run_pairs"]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
#: ``TEST.SRC-TGT.ref.R.TGT`` / ``TEST.SRC-TGT.hyp.SYSTEM.TGT`` (SYSTEM may hold dots).
_LAID_OUT = re.compile(r"[^.]+\.(?P<pair>[a-z]+-(?P<tgt>[a-z]+))\.(?P<kind>ref|hyp)\..+\.(?P=tgt)")
#: sacrebleu's tokenizer by target language (its CLI's default with ``-l SRC-TGT``).
_TOKENIZER = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


@dataclass(frozen=True)
class Pair:
    """One corpus of the task: its references, systems and corpus knobs."""

    name: str
    refs: tuple[str, ...]
    systems: tuple[str, ...]
    knobs: dict[str, Any] = field(default_factory=dict)


def _paths(base: Path, entries: Any, what: str, where: str) -> tuple[str, ...]:
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        raise ValueError(f"{where}: {what} must be a list of file names or globs")
    out: list[str] = []
    for entry in entries:
        path = str(base / entry)
        found = sorted(glob.glob(path)) if glob.has_magic(entry) else [path]
        if not found:
            raise ValueError(f"{where}: {what} {entry!r} matches no file")
        out += found
    return tuple(out)


def laid_out_pairs(root: Path) -> list[Pair]:
    """The pairs of a directory laid out as the WMT system repositories (module docstring)."""
    txt = root / "txt" if (root / "txt" / "references").is_dir() else root
    found: dict[str, dict[str, list[str]]] = {}
    for kind, folder in (("ref", "references"), ("hyp", "system-outputs")):
        for file in sorted((txt / folder).glob("*")):
            match = _LAID_OUT.fullmatch(file.name)
            if match and match["kind"] == kind:
                found.setdefault(match["pair"], {"ref": [], "hyp": []})[kind].append(str(file))
    pairs = [
        Pair(name, tuple(files["ref"]), tuple(files["hyp"]), _knobs(name))
        for name, files in sorted(found.items())
        if files["ref"] and files["hyp"]
    ]
    if not pairs:
        raise ValueError(
            f"--pairs {root}: no pair found in {txt}/references and {txt}/system-outputs "
            "(files named TEST.SRC-TGT.ref.R.TGT and TEST.SRC-TGT.hyp.SYSTEM.TGT)"
        )
    return pairs


def _knobs(pair: str) -> dict[str, Any]:
    tokenizer = _TOKENIZER.get(pair.split("-")[1])
    return {"tokenize": tokenizer} if tokenizer else {}


def load_manifest(path: str) -> list[Pair]:
    """The pairs of the manifest at ``path``, or of the directory ``path`` laid out as the
    WMT repositories (ValueError naming the file and the pair)."""
    if Path(path).is_dir():
        return laid_out_pairs(Path(path))
    import yaml  # a manifest only: never for --help

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ValueError(f"--pairs {path}: {exc}") from None
    items = data.get("pairs") if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        raise ValueError(f"--pairs {path}: expected a mapping with a non-empty list 'pairs'")
    base = Path(path).parent
    pairs: list[Pair] = []
    for k, item in enumerate(items, 1):
        where = f"{path}: pair {k}"
        if not isinstance(item, dict) or not _NAME.fullmatch(str(item.get("name", ""))):
            raise ValueError(f"{where}: needs a name of letters, digits, '.', '_' or '-'")
        where = f"{path}: pair {item['name']!r}"
        knobs = item.get("knobs") or {}
        if not isinstance(knobs, dict):
            raise ValueError(f"{where}: knobs must be a mapping")
        pairs.append(
            Pair(
                str(item["name"]),
                _paths(base, item.get("refs"), "refs", where),
                _paths(base, item.get("systems"), "systems", where),
                {str(k): v for k, v in knobs.items()},
            )
        )
    names = [p.name for p in pairs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"--pairs {path}: pair names given twice: {', '.join(twice)}")
    return pairs


def _complete(path: Path) -> Report | None:
    """The report logged at ``path`` when its run finished, else None (run it again)."""
    try:
        report = read_log(path)
    except (OSError, ValueError):
        return None
    return report if report.complete and report.corpus is not None else None


def _pair_args(args: argparse.Namespace, pair: Pair, log: Path) -> argparse.Namespace:
    knobs = [knob_pair(f"{k}={v}") for k, v in pair.knobs.items()]
    return argparse.Namespace(
        **{
            **vars(args),
            "ref": list(pair.refs),
            "input": list(pair.systems),
            "knob": [*args.knob, *knobs],
            "output": str(log),
        }
    )


def _build(args: argparse.Namespace, pair: Pair, log: Path) -> str | None:
    """Write one pair's report to ``log``, reading the pair's files; why they are bad, or
    None."""
    from .compare_corpus import build  # compare_corpus dispatches here

    try:
        build(_pair_args(args, pair, log), log)
    except (CorpusInputError, AdapterError, OSError, ValueError) as exc:
        return str(exc)
    return None


def _pair_log(args: argparse.Namespace, pair: Pair) -> tuple[str, bool]:
    """A Dask task (the graph holds the pair's paths; the worker reads the files): ``(the
    pair's log, True)``, or ``(why its files are bad, False)``."""
    with tempfile.TemporaryDirectory(prefix="bleu-conformance-pair-") as tmp:
        log = Path(tmp) / f"{pair.name}.jsonl"
        why = _build(args, pair, log)
        return (why, False) if why is not None else (log.read_text(encoding="utf-8"), True)


def _cluster(address: str) -> Any:
    """A Dask client of the scheduler at ``address``, or of a new ``LocalCluster`` of N
    worker processes for ``local:N``."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError(
            "--scheduler needs Dask's distributed: pip install 'bleu-conformance[dask]'"
        ) from None
    kind, _, workers = address.partition(":")
    if kind == "local":
        if not workers.isdigit() or int(workers) < 1:
            raise ValueError(f"--scheduler {address}: local:N takes a number of workers N >= 1")
        cluster = LocalCluster(n_workers=int(workers), threads_per_worker=1, dashboard_address=None)
        return Client(cluster)
    try:
        return Client(address, timeout=30)
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"--scheduler {address}: cannot connect: {exc}") from None


def _computed(
    args: argparse.Namespace, pairs: list[Pair], out: Path
) -> Iterator[tuple[str, Report | str]]:
    """Each pair's report, logged to ``out/NAME.jsonl`` (in this process, or one Dask task
    per pair when ``args.scheduler`` names a cluster; its log is written here as each
    task ends), or why its files are bad."""
    if not args.scheduler:
        for pair in pairs:
            log = out / f"{pair.name}.jsonl"
            why = _build(args, pair, log)
            yield pair.name, read_log(log) if why is None else why
        return
    from distributed import as_completed

    client = _cluster(args.scheduler)
    try:
        tasks = {client.submit(_pair_log, args, pair, pure=False): pair.name for pair in pairs}
        for task in as_completed(tasks):
            text, ok = task.result()
            log = out / f"{tasks[task]}.jsonl"
            if ok:
                log.write_text(text, encoding="utf-8")
            yield tasks[task], read_log(log) if ok else text
    finally:
        cluster = client.cluster  # local:N: ours to close too
        client.close()
        if args.scheduler.startswith("local:") and cluster is not None:
            cluster.close()


def run_pairs(args: argparse.Namespace) -> int:
    """Every pair's report into its log (complete ones kept), then the summary."""
    if not args.output:
        return fail("compare", "--pairs needs --output DIR (a log per pair)", EXIT_USAGE)
    if args.ref or args.input:
        return fail("compare", "--pairs takes the files from its manifest, not -r/-i", EXIT_USAGE)
    try:
        pairs = load_manifest(args.pairs)
    except ValueError as exc:
        return fail("compare", exc, EXIT_USAGE)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    kept = {p.name: r for p in pairs if (r := _complete(out / f"{p.name}.jsonl")) is not None}
    try:
        computed = dict(_computed(args, [p for p in pairs if p.name not in kept], out))
    except ValueError as exc:
        return fail("compare", exc, EXIT_USAGE)
    done = [
        (p.name, kept[p.name] if p.name in kept else computed[p.name], p.name in kept)
        for p in pairs
    ]
    text = render_pairs(done, args.format)
    if args.report:
        Path(args.report).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    bad = any(isinstance(r, str) or (r.corpus and r.corpus.unread) for _, r, _ in done)
    return EXIT_USAGE if bad else EXIT_OK
