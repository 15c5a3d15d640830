"""Resampling a corpus through its per-segment statistics: bootstrap and randomization.

BLEU depends on a corpus only through sums of per-segment statistics (:mod:`bleu_impl.stats`),
so a resampled corpus needs no re-tokenization or re-counting: its statistics are a
multiplicity matrix times the per-segment table, ``W @ T`` (``W[r, s]`` = how often segment
``s`` is drawn in resample ``r``), computed exactly (integers below 2**53 in float64
arithmetic), and each resample is scored by the profile's own :func:`score_stats`.

The tests follow sacrebleu 2.x (``sacrebleu/significance.py``), itself after Koehn (2004,
"Statistical significance tests for machine translation evaluation", EMNLP) and the
MultEval p-value (Clark et al. 2011):

* paired bootstrap: ``numpy.random.default_rng(seed).choice(S, size=(R, S))`` picks every
  resample's segments (the same draws for every system and implementation); with
  ``d_r = |B_r - A_r|`` and ``delta = |B - A|`` on the 0-100 scale,
  ``p = (#{r : d_r - mean(d) > delta} + 1) / (R + 1)``;
* approximate randomization: ``default_rng(seed).integers(2, size=(T, S), dtype=bool)``
  says, per trial and segment, whether the two systems' segments stay (True: A's goes to
  the first pseudo-system) or swap; ``p = (#{t : |A'_t - B'_t| > delta} + 1) / (T + 1)``;
* the 95% interval of a system's score: the bootstrap scores sorted, ``lo = x[R // 40]``,
  ``hi = x[R - R // 40 - 1]``, reported as ``mean +- (hi - lo) / 2``.

numpy is imported on first use, not with bleu_impl.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .api import iter_segment_stats
from .knobs import Config
from .profiles import Profile
from .stats import BleuStats, LastSegment

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_TRIALS",
    "STACK_ENTRIES",
    "Interval",
    "SegmentTable",
    "bootstrap_interval",
    "bootstrap_macro_means",
    "bootstrap_macro_scores",
    "bootstrap_scores",
    "bootstrap_stats",
    "paired_bootstrap_p",
    "randomization_macro_scores",
    "randomization_p",
    "randomization_stats",
    "resample_indices",
    "segment_scores",
    "segment_table",
]

#: sacrebleu's defaults: ``--paired-bs-n``, ``--paired-ar-n`` and ``SACREBLEU_SEED``.
DEFAULT_RESAMPLES, DEFAULT_TRIALS, DEFAULT_SEED = 1000, 10000, 12345

#: Resampled rows built at once hold at most this many draws (bounds memory: ~8 bytes
#: each, three arrays); few large blocks keep the matrix products efficient.
BLOCK_ENTRIES = 2_000_000

#: Statistics stacked side by side for one matrix product at most (bounds memory: ~16
#: bytes each); more tables are resampled in groups, each with the same draws.
STACK_ENTRIES = 8_000_000

#: float64 represents every integer up to this exactly.
_EXACT = 2**53


@dataclass(frozen=True, eq=False)
class SegmentTable:
    """Per-segment statistics as integer arrays (rows = segments): ``counts`` and
    ``totals`` (S x N), ``hyp_len`` and ``ref_num`` (S; the reference length is
    ``ref_num / ref_den``, ``ref_den`` > 1 only with ``ref_length="average"``), and each
    segment's last-segment data when the smoothing reads it (NLTK methods 5-7)."""

    counts: NDArray[np.int64]
    totals: NDArray[np.int64]
    hyp_len: NDArray[np.int64]
    ref_num: NDArray[np.int64]
    ref_den: int = 1
    lasts: tuple[LastSegment, ...] | None = None

    @property
    def segments(self) -> int:
        return len(self.hyp_len)

    @property
    def max_order(self) -> int:
        return int(self.counts.shape[1])

    def matrix(self) -> NDArray[np.int64]:
        """``[counts | totals | hyp_len | ref_num]`` as one S x (2N + 2) int64 array (built
        once and read-only: totals, rows and resampling all read the same array)."""
        return self._matrix

    @cached_property
    def _matrix(self) -> NDArray[np.int64]:
        import numpy as np

        built = np.hstack([self.counts, self.totals, self.hyp_len[:, None], self.ref_num[:, None]])
        built.setflags(write=False)  # shared by every reader
        return built

    def stats_of(self, sums: Sequence[int], segments: int, last: int | None = None) -> BleuStats:
        """The BleuStats of a row of summed :meth:`matrix` columns (``last``: the index of
        the resampled corpus's last segment)."""
        n = self.max_order
        ref: int | Fraction = int(sums[2 * n + 1])
        if self.ref_den != 1:
            ref = Fraction(ref, self.ref_den)
        return BleuStats(
            tuple(map(int, sums[:n])),
            tuple(map(int, sums[n : 2 * n])),
            int(sums[2 * n]),
            ref,
            segments,
            None if self.lasts is None or last is None else self.lasts[last],
        )

    def total(self, *, parts: bool = False) -> BleuStats:
        """The corpus statistics (identical to :func:`bleu_impl.corpus_stats`; with
        ``parts``, carrying every row as a part, as under ``aggregation="macro"``)."""
        total = self.stats_of(self.matrix().sum(axis=0).tolist(), self.segments, self.segments - 1)
        return replace(total, parts=tuple(self.rows())) if parts else total

    def rows(self) -> list[BleuStats]:
        """Every segment's statistics, in order."""
        return [self.stats_of(r, 1, i) for i, r in enumerate(self.matrix().tolist())]

    def row(self, index: int) -> BleuStats:
        """Segment ``index``'s statistics (one row of :meth:`matrix`, without building it)."""
        values = [*self.counts[index].tolist(), *self.totals[index].tolist()]
        values += [int(self.hyp_len[index]), int(self.ref_num[index])]
        return self.stats_of(values, 1, index)


