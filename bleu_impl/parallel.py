"""``--jobs N``: corpus statistics computed by N worker processes, merged in input order.

The input is read (and validated) in the calling process chunk by chunk, exactly as the
single-process fast path reads it; each chunk is tokenized and counted in a worker, and the
chunk sums are added in input order. ``BleuStats`` addition is exact (integers, Fractions),
so the result is identical for every N, and at most ``2 * jobs`` chunks are in flight, so
memory stays bounded for iterators. Errors surface in the same order as in one process.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .api import corpus_stats
from .errors import BleuError
from .inputs import Chunk, Segment, read_chunks
from .knobs import Config
from .stats import BleuStats

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

__all__ = ["TASK_SENTENCES", "chunk_sum", "default_jobs", "parallel_corpus_stats"]

#: Sentences sent to a worker at once (it counts them in CHUNK_SENTENCES pieces).
TASK_SENTENCES = 32_768


def chunk_sum(
    start: int, hyps: list[Segment], refss: list[list[Segment]], config: Config
) -> BleuStats:
    """The summed statistics of consecutive segments, the first having index ``start``."""
    from . import fast  # numpy is imported on first use, not with bleu_impl

    return fast.corpus_stats(hyps, refss, config, first_index=start)


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _first_chunks(reader: Iterator[Chunk], jobs: int, config: Config) -> list[Chunk]:
    """Up to ``jobs`` chunks of ``reader``; when reading fails, the errors of the chunks
    read before come first (as in one process)."""
    head: list[Chunk] = []
    try:
        while len(head) < jobs and (chunk := next(reader, None)) is not None:
            head.append(chunk)
    except Exception:
        for chunk in head:
            chunk_sum(*chunk, config)
        raise
    return head


def parallel_corpus_stats(
    hypotheses: Iterable[Any],
    references: Iterable[Any],
    config: Config,
    jobs: int | None = None,
    *,
    limit: int = TASK_SENTENCES,
) -> BleuStats:
    """``corpus_stats`` over ``jobs`` processes (None: every CPU; 1: in this process)."""
    from . import fast

    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    if jobs == 1 or not fast.supports(config):
        return corpus_stats(hypotheses, references, config)
    total = BleuStats.zero(config.max_order)
    reader = read_chunks(hypotheses, references, limit)
    head = _first_chunks(reader, jobs, config)
    if len(head) <= 1:  # the whole input is one chunk (or none): no process to start
        return total + chunk_sum(*head[0], config) if head else total
    # only when processes start: multiprocessing takes ~20 ms to import
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # never more processes than chunks: the pool forks every worker up front, so
    # jobs=100000 on a short input would start 100,000 processes to count one chunk
    with ProcessPoolExecutor(max_workers=len(head)) as pool:
        try:
            return _summed(pool, head, reader, config, jobs)
        except BrokenProcessPool:
            pool.shutdown(cancel_futures=True)
            raise BleuError(
                f"a worker process of jobs={jobs} ended without its result (killed: by a "
                "signal, or by the out-of-memory killer); nothing was scored. Try fewer "
                "jobs, or jobs=1"
            ) from None
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise


def _summed(
    pool: Executor, head: list[Chunk], reader: Iterator[Chunk], config: Config, jobs: int
) -> BleuStats:
    """The sum of every chunk's statistics, counted in ``pool``, added in input order."""
    total = BleuStats.zero(config.max_order)
    pending: deque[Future[BleuStats]] = deque(
        pool.submit(chunk_sum, *chunk, config) for chunk in head
    )
    while True:
        try:
            start, hyps, refss = next(reader)
        except StopIteration:
            break
        except Exception:
            while pending:  # an earlier chunk's error comes first, as in one process
                pending.popleft().result()
            raise
        pending.append(pool.submit(chunk_sum, start, hyps, refss, config))
        while len(pending) >= 2 * jobs:
            total = total + pending.popleft().result()
    while pending:
        total = total + pending.popleft().result()
    return total
