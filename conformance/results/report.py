"""A log read back: its records in order of kind, and the views reports are made of.

One :class:`Report` holds any command's log (the header says which); reporters render it and
compute nothing but formatting. Views derived here: the run's summaries per implementation
(:mod:`.summary`), a comparison's findings (:mod:`.findings`), a restriction to some
implementations (:meth:`Report.only`), and the exit status a log stands for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .coverage import EXIT_UNCHECKED, compare_shortfalls, run_shortfalls
from .records import (
    Behaviour,
    CaseResult,
    Cell,
    CorpusSummary,
    End,
    Header,
    Identification,
    ImplementationInfo,
    Movement,
    Pair,
    Problem,
    Release,
)
from .vocab import Policy

__all__ = ["Report"]


@dataclass
class Report:
    """Every record of one log, by kind, in the order written."""

    header: Header
    implementations: list[ImplementationInfo] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    results: list[CaseResult] = field(default_factory=list)
    baseline: list[Movement] = field(default_factory=list)
    pairs: list[Pair] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    releases: list[Release] = field(default_factory=list)
    behaviours: list[Behaviour] = field(default_factory=list)
    corpus: CorpusSummary | None = None
    identification: Identification | None = None
    end: End | None = None
    #: The line of each record that must be unique (what it is about -> line).
    _seen: dict[tuple[Any, ...], int] = field(default_factory=dict, repr=False)

    @property
    def command(self) -> str:
        return self.header.command

    @property
    def policy(self) -> Policy:
        return self.header.policy

    @property
    def complete(self) -> bool:
        """False when the command was interrupted before its end record."""
        return self.end is not None

    def add(self, kind: str, record: Any, line: int = 0) -> None:
        """Add one record read from ``line`` (ValueError: a record that cannot be there:
        anything after the end record, a result of an implementation no record announced,
        a result's ``got.score`` that is not a number)."""
        if kind == "header":
            raise ValueError("a second header (two logs written into one file?)")
        if self.end is not None:
            raise ValueError(f"a {kind} record after the end record (was the log edited?)")
        if isinstance(record, CaseResult):
            _check_result(self, record)
        if kind in ("corpus", "identification", "end"):
            self._once(kind, (kind,), line)
            setattr(self, kind, record)
            return
        key = _identity(kind, record)
        if key is not None:
            self._once(kind, key, line)
        getattr(self, _LISTS[kind]).append(record)

    def _once(self, kind: str, key: tuple[Any, ...], line: int) -> None:
        if key in self._seen:
            raise ValueError(
                f"a second {kind} record for {_about(key)} (the first is on line "
                f"{self._seen[key]}); was the log edited, or written by two commands at once?"
            )
        self._seen[key] = line

    def exit_status(self) -> int:
        """What the log stands for: 2 when it is no verdict (an interrupted command,
        fixture problems: cases that could not be checked, a corpus report that left a bad
        system file out); 1 for findings (a run's fail,
        error, fixed or changed result or baseline regression; a corpus report in which no
        implementation scored any system); 4 when it checked too little to be a verdict
        (:meth:`shortfalls`); else 0."""
        if self.end is None or self.problems or self.end.problems:
            return 2
        if self.corpus is not None and self.corpus.unread:
            return 2
        unexpected = any(r.unexpected for r in self.results)
        if unexpected or any(m.regression and not m.accepted for m in self.baseline):
            return 1
        if self.command == "corpus" and not any(c.score is not None for c in self.cells):
            return 1
        return EXIT_UNCHECKED if self.shortfalls() else 0

    def shortfalls(self) -> list[str]:
        """Why a run or a comparison checked too little to be a verdict (the rule of
        :mod:`.coverage`): an implementation checked on no case or only by default, a
        comparison of fewer than two implementations or of one compared with none."""
        if self.command == "compare":
            return compare_shortfalls(self.names(), self.pairs)
        return run_shortfalls(self.implementations, self.results) if self.command == "run" else []

    def scores(self) -> dict[str, dict[str, float]]:
        """A corpus report's scores (0–100): implementation -> system -> score."""
        out: dict[str, dict[str, float]] = {name: {} for name in self.names()}
        for cell in self.cells:
            if cell.score is not None:
                out[cell.implementation][cell.system] = cell.score
        return out

    def errors(self) -> dict[str, dict[str, str]]:
        """A corpus report's cells without a score: implementation -> system -> ``status:
        reason``."""
        out: dict[str, dict[str, str]] = {name: {} for name in self.names()}
        for cell in self.cells:
            if cell.score is None:
                out[cell.implementation][cell.system] = f"{cell.status}: {cell.reason}"
        return out

    def results_for(self, implementation: str) -> list[CaseResult]:
        return [r for r in self.results if r.implementation == implementation]

    def names(self) -> list[str]:
        """Every implementation the log names, in order."""
        named = [i.name for i in self.implementations]
        named += [r.implementation for r in self.results]
        named += [n for p in self.pairs for n in (p.a, p.b)]
        named += [c.implementation for c in self.cells]
        return list(dict.fromkeys(named))

    def only(self, names: Sequence[str]) -> Report:
        """The report restricted to ``names`` (names or ``--impl`` specs); ValueError for a
        name the log does not hold (a typo must not render an empty, green report)."""
        if not names:
            return self
        keep = set(names)
        known = set(self.names()) | {i.spec for i in self.implementations}
        missing = [n for n in names if n not in known]
        if missing:
            have = ", ".join(sorted(self.names()))
            raise ValueError(f"--impl {missing[0]!r}: not in this log (it has: {have})")
        if self.corpus is not None or self.identification is not None:
            raise ValueError("--impl selects implementations of run and compare logs only")
        keep |= {i.name for i in self.implementations if i.spec in keep}
        return replace(
            self,
            implementations=[i for i in self.implementations if i.name in keep],
            results=[r for r in self.results if r.implementation in keep],
            baseline=[m for m in self.baseline if m.implementation in keep],
            pairs=[p for p in self.pairs if p.a in keep and p.b in keep],
        )


_LISTS = {
    "implementation": "implementations",
    "problem": "problems",
    "result": "results",
    "baseline": "baseline",
    "pair": "pairs",
    "cell": "cells",
    "release": "releases",
    "behaviour": "behaviours",
}


#: How a log writes a score that is not a finite number (:func:`~conformance.protocol.jsonable`).
_NON_FINITE = ("nan", "inf", "-inf")


def _check_result(report: Report, result: CaseResult) -> None:
    """ValueError for a run's result no implementation record announced, or whose
    ``got.score`` is not a number."""
    named = {i.name for i in report.implementations}
    if report.command == "run" and result.implementation not in named:
        raise ValueError(
            f"a result of {result.implementation!r}, which no implementation record before it "
            "announces"
        )
    score = result.got.get("score")
    is_number = isinstance(score, int | float) and not isinstance(score, bool)
    if score is not None and not is_number and score not in _NON_FINITE:
        raise ValueError(f"result: got.score: {score!r} is not a number")


def _identity(kind: str, record: Any) -> tuple[Any, ...] | None:
    """What a record is about, for the kinds of which a log holds one per subject."""
    if isinstance(record, CaseResult):
        return (kind, record.implementation, record.file, record.case_id)
    if isinstance(record, Pair):
        return (kind, record.file, record.item, record.a, record.b)
    if isinstance(record, Cell):
        return (kind, record.implementation, record.system)
    return None


def _about(key: tuple[Any, ...]) -> str:
    kind, *rest = key
    if kind == "result":
        return f"case {rest[2]} of {rest[0]}"
    if kind == "pair":
        return f"case {rest[1]} of {rest[2]} vs {rest[3]}"
    if kind == "cell":
        return f"system {rest[1]} of {rest[0]}"
    return "this log"