def segment_table(
    hypotheses: Iterable[Any], references: Iterable[Any], config: Config
) -> SegmentTable:
    """Every segment's statistics under ``config`` (the fast path when it supports the
    config, else the reference path; both give identical rows). The rows do not depend on
    ``aggregation``: a macro mean averages the scores of these same rows."""
    from . import fast

    if config.aggregation != "corpus":
        config = replace(config, aggregation="corpus")

    if fast.supports_corpus(config):
        from .fast.segments import segment_arrays

        return SegmentTable(*segment_arrays(hypotheses, references, config))
    return _reference_table(iter_segment_stats(hypotheses, references, config), config)


def _reference_table(rows: Iterable[BleuStats], config: Config) -> SegmentTable:
    import numpy as np

    from .fast.segments import numerators

    stats = list(rows)
    n = config.max_order
    ref_num, den = numerators([s.ref_len for s in stats])
    lasts = tuple(s.last for s in stats if s.last is not None)
    return SegmentTable(
        np.array([s.counts for s in stats], dtype=np.int64).reshape(len(stats), n),
        np.array([s.totals for s in stats], dtype=np.int64).reshape(len(stats), n),
        np.array([s.hyp_len for s in stats], dtype=np.int64),
        ref_num,
        den,
        lasts if len(lasts) == len(stats) and stats else None,
    )


def resample_indices(
    segments: int, samples: int = DEFAULT_RESAMPLES, seed: int | None = DEFAULT_SEED
) -> Iterator[NDArray[np.int64]]:
    """The bootstrap draws in blocks of about ``BLOCK_ENTRIES`` draws: together exactly the rows of
    ``numpy.random.default_rng(seed).choice(segments, size=(samples, segments))`` (one
    generator, consumed in order; bounded memory)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    block = max(1, min(samples, BLOCK_ENTRIES // max(segments, 1)))
    for start in range(0, samples, block):
        yield rng.integers(0, segments, size=(min(block, samples - start), segments))


def _check_exact(matrix: NDArray[np.int64]) -> None:
    """Raise unless every sum of the matrix's S entries per column stays < 2**53."""
    import numpy as np

    if matrix.size and int(np.abs(matrix).max()) * max(matrix.shape[0], 1) >= _EXACT:
        raise OverflowError("statistics too large to resample exactly in float64")


def _exact_matrix(tables: Sequence[SegmentTable]) -> tuple[NDArray[np.float64], list[int]]:
    """The tables side by side as float64 (exact: every sum of S entries stays < 2**53)."""
    import numpy as np

    matrices = [t.matrix() for t in tables]
    stacked = np.hstack(matrices) if matrices else np.zeros((0, 0), dtype=np.int64)
    _check_exact(stacked)
    widths = [m.shape[1] for m in matrices]
    return stacked.astype(np.float64), widths


def _groups(tables: Sequence[SegmentTable]) -> list[list[int]]:
    """The tables' indices in groups of at most ``STACK_ENTRIES`` statistics (one table
    at least): each group is one matrix product per block of draws."""
    groups: list[list[int]] = [[]]
    size = 0
    for k, table in enumerate(tables):
        entries = table.segments * (2 * table.max_order + 2)
        if groups[-1] and size + entries > STACK_ENTRIES:
            groups.append([])
            size = 0
        groups[-1].append(k)
        size += entries
    return groups


