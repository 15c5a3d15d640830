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
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .api import corpus_stats
from .inputs import Segment, read_chunks
from .knobs import Config
from .stats import BleuStats

if TYPE_CHECKING:
    from concurrent.futures import Future

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


def parallel_corpus_stats(
    hypotheses: Iterable[Any],
    references: Iterable[Any],
    config: Config,
    jobs: int | None = None,
    *,
    limit: int = TASK_SENTENCES,
) -> BleuStats:
    """``corpus_stats`` over ``jobs`` processes (None: every CPU; 1: in this process)."""
    from concurrent.futures import ProcessPoolExecutor  # only when used: ~15 ms to import

    from . import fast

    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    if jobs == 1 or not fast.supports(config):
        return corpus_stats(hypotheses, references, config)
    total = BleuStats.zero(config.max_order)
    pending: deque[Future[BleuStats]] = deque()
    reader = read_chunks(hypotheses, references, limit)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        try:
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
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise
    return total
