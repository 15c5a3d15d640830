"""Significance on a user's corpus: bootstrap intervals per system, paired tests per pair.

Every implementation reproduced by a bleu_impl setting (:mod:`.corpus_paths`) is resampled
through that setting's per-segment statistics (:func:`bleu_impl.resample.bootstrap_stats`): the same
draws for every system and implementation, as sacrebleu's ``--paired-bs`` draws them, so
for the sacrebleu profile the intervals and p-values are sacrebleu's. An implementation no
setting reproduces gets none (a corpus score alone cannot be resampled).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from bleu_impl import BleuError, BleuStats, bootstrap_interval, get_profile
from bleu_impl.bulk import score_value
from bleu_impl.resample import (
    Interval,
    SegmentTable,
    bootstrap_macro_means,
    bootstrap_stats,
    paired_bootstrap_p,
    randomization_macro_scores,
    randomization_p,
    randomization_stats,
)

from ...results import records
from ...results.vocab import Policy
from ..evaluator import scoring_key
from .paths import Reproduction
from .tables import TableCache, stats_key
from .verdicts import PValue

__all__ = ["Significance", "named_intervals", "p_values", "significance"]

#: (system, :func:`~.tables.stats_key`): one segment table.
_TableKey = tuple[int, tuple[Any, ...]]


@dataclass
class Significance:
    """Per implementation: each system's interval and each pair's p-value (0-100 scale),
    or the reason there are none (and the error behind it, when one is)."""

    intervals: dict[str, dict[int, Interval]] = field(default_factory=dict)
    p_values: dict[str, dict[tuple[int, int], float]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    errors: dict[str, BleuError] = field(default_factory=dict)

    def fail(self, name: str, why: str, error: BleuError) -> None:
        self.missing[name], self.errors[name] = f"{why}: {error}", error


def _scores(stats: Sequence[BleuStats], reproduction: Reproduction) -> list[float]:
    assert reproduction.config is not None
    config, profile = reproduction.config, get_profile(reproduction.profile)
    return [100 * score_value(s, profile=profile, config=config) for s in stats]


def _macro(reproduction: Reproduction) -> bool:
    return reproduction.config is not None and reproduction.config.aggregation == "macro"


def _macro_means(
    cache: TableCache,
    reproductions: Mapping[str, Reproduction],
    systems: Mapping[str, Sequence[int]],
    out: Significance,
    options: Policy,
) -> dict[tuple[Any, ...], list[float]]:
    """The bootstrap means (0-100) of every macro setting on every system it scored, all
    from one set of draws: (system, setting, profile) -> scores."""
    terms: dict[tuple[Any, ...], list[float]] = {}
    for name, rep in reproductions.items():
        if name in out.missing or not _macro(rep):
            continue
        assert rep.config is not None
        try:
            for s in systems[name]:
                terms[(s, rep.config, rep.profile)] = cache.terms(s, rep.config, rep.profile)
        except BleuError as exc:
            out.fail(name, "a resample cannot be scored", exc)
    means = bootstrap_macro_means(
        list(terms.values()), samples=options.resamples, seed=options.seed
    )
    return {key: [100 * m for m in row] for key, row in zip(terms, means)}


def _resampled(
    resampled: Sequence[Sequence[BleuStats]],
    where: Mapping[_TableKey, int],
    macro: Mapping[tuple[Any, ...], list[float]],
    system: int,
    rep: Reproduction,
    memo: dict[tuple[Any, ...], list[float]],
) -> list[float]:
    """One system's bootstrap scores (0-100) under ``rep``'s setting, remembered in
    ``memo`` per table and scoring knobs: implementations that agree on both (e.g. two
    profiles whose tokenizers split this corpus alike) share them."""
    assert rep.config is not None
    if _macro(rep):
        return macro[(system, rep.config, rep.profile)]
    index = where[(system, stats_key(rep.config))]
    key = (index, scoring_key(rep.config))
    if key not in memo:
        memo[key] = _scores(resampled[index], rep)
    return memo[key]


def _gather(
    cache: TableCache,
    reproductions: Mapping[str, Reproduction],
    systems: Mapping[str, Sequence[int]],
    out: Significance,
) -> tuple[list[SegmentTable], dict[_TableKey, int]]:
    """Every distinct table the reproduced implementations need, and where it is."""
    tables: list[SegmentTable] = []
    where: dict[_TableKey, int] = {}
    index_of: dict[int, int] = {}  # id(table) -> its index: equal tables are resampled once
    for name, rep in reproductions.items():
        if rep.config is None:
            out.missing[name] = f"no bleu_impl setting reproduces it ({rep.note or 'none found'})"
            continue
        for s in systems[name]:
            key = (s, stats_key(rep.config))
            if key in where:
                continue
            try:
                table = cache.table(s, rep.config)
            except BleuError as exc:
                out.fail(name, "statistics fail", exc)
                break
            if not _macro(rep):  # a macro mean resamples its segment scores instead
                if id(table) not in index_of:
                    index_of[id(table)] = len(tables)
                    tables.append(table)
                where[key] = index_of[id(table)]
    return tables, where


def significance(
    cache: TableCache,
    reproductions: Mapping[str, Reproduction],
    systems: Mapping[str, Sequence[int]],
    options: Policy,
    test: str = "paired-bs",
) -> Significance:
    """Intervals and paired p-values of every reproduced implementation (``systems``:
    implementation -> the systems it scored)."""
    out = Significance()
    tables, where = _gather(cache, reproductions, systems, out)
    resampled = bootstrap_stats(tables, samples=options.resamples, seed=options.seed)
    macro = _macro_means(cache, reproductions, systems, out, options)
    memo: dict[tuple[Any, ...], list[float]] = {}
    for name, rep in reproductions.items():
        if name in out.missing or rep.config is None:
            continue
        try:
            samples = {s: _resampled(resampled, where, macro, s, rep, memo) for s in systems[name]}
        except BleuError as exc:
            out.fail(name, "a resample cannot be scored", exc)
            continue
        out.intervals[name] = {s: bootstrap_interval(v) for s, v in samples.items()}
        observed = {s: 100 * rep.scores[s] for s in systems[name]}
        pairs = {}
        for a, b in combinations(sorted(samples), 2):
            if test == "paired-bs":
                pairs[(a, b)] = paired_bootstrap_p(
                    (observed[a], observed[b]), samples[a], samples[b]
                )
        out.p_values[name] = pairs
    return out


def _randomization(
    cache: TableCache,
    reproduction: Reproduction,
    a: int,
    b: int,
    options: Policy,
) -> float:
    """The approximate-randomization p-value of systems ``a`` and ``b`` (0-100 scale)."""
    assert reproduction.config is not None
    observed = (100 * reproduction.scores[a], 100 * reproduction.scores[b])
    if _macro(reproduction):
        means_a, means_b = randomization_macro_scores(
            cache.terms(a, reproduction.config, reproduction.profile),
            cache.terms(b, reproduction.config, reproduction.profile),
            trials=options.trials,
            seed=options.seed,
        )
        return randomization_p(observed, [100 * m for m in means_a], [100 * m for m in means_b])
    first, second = randomization_stats(
        cache.table(a, reproduction.config),
        cache.table(b, reproduction.config),
        trials=options.trials,
        seed=options.seed,
    )
    return randomization_p(observed, _scores(first, reproduction), _scores(second, reproduction))


def p_values(
    sig: Significance,
    cache: TableCache,
    reproductions: Mapping[str, Reproduction],
    options: Policy,
    test: str = "paired-bs",
) -> PValue:
    """The p-value of systems a < b under an implementation: the paired bootstrap's, or by
    approximate randomization (the first system of the pair as its baseline, as sacrebleu),
    computed on first use and remembered; None when no setting reproduces it."""
    memo: dict[tuple[Any, ...], float] = {}  # implementations of one setting share it

    def p_value(impl: str, a: int, b: int) -> float | None:
        if test != "paired-ar":
            return sig.p_values.get(impl, {}).get((a, b))
        rep = reproductions.get(impl)
        if impl not in sig.p_values or rep is None or rep.config is None:
            return None
        key = (rep.config, rep.profile, a, b)
        if key not in memo:
            memo[key] = _randomization(cache, rep, a, b, options)
        return memo[key]

    return p_value


def named_intervals(
    sig: Significance, names: Sequence[str]
) -> dict[str, dict[str, records.Interval]]:
    """The intervals as the results model holds them: implementation -> system name ->
    :class:`~conformance.results.records.Interval`."""
    return {
        impl: {names[j]: records.Interval(**vars(iv)) for j, iv in ivs.items()}
        for impl, ivs in sig.intervals.items()
    }
