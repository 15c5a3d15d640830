"""What the fault-injection tests share: running the CLI, reading its JSON report, and
checking that processes an implementation left behind are gone."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from conformance.cli import main

from ..helpers import FAKES, MINI, PYTHON

HOSTILE = "tests.conformance.fakes.hostile"
GOOD = "tests.conformance.fakes.impls:good"
JSONL = f"{PYTHON} {FAKES / 'jsonl_program.py'}"


def cli(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """``bleu-conformance ARGV``: (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: Any, *argv: str, fixtures: Path = MINI) -> tuple[int, dict[str, Any]]:
    """``run --format json`` on the mini fixtures: (exit status, the parsed report)."""
    status, out, err = cli(capsys, "run", "--fixtures", str(fixtures), "--format", "json", *argv)
    assert out, err
    return status, json.loads(out)


def by_implementation(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = {}
    for result in report["results"]:
        rows.setdefault(result["implementation"], []).append(result)
    return rows


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"


def wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    """The pids still running after ``seconds`` (killing is asynchronous)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [p for p in pids if alive(p)]
        if not left:
            return []
        time.sleep(0.1)
    return [p for p in pids if alive(p)]


def pids(path: Path) -> list[int]:
    if not path.exists():
        return []
    return [int(line) for line in path.read_text().split()]
