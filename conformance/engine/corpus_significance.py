"""Significance on a user's corpus: bootstrap intervals per system, paired tests per pair.

Every implementation reproduced by a bleu_impl setting (:mod:`.corpus_paths`) is resampled
through that setting's per-segment statistics (:func:`bleu_impl.bootstrap_stats`): the same
draws for every system and implementation, as sacrebleu's ``--paired-bs`` draws them, so
for the sacrebleu profile the intervals and p-values are sacrebleu's. An implementation no
setting reproduces gets none (a corpus score alone cannot be resampled).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from bleu_impl import (
    BleuError,
    Interval,
    bootstrap_interval,
    bootstrap_stats,
    paired_bootstrap_p,
    randomization_p,
    randomization_stats,
    score_stats,
)

from .corpus_paths import Reproduction
from .corpus_stats import TableCache, stats_key

__all__ = ["ALPHA", "Significance", "SignificanceOptions", "significance"]

#: The significance level of the report (sacrebleu marks p < 0.05).
ALPHA = 0.05


@dataclass(frozen=True)
class SignificanceOptions:
    """sacrebleu's defaults: 1,000 bootstrap resamples, 10,000 AR trials, seed 12345."""

    test: str = "paired-bs"  # or "paired-ar"
    resamples: int = 1000
    trials: int = 10000
    seed: int = 12345


@dataclass
class Significance:
    """Per implementation: each system's interval and each pair's p-value (0-100 scale),
    or the reason there are none."""

    intervals: dict[str, dict[int, Interval]] = field(default_factory=dict)
    p_values: dict[str, dict[tuple[int, int], float]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)


def _scores(stats: Sequence, reproduction: Reproduction) -> list[float]:
    return [
        100 * score_stats(s, profile=reproduction.profile, config=reproduction.config).score
        for s in stats
    ]


def _gather(
    cache: TableCache,
    reproductions: Mapping[str, Reproduction],
    systems: Mapping[str, Sequence[int]],
    out: Significance,
) -> tuple[list, dict]:
    """Every distinct table the reproduced implementations need, and where it is."""
    tables: list = []
    where: dict = {}
    for name, rep in reproductions.items():
        if rep.config is None:
            out.missing[name] = f"no bleu_impl setting reproduces it ({rep.note or 'none found'})"
            continue
        for s in systems[name]:
            key = (s, stats_key(rep.config))
            if key in where:
                continue
            try:
                tables.append(cache.table(s, rep.config))
            except BleuError as exc:
                out.missing[name] = f"statistics fail: {exc}"
                break
            where[key] = len(tables) - 1
    return tables, where


def significance(
    cache: TableCache,
    reproductions: Mapping[str, Reproduction],
    systems: Mapping[str, Sequence[int]],
    options: SignificanceOptions,
) -> Significance:
    """Intervals and paired p-values of every reproduced implementation (``systems``:
    implementation -> the systems it scored)."""
    out = Significance()
    tables, where = _gather(cache, reproductions, systems, out)
    resampled = bootstrap_stats(tables, samples=options.resamples, seed=options.seed)
    for name, rep in reproductions.items():
        if name in out.missing or rep.config is None:
            continue
        try:
            samples = {
                s: _scores(resampled[where[(s, stats_key(rep.config))]], rep) for s in systems[name]
            }
        except BleuError as exc:
            out.missing[name] = f"a resample cannot be scored: {exc}"
            continue
        out.intervals[name] = {s: bootstrap_interval(v) for s, v in samples.items()}
        observed = {s: 100 * rep.scores[s] for s in systems[name]}
        pairs = {}
        for a, b in combinations(sorted(samples), 2):
            if options.test == "paired-bs":
                pairs[(a, b)] = paired_bootstrap_p(
                    (observed[a], observed[b]), samples[a], samples[b]
                )
        out.p_values[name] = pairs
    return out


def randomization(
    cache: TableCache,
    reproduction: Reproduction,
    a: int,
    b: int,
    options: SignificanceOptions,
) -> float:
    """The approximate-randomization p-value of systems ``a`` and ``b`` (0-100 scale)."""
    assert reproduction.config is not None
    first, second = randomization_stats(
        cache.table(a, reproduction.config),
        cache.table(b, reproduction.config),
        trials=options.trials,
        seed=options.seed,
    )
    observed = (100 * reproduction.scores[a], 100 * reproduction.scores[b])
    return randomization_p(observed, _scores(first, reproduction), _scores(second, reproduction))
