"""Compare many cases, optionally in worker processes, shrinking generated disagreements.

Results are identical for every number of jobs: cases are dealt out in order and their pair
records come back in case order, and the shrinking budget of every disagreement is fixed
before the work starts (the total budget shared evenly, never first come, first served).
Whatever an implementation or a library prints while being compared goes to stderr, so
stdout carries only the report.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import signal
import sys
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import redirect_stdout
from functools import partial
from typing import Any

from ...cases import Case, ExpectationKey
from ...results.records import Pair
from ..subjects import Subject, open_subjects
from . import MAX_STEPS, SHRINK_BUDGET
from .pairs import compare_case, pair_record
from .shrink import shrink_disagreement

__all__ = ["WorkerLost", "compare_cases", "shrink_allowance"]


class WorkerLost(RuntimeError):
    """A worker process of ``--jobs`` ended without finishing its cases."""


_WORKER: dict[str, Any] = {}
#: Cases a worker process is handed at once.
_CHUNK = 4


def shrink_allowance(cases: Sequence[Case], implementations: int, total: int) -> int:
    """Candidate inputs each generated disagreement may try: ``total`` shared evenly by
    every pair of implementations on every generated case, at most ``MAX_STEPS``."""
    generated = sum("generated" in case.tags for case in cases)
    pairs = implementations * (implementations - 1) // 2
    return max(0, min(MAX_STEPS, total // max(1, generated * pairs)))


def _init_worker(specs: Sequence[str], keys: Mapping[str, ExpectationKey], budget: int) -> None:
    # The parent's SIGTERM/SIGHUP handlers turn a signal into an exception that unwinds the
    # command; a worker just ends (the parent notices and reports what it had).
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    _WORKER.update(subjects=open_subjects(specs, keys), budget=budget)
    multiprocessing.util.Finalize(None, _close_subjects, exitpriority=10)


def _close_subjects() -> None:
    for subject in _WORKER.get("subjects", ()):
        subject.adapter.close()


def _in_workers(
    specs: Sequence[str],
    cases: Sequence[Case],
    keys: Mapping[str, ExpectationKey],
    budget: int,
    jobs: int,
) -> Iterator[list[Pair]]:
    """``jobs`` worker processes, records in case order. A worker that dies (killed by the
    system, or by what an implementation did to it) is :class:`WorkerLost`, not a wait
    forever; an interruption stops every worker at once."""
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(
        max(1, min(jobs, -(-len(cases) // _CHUNK))),  # no idle processes: each costs a fork
        mp_context=multiprocessing.get_context(),
        initializer=_init_worker,
        initargs=(specs, keys, budget),
    )
    try:
        yield from pool.map(_work, cases, chunksize=_CHUNK)
    except BrokenProcessPool as exc:
        _stop(pool, before)
        raise WorkerLost(
            "a worker process of --jobs died (killed by the system, e.g. out of memory, or by "
            f"an implementation): the comparison is incomplete ({exc})"
        ) from None
    except BaseException:
        _stop(pool, before)
        raise
    pool.shutdown()


def _stop(pool: ProcessPoolExecutor, before: set[Any]) -> None:
    """Cancel what has not started and end the pool's processes now."""
    pool.shutdown(wait=False, cancel_futures=True)
    for process in set(multiprocessing.active_children()) - before:
        process.terminate()
        process.join(5)


def _work(case: Case) -> list[Pair]:
    budget = _WORKER["budget"]
    shrink = None
    if budget > 0 and "generated" in case.tags:
        shrink = partial(shrink_disagreement, budget=budget)
    with redirect_stdout(sys.stderr):
        rows = compare_case(case, _WORKER["subjects"], shrink=shrink)
    return [pair_record(row) for row in rows]


def compare_cases(
    specs: Sequence[str],
    cases: Sequence[Case],
    keys: Mapping[str, ExpectationKey],
    *,
    subjects: Sequence[Subject] | None = None,
    shrink: bool = False,
    shrink_budget: int = SHRINK_BUDGET,
    jobs: int = 1,
) -> Iterator[list[Pair]]:
    """The pair records of each case, in case order (identical for every ``jobs``).

    ``subjects`` are already opened adapters of ``specs`` for use in this process; worker
    processes open their own. Generated cases' disagreements are shrunk when ``shrink``,
    trying at most ``shrink_budget`` candidate inputs in all (see :func:`shrink_allowance`).
    """
    budget = shrink_allowance(cases, len(specs), shrink_budget) if shrink else 0
    if jobs > 1:
        yield from _in_workers(specs, cases, keys, budget, jobs)
        return
    own = subjects is None
    _WORKER.update(subjects=list(subjects or open_subjects(specs, keys)), budget=budget)
    try:
        for case in cases:
            yield _work(case)
    finally:
        if own:
            for subject in _WORKER["subjects"]:
                subject.adapter.close()
