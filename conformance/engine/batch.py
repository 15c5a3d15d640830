"""Compare many cases, optionally in worker processes, shrinking generated disagreements.

Results are identical for every number of jobs: cases are dealt out in order and their pair
records come back in case order.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..cases import Case, ExpectationKey
from .differ import Subject, compare_case, open_subjects, row_record
from .shrink import shrink_disagreement

__all__ = ["compare_cases"]

_WORKER: dict[str, Any] = {}


def _init_worker(specs: Sequence[str], keys: Mapping[str, ExpectationKey], shrink: bool) -> None:
    _WORKER.update(subjects=open_subjects(specs, keys), shrink=shrink)
    multiprocessing.util.Finalize(None, _close_subjects, exitpriority=10)


def _close_subjects() -> None:
    for subject in _WORKER.get("subjects", ()):
        subject.adapter.close()


def _work(case: Case) -> list[dict[str, Any]]:
    shrink = shrink_disagreement if _WORKER["shrink"] and "generated" in case.tags else None
    rows = compare_case(case, _WORKER["subjects"], shrink=shrink)
    return [row_record(row) for row in rows]


def compare_cases(
    specs: Sequence[str],
    cases: Sequence[Case],
    keys: Mapping[str, ExpectationKey],
    *,
    subjects: Sequence[Subject] | None = None,
    shrink: bool = False,
    jobs: int = 1,
) -> Iterator[list[dict[str, Any]]]:
    """The pair records of each case, in case order (identical for every ``jobs``).

    ``subjects`` are already opened adapters of ``specs`` for use in this process; worker
    processes open their own. Generated cases' disagreements are shrunk when ``shrink``.
    """
    if jobs > 1:
        pool = multiprocessing.get_context().Pool(
            jobs, initializer=_init_worker, initargs=(specs, keys, shrink)
        )
        try:
            yield from pool.imap(_work, cases, chunksize=4)
        except BaseException:  # interrupted: stop at once (the workers' adapters follow)
            pool.terminate()
            pool.join()
            raise
        pool.close()
        pool.join()
        return
    own = subjects is None
    _WORKER.update(subjects=list(subjects or open_subjects(specs, keys)), shrink=shrink)
    try:
        for case in cases:
            yield _work(case)
    finally:
        if own:
            for subject in _WORKER["subjects"]:
                subject.adapter.close()