def _weights(idx: NDArray[np.int64], segments: int) -> NDArray[np.float64]:
    """How often each segment is drawn in each resample (rows of ``idx``), as float64."""
    import numpy as np

    rows = idx.shape[0]
    flat = (idx + (np.arange(rows)[:, None] * segments)).ravel()
    weights = np.bincount(flat, minlength=rows * segments).reshape(rows, segments)
    return weights.astype(np.float64)


def bootstrap_stats(
    tables: Sequence[SegmentTable],
    *,
    samples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
) -> list[list[BleuStats]]:
    """Per table, the statistics of each bootstrap resample (the same draws for every
    table, which must all have the same number of segments): ``W @ T`` exactly."""
    import numpy as np

    if not tables:
        return []
    segments = tables[0].segments
    if any(t.segments != segments for t in tables):
        raise ValueError("bootstrap tables differ in their number of segments")
    if segments == 0:
        raise ValueError("cannot resample an empty corpus")
    for table in tables:  # every table checked before any work
        _check_exact(table.matrix())
    out: list[list[BleuStats]] = [[] for _ in tables]
    for group in _groups(tables):  # the same draws for every group (one seed)
        stacked, widths = _exact_matrix([tables[k] for k in group])
        bounds = np.cumsum([0, *widths])
        for idx in resample_indices(segments, samples, seed):
            sums = np.rint(_weights(idx, segments) @ stacked).astype(np.int64)
            lasts = idx[:, -1].tolist()
            for j, k in enumerate(group):
                block = sums[:, bounds[j] : bounds[j + 1]].tolist()
                out[k].extend(
                    tables[k].stats_of(row, segments, last) for row, last in zip(block, lasts)
                )
    return out


