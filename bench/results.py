"""One bench run as a JSON file (``docs/benchmarks.json``): its rows, its generated
comparisons and where and when it ran; ``docs/benchmarks.md`` is rendered from it."""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .generated import CompareRun, Measured
from .identify import IdentifyRow
from .libs import DISTRIBUTIONS, version
from .runner import Row

__all__ = [
    "EXTRAS",
    "Run",
    "add_into",
    "load_run",
    "machine",
    "merge",
    "merge_runs",
    "run_meta",
    "save_into",
    "save_run",
]


@dataclass
class Run:
    """A bench run: ``meta`` (command, date, machine, load, commit, versions, method)."""

    rows: list[Row]
    compared: list[Measured] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    #: ``python -m bench.corpus_report --into``'s measurement (bench/corpus_report.py)
    corpus_report: dict[str, Any] = field(default_factory=dict)
    #: ``identify --impl X`` timed (bench/identify.py)
    identify: list[IdentifyRow] = field(default_factory=list)
    #: ``python -m bench.startup --into``'s measurement (bench/startup.py)
    startup: dict[str, Any] = field(default_factory=dict)


#: The measurements saved into a run by a command of their own (``--into``).
EXTRAS = ("corpus_report", "startup")


def _commit() -> str:
    root = Path(__file__).resolve().parents[1]
    git = ["git", "-C", str(root)]
    try:
        head = subprocess.run(
            [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        )
        dirty = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True)
    except OSError:
        return "unknown"
    return head.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def machine() -> str:
    """CPU model, cores, memory, OS and Python."""
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1024**2:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{cpu}, {cores} cores{mem}; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}"
    )


def _autogroup() -> bool:
    """Whether Linux groups each session's processes into one CPU share (autogroup)."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


def run_meta(command: str, reps: int, warmup: int, clock: str) -> dict[str, Any]:
    """Where, when and how this run measures (the load average is read again at the end)."""
    return {
        "command": command,
        "started": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "load_start": [round(x, 2) for x in os.getloadavg()],
        "commit": _commit(),
        "versions": {d: version(d) for d in ("bleu-conformance", *DISTRIBUTIONS)},
        "reps": reps,
        "warmup": warmup,
        "clock": clock,
        "autogroup": _autogroup(),
    }


def save_run(path: Path, run: Run, *, measuring: bool = True) -> None:
    """Write ``run`` as JSON (while ``measuring``: the load average now as ``load_end``)."""
    if measuring:
        run.meta["load_end"] = [round(x, 2) for x in os.getloadavg()]
    data = {"meta": run.meta, "rows": [asdict(r) for r in run.rows]}
    data["compared"] = [asdict(m) for m in run.compared]
    data.update({name: getattr(run, name) for name in EXTRAS if getattr(run, name)})
    if run.identify:
        data["identify"] = [asdict(row) for row in run.identify]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def load_run(path: Path) -> Run:
    """The run saved at ``path`` by :func:`save_run`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    compared = []
    for item in data.get("compared", []):
        spec = item.pop("run")
        run = CompareRun(spec["label"], tuple(spec["args"]), spec["target"], spec["same_as"])
        compared.append(Measured(run, **item))
    rows = [Row(**r) for r in data["rows"]]
    identify = [IdentifyRow(**row) for row in data.get("identify", [])]
    extras = {name: data.get(name, {}) for name in EXTRAS}
    return Run(rows, compared, data["meta"], identify=identify, **extras)


def add_into(parser: argparse.ArgumentParser) -> None:
    """The ``--into RESULTS`` option of a command whose measurement :func:`save_into` keeps."""
    parser.add_argument(
        "--into",
        type=Path,
        metavar="RESULTS",
        help="save the measurement into the bench results (docs/benchmarks.json) and render "
        "the Markdown beside them (docs/benchmarks.md) again",
    )


def save_into(path: Path, name: str, measured: dict[str, Any]) -> None:
    """Save ``measured`` as the run's ``name`` (one of :data:`EXTRAS`) into the results at
    ``path``, and render ``docs/benchmarks.md`` beside them again."""
    from .report import markdown

    run = load_run(path)
    setattr(run, name, measured)
    save_run(path, run, measuring=False)
    path.with_suffix(".md").write_text(markdown(run), encoding="utf-8")


def merge(runs: list[Run]) -> Run:
    """Runs as one: their rows and comparisons in order (a row measured again, same size,
    references, task and library, or a comparison with the same label, replaces the earlier
    one in its place), the first run's machine and start, every command and note, the last
    run's closing load average, identify rows and measurement of each of :data:`EXTRAS`."""
    meta = dict(runs[0].meta)
    meta["command"] = "` and `".join(run.meta["command"] for run in runs)
    notes = [run.meta["note"] for run in runs if run.meta.get("note")]
    if notes:
        meta["note"] = " ".join(notes)
    for key in ("load_end", "identify_load"):
        last = next((run.meta[key] for run in reversed(runs) if key in run.meta), None)
        if last is not None:
            meta[key] = last
    latest = {(r.size, r.refs, r.task, r.lib): r for run in runs for r in run.rows}
    rows = list(latest.values())  # a key keeps its first place and takes its last row
    extras: dict[str, dict[str, Any]] = {
        name: next((getattr(run, name) for run in reversed(runs) if getattr(run, name)), {})
        for name in EXTRAS
    }
    identify = next((run.identify for run in reversed(runs) if run.identify), [])
    compared = list({m.run.label: m for run in runs for m in run.compared}.values())
    return Run(rows, compared, meta, identify=identify, **extras)


def merge_runs(paths: list[Path]) -> Run:
    """The runs saved at ``paths`` as one (:func:`merge`)."""
    return merge([load_run(path) for path in paths])
