"""Rows for ``identify``: the wall and CPU time of ``bleu-conformance identify --impl X``.

Each run is a fresh process (``python -m conformance.cli identify --impl X --format json``,
the default 60 generated corpora), so the time includes loading the fixture library and the
library itself, as a user waits for it; CPU is the process's and its workers'. Target:
at most 10 s for nltk and sacrebleu on the reference machine (2 cores).

In a checkout, the zoo settings the test suite identifies (``tests/conformance/zoo``, 30
generated corpora, as the tests run them) are timed too, without a target: they search
every knob of the generic profile, the slowest identifications the suite runs.
"""

from __future__ import annotations

import importlib.util
import json
import resource
import subprocess
import sys
import time
from dataclasses import dataclass

from conformance.reporters import markdown as md
from conformance.reporters.numbers import EMPTY, fixed

__all__ = ["IDENTIFY_TARGET_S", "IdentifyRow", "identify_rows", "identify_table"]

IDENTIFY_TARGET_S = 10.0
IMPLEMENTATIONS = ("nltk", "sacrebleu")

#: Zoo callables (``tests.conformance.zoo.impls``) and the library each needs.
ZOO = {"ignite_smooth1": "ignite", "sacrebleu_intl": "sacrebleu", "bleuscore_default": "bleuscore"}
_ZOO_MODULE = "tests.conformance.zoo.impls"


@dataclass(frozen=True)
class IdentifyRow:
    impl: str
    wall_s: float
    cpu_s: float
    verdict: str
    targeted: bool = True

    @property
    def meets_target(self) -> bool:
        return self.wall_s <= IDENTIFY_TARGET_S


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _found(spec: str) -> bool:
    try:
        return importlib.util.find_spec(spec) is not None
    except ModuleNotFoundError:  # a parent package is missing (not a checkout)
        return False


def _zoo() -> list[str]:
    """The zoo specs that can run here (a checkout with the library installed)."""
    if not _found(_ZOO_MODULE):
        return []
    return [f"{_ZOO_MODULE}:{name}" for name, library in ZOO.items() if _found(library)]


def _row(impl: str, extra: list[str], targeted: bool) -> IdentifyRow:
    argv = [sys.executable, "-m", "conformance.cli", "identify", "--impl", impl, *extra]
    before, started = _children_cpu(), time.perf_counter()
    done = subprocess.run([*argv, "--format", "json"], capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - started, _children_cpu() - before
    try:
        found = json.loads(done.stdout)
        best = found["candidates"][0]["label"] if found["candidates"] else EMPTY
        verdict = f"{found['verdict']}: {best}"
    except (ValueError, KeyError, IndexError):
        verdict = f"failed (exit {done.returncode}): {done.stderr.strip()[-120:]}"
    shown = impl if not extra else f"{impl} {' '.join(extra)}"
    return IdentifyRow(shown, wall, cpu, verdict, targeted)


def identify_rows(impls: tuple[str, ...] = IMPLEMENTATIONS, zoo: bool = True) -> list[IdentifyRow]:
    """Time ``identify --impl X`` for each X (one run each, in a fresh process), then the
    zoo settings (``zoo``: when this is a checkout)."""
    rows = [_row(impl, [], True) for impl in impls]
    if zoo:
        rows += [_row(spec, ["--generate", "30"], False) for spec in _zoo()]
    return rows


def identify_table(rows: list[IdentifyRow]) -> str:
    """A Markdown table of the rows with the target."""
    headers = ["command", "wall s", "CPU s", f"target (≤ {IDENTIFY_TARGET_S:g} s wall)", "answer"]
    cells = [
        [
            md.code(f"identify --impl {row.impl}"),
            fixed(row.wall_s, 1),
            fixed(row.cpu_s, 1),
            ("met" if row.meets_target else "NOT met") if row.targeted else EMPTY,
            row.verdict,
        ]
        for row in rows
    ]
    return md.table(headers, cells)