def randomization_stats(
    a: SegmentTable,
    b: SegmentTable,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = DEFAULT_SEED,
) -> tuple[list[BleuStats], list[BleuStats]]:
    """The two pseudo-systems of each approximate-randomization trial: segment s comes from
    A in the first and B in the second where the draw is True, the other way otherwise.
    (The draws are one ``trials x S`` boolean array, as sacrebleu draws them.)"""
    import numpy as np

    segments = a.segments
    if b.segments != segments:
        raise ValueError("randomization tables differ in their number of segments")
    keep = np.random.default_rng(seed).integers(2, size=(trials, segments), dtype=bool)
    stacked, _ = _exact_matrix([a, b])
    width = a.matrix().shape[1]
    ma, mb = stacked[:, :width], stacked[:, width:]
    total_a, total_b = ma.sum(axis=0), mb.sum(axis=0)
    first: list[BleuStats] = []
    second: list[BleuStats] = []
    diff = ma - mb
    block = max(1, BLOCK_ENTRIES // max(segments, 1))
    for start in range(0, trials, block):
        part = keep[start : start + block].astype(np.float64)
        moved = part @ diff  # A's rows kept in the first pseudo-system, B's elsewhere
        rows_a = np.rint(total_b + moved).astype(np.int64).tolist()
        rows_b = np.rint(total_a - moved).astype(np.int64).tolist()
        first.extend(a.stats_of(r, segments) for r in rows_a)
        second.extend(b.stats_of(r, segments) for r in rows_b)
    return first, second


@dataclass(frozen=True)
class Interval:
    """A bootstrap estimate: the resamples' ``mean``, the 95% bounds ``low`` and ``high``
    and ``half`` = (high - low) / 2 (sacrebleu prints ``mean +- half``)."""

    mean: float
    low: float
    high: float
    half: float
    samples: int


def bootstrap_interval(scores: Sequence[float]) -> Interval:
    """sacrebleu's ``estimate_ci``: sorted scores, bounds at ``R // 40`` from each end."""
    import numpy as np

    values = np.sort(np.asarray(scores, dtype=np.float64))
    n = len(values)
    if n == 0:
        raise ValueError("no resampled scores")
    lower = n // 40
    low, high = float(values[lower]), float(values[n - lower - 1])
    return Interval(float(values.mean()), low, high, 0.5 * (high - low), n)


def paired_bootstrap_p(
    observed: tuple[float, float], samples_a: Sequence[float], samples_b: Sequence[float]
) -> float:
    """``(#{r : |b_r - a_r| - mean_r |b_r - a_r| > |B - A|} + 1) / (R + 1)``."""
    import numpy as np

    diffs = np.abs(np.asarray(samples_b, np.float64) - np.asarray(samples_a, np.float64))
    count = int(np.sum(diffs - diffs.mean() > abs(observed[0] - observed[1])))
    return (count + 1) / (len(diffs) + 1)


def randomization_p(
    observed: tuple[float, float], shuffled_a: Sequence[float], shuffled_b: Sequence[float]
) -> float:
    """``(#{t : |a'_t - b'_t| > |A - B|} + 1) / (T + 1)``."""
    import numpy as np

    diffs = np.abs(np.asarray(shuffled_a, np.float64) - np.asarray(shuffled_b, np.float64))
    count = int(np.sum(diffs > abs(observed[0] - observed[1])))
    return (count + 1) / (len(diffs) + 1)


def segment_scores(
    table: SegmentTable, config: Config, profile: str | Profile = "papineni2002"
) -> list[float]:
    """Each segment's score scored alone (``aggregation="corpus"``, on 0..1): the terms
    of a macro mean (``aggregation="macro"``), by one :class:`SegmentScorer
    <bleu_impl.segment_scorer.SegmentScorer>` (equal to ``score_value`` per row)."""
    from .profiles import get_profile
    from .score import score_value
    from .segment_scorer import SegmentScorer

    one = replace(config, aggregation="corpus")
    if table.max_order != config.max_order:  # score_value raises the mismatch
        return [score_value(row, profile=profile, config=one) for row in table.rows()]
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    return list(map(SegmentScorer(prof, one).score, table.rows()))


def bootstrap_macro_scores(
    scores: Sequence[float],
    *,
    samples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
) -> list[float]:
    """Each bootstrap resample's macro mean of the segment ``scores`` (the draws of
    :func:`bootstrap_stats` with the same seed): ``fsum(scores[drawn]) / S``."""
    return bootstrap_macro_means([scores], samples=samples, seed=seed)[0]


def bootstrap_macro_means(
    many: Sequence[Sequence[float]],
    *,
    samples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
) -> list[list[float]]:
    """:func:`bootstrap_macro_scores` of several score lists of the same length, with one
    set of draws: each sum rounded once, by integer limbs (:mod:`bleu_impl.exact_sums`,
    one matrix product for all lists) when the scores are finite and >= 0, else by
    ``math.fsum`` (the same value)."""
    import math

    import numpy as np

    from .exact_sums import limbs_of

    if not many:
        return []
    values = [np.asarray(scores, dtype=np.float64) for scores in many]
    segments = len(values[0])
    if any(len(v) != segments for v in values):
        raise ValueError("macro score lists differ in their number of segments")
    limbs = [limbs_of(v, segments) for v in values]
    out: list[list[float]] = [[] for _ in values]
    for idx in resample_indices(segments, samples, seed):
        weights = _weights(idx, segments) if any(x is not None for x in limbs) else None
        for k, (v, x) in enumerate(zip(values, limbs)):
            if x is None or weights is None:
                out[k].extend(math.fsum(row) / segments for row in v[idx].tolist())
            else:
                out[k].extend(total / segments for total in x.sums(weights))
    return out


def randomization_macro_scores(
    scores_a: Sequence[float],
    scores_b: Sequence[float],
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = DEFAULT_SEED,
) -> tuple[list[float], list[float]]:
    """The macro means of the two pseudo-systems of each randomization trial (the draws
    of :func:`randomization_stats` with the same seed)."""
    import numpy as np

    a = np.asarray(scores_a, dtype=np.float64)
    b = np.asarray(scores_b, dtype=np.float64)
    if len(a) != len(b):
        raise ValueError("randomization scores differ in their number of segments")
    keep = np.random.default_rng(seed).integers(2, size=(trials, len(a)), dtype=bool)
    first = np.where(keep, a, b).sum(axis=1) / len(a)
    second = np.where(keep, b, a).sum(axis=1) / len(a)
    return first.tolist(), second.tolist()


def bootstrap_scores(
    table: SegmentTable,
    config: Config,
    profile: str | Profile = "papineni2002",
    *,
    samples: int = DEFAULT_RESAMPLES,
    seed: int | None = DEFAULT_SEED,
) -> list[float]:
    """Each bootstrap resample's score on ``config``'s scale (sacrebleu ``--confidence``
    resamples one system this way; :func:`bootstrap_interval` summarizes them)."""
    from .score import score_value

    if config.aggregation == "macro":
        terms = segment_scores(table, config, profile)
        means = bootstrap_macro_scores(terms, samples=samples, seed=seed)
        return [m * config.scale for m in means]
    return [
        score_value(stats, profile=profile, config=config) * config.scale
        for stats in bootstrap_stats([table], samples=samples, seed=seed)[0]
    ]
