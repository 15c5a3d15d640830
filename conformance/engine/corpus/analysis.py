"""The corpus report: every implementation on a user's systems, why they differ, and whether
the ranking they give holds up.

Each system file is one case (:meth:`~conformance.cases.usercorpus.UserCorpus.case`); every
implementation is asked each case through :func:`~conformance.engine.asking.ask`, so an
implementation that errors on a system is one error cell and the report goes on. Then:

1. scores (0-100), ranks (1 = best; equal scores share the better rank) and the spread
   (max - min) per system;
2. per implementation, the bleu_impl setting that reproduces it and the knob path from the
   baseline's setting, with the BLEU change of each step (:mod:`.corpus_paths`);
3. bootstrap intervals and paired p-values (:mod:`.corpus_significance`), and every pair of
   systems that two implementations order differently;
4. the segments behind the difference of two implementations (:mod:`.corpus_segments`).

The result is the cells (one per implementation and system, written to the log as each
implementation finishes) and one :class:`~conformance.results.records.CorpusSummary`
(``docs/corpus-report.md``); reporters only render them.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from bleu_impl import BleuError
from bleu_impl.bulk import SharedCounts

from ...adapters.bleu_impl_adapter import BleuImplAdapter
from ...cases.usercorpus import UserCorpus
from ...protocol import jsonable
from ...results.records import (
    Cell,
    CorpusSummary,
    Decomposition,
    Reproduced,
    Segments,
    Significance,
    Spread,
    Step,
    System,
)
from ...results.vocab import ANSWERED, SKIPPED, Policy
from ..asking import Reply
from ..attribution import UNKNOWN_FAILURE
from ..subjects import Subject
from . import verdicts
from .feeding import Feeder, Feeding
from .notes import file_notes, script_notes, system_notes
from .paths import Reproduction, path_steps, reproduce_subject
from .segments import contributions, count_change
from .significance import named_intervals, p_values, significance
from .tables import TableCache

__all__ = ["CorpusOptions", "corpus_report", "rank"]


@dataclass(frozen=True)
class CorpusOptions:
    """What to compute: the corpus knobs (every implementation is asked with them), the
    significance test, the pair of implementations (and system) whose segments are shown,
    how many segments."""

    knobs: Mapping[str, Any]
    test: str = "paired-bs"  # or "paired-ar": how flips get their p-values
    between: tuple[str, str] | None = None
    system: str | None = None
    top: int = 10
    jobs: int = 1  # implementations in other processes asked at once
    policy: Policy = field(default_factory=Policy)


def _cell(implementation: str, system: str, reply: Reply, scale: int) -> Cell:
    if reply.status == SKIPPED:
        return Cell(implementation, system, "skipped", reason=reply.reason)
    outcome = reply.outcome(scale)
    if reply.status != ANSWERED or outcome is None:
        return Cell(implementation, system, "errored", reason=reply.reason)
    if outcome.failure is not None:
        message = reply.answer.failure.message if reply.answer and reply.answer.failure else ""
        kind = "" if outcome.failure == UNKNOWN_FAILURE else outcome.failure  # says nothing
        reason = f"{kind}: {message}".strip(": ") or UNKNOWN_FAILURE
        return Cell(implementation, system, "failed", reason=reason)
    assert outcome.score is not None
    return Cell(implementation, system, "answered", 100 * outcome.score)


def _files(corpus: UserCorpus) -> list[tuple[str, tuple[str, ...]]]:
    """Every file with its lines, as the report names them (``-`` is ``<stdin>``)."""
    paths = [*corpus.reference_files, *corpus.system_files]
    texts = [*corpus.references, *corpus.outputs]
    return [("<stdin>" if p == "-" else p, lines) for p, lines in zip(paths, texts)]


def rank(scores: Mapping[str, float], decimals: int | None = None) -> dict[str, int]:
    """1 = best; equal scores share the better rank (1, 2, 2, 4). With ``decimals``, scores
    equal at that precision are equal (NLTK's 1e-229 and 0.0 both print 0.00: no ranking
    can be read from them)."""
    shown = {n: v if decimals is None else round(v, decimals) for n, v in scores.items()}
    ordered = sorted(shown.values(), reverse=True)
    return {name: ordered.index(value) + 1 for name, value in shown.items()}


Progress = Callable[[str], None]


Record = Callable[[Cell], None]


def _ask_all(
    corpus: UserCorpus,
    subjects: Sequence[Subject],
    options: CorpusOptions,
    progress: Progress,
    record: Record,
) -> tuple[dict[str, list[Cell]], dict[str, Feeding]]:
    """Every implementation's cell on every system (each ``record``ed as its
    implementation finishes) and how it was fed (:mod:`.feeding`). With ``jobs`` > 1 the
    implementations that work in another process (live libraries, programs) are asked from
    ``jobs`` threads while this one asks the in-process ones: each is asked exactly as
    alone."""
    feeder = Feeder(corpus, options.knobs)
    names = corpus.names
    cells: dict[str, list[Cell]] = {}
    feedings: dict[str, Feeding] = {}

    def ask(subject: Subject) -> None:
        progress(f"scoring with {subject.name}")
        replies, feedings[subject.name] = feeder.replies(subject)
        row = [
            _cell(subject.name, names[j], reply, subject.scale) for j, reply in enumerate(replies)
        ]
        for cell in row:
            record(cell)
        cells[subject.name] = row

    away = [s for s in subjects if s.adapter.separate_process] if options.jobs > 1 else []
    with _Asking(away, ask, options.jobs) as asking:
        for subject in subjects:
            if subject not in away:
                ask(subject)
    asking.raise_failure()
    return {s.name: cells[s.name] for s in subjects}, feedings


class _Asking:
    """``ask`` applied to ``subjects`` by ``jobs`` daemon threads. Not a ThreadPoolExecutor:
    its threads are joined at exit, so an interrupted report would wait for a thread that
    goes on asking (restarting the workers killed on the way out) case after case."""

    def __init__(self, subjects: Sequence[Subject], ask: Callable[[Subject], None], jobs: int):
        self._queue: queue.SimpleQueue[Subject] = queue.SimpleQueue()
        for subject in subjects:
            self._queue.put(subject)
        self._ask = ask
        self._failure: BaseException | None = None
        self._threads = [
            threading.Thread(target=self._work, daemon=True)
            for _ in range(min(jobs, len(subjects)))
        ]

    def _work(self) -> None:
        while True:
            try:
                subject = self._queue.get_nowait()
            except queue.Empty:
                return
            try:
                self._ask(subject)
            except BaseException as exc:  # re-raised in the asking thread
                self._failure = exc
                return

    def __enter__(self) -> _Asking:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is None:  # on an exception, do not wait
            for thread in self._threads:
                thread.join()

    def raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure


def _reproductions(
    subjects: Sequence[Subject],
    cells: Mapping[str, list[Cell]],
    feedings: Mapping[str, Feeding],
    cache: TableCache,
    knobs: Mapping[str, Any],
    baseline: str,
    progress: Progress,
) -> dict[str, Reproduction]:
    wanted = {
        s.name: {j: c.score / 100 for j, c in enumerate(cells[s.name]) if c.score is not None}
        for s in subjects
    }
    by_name = {s.name: s for s in subjects}
    out: dict[str, Reproduction] = {}
    progress(f"reproducing {baseline}")
    out[baseline] = reproduce_subject(
        by_name[baseline], wanted[baseline], cache, knobs, None, feedings[baseline].tokenizer
    )
    for subject in subjects:
        if subject.name != baseline:
            progress(f"reproducing {subject.name}")
            out[subject.name] = reproduce_subject(
                subject,
                wanted[subject.name],
                cache,
                knobs,
                out[baseline],
                feedings[subject.name].tokenizer,
            )
    return out


def _decomposition(
    cells: Mapping[str, list[Cell]],
    reps: Mapping[str, Reproduction],
    cache: TableCache,
    baseline: str,
    names: Sequence[str],
) -> dict[str, Decomposition]:
    base = reps[baseline]
    out: dict[str, Decomposition] = {}
    for impl, rep in reps.items():
        if impl == baseline:
            continue
        common = [j for j in range(len(names)) if _both(cells[baseline][j], cells[impl][j])]
        total = {names[j]: _score(cells[impl][j]) - _score(cells[baseline][j]) for j in common}
        if not common or base.config is None or rep.config is None:
            note = _no_decomposition(cells, reps, baseline, impl, common)
            out[impl] = Decomposition(total, unexplained=total, note=note)
            continue
        done = {j: 0.0 for j in common}
        steps = []
        for step, deltas in path_steps(cache, common, base, rep):
            shown = {names[j]: None if d is None else 100 * d for j, d in deltas.items()}
            steps.append(
                Step(
                    knobs=tuple(c[0] for c in step.changes),
                    change=step.label,
                    before=tuple(jsonable(c[1]) for c in step.changes),
                    after=tuple(jsonable(c[2]) for c in step.changes),
                    delta=shown,
                    mean=_mean(shown.values()),
                )
            )
            for j, d in deltas.items():
                done[j] += 100 * d if d is not None else 0.0
        out[impl] = Decomposition(
            total,
            tuple(steps),
            tuple(k for step_ in steps for k in step_.knobs),
            explained=True,
            unexplained={names[j]: total[names[j]] - done[j] for j in common},
        )
    return out


def _both(a: Cell, b: Cell) -> bool:
    return a.score is not None and b.score is not None


def _score(cell: Cell) -> float:
    assert cell.score is not None
    return cell.score


def _no_decomposition(
    cells: Mapping[str, list[Cell]],
    reps: Mapping[str, Reproduction],
    baseline: str,
    impl: str,
    common: Sequence[int],
) -> str:
    """Why ``impl``'s difference from the baseline is not decomposed."""
    for name in (baseline, impl):
        if all(c.score is None for c in cells[name]):
            role = " (the baseline)" if name == baseline else ""
            advice = ": choose another --baseline" if name == baseline else ""
            why = next((f" ({c.status}: {c.reason})" for c in cells[name] if c.reason), "")
            return f"{name}{role} has no score on any system{why}{advice}"
    if not common:
        return f"no system has a score from both {baseline} and {impl}"
    missing = baseline if reps[baseline].config is None else impl
    return f"no bleu_impl setting reproduces {missing}: {reps[missing].note}"


def _mean(values: Any) -> float | None:
    present = [v for v in values if v is not None]
    return fmean(present) if present else None


def _pick_between(
    reps: Mapping[str, Reproduction],
    cells: Mapping[str, list[Cell]],
    options: CorpusOptions,
    baseline: str,
) -> tuple[str, str] | None:
    if options.between is not None:
        return options.between
    gaps = []
    for impl, rep in reps.items():
        if impl == baseline or rep.config is None:
            continue
        pairs = [
            abs(_score(a) - _score(b)) for a, b in zip(cells[baseline], cells[impl]) if _both(a, b)
        ]
        if pairs:
            gaps.append((fmean(pairs), impl))
    if not gaps or reps[baseline].config is None:
        return None
    return baseline, max(gaps)[1]


_NO_PAIR = (
    "no pair to compare: the baseline and another implementation must both be reproduced "
    "by bleu_impl settings on a system both score (--between A,B chooses the pair)"
)


def _segments(
    cache: TableCache,
    reps: Mapping[str, Reproduction],
    scores: Mapping[str, Mapping[str, float]],
    names: Sequence[str],
    between: tuple[str, str] | None,
    options: CorpusOptions,
) -> Segments:
    if between is None:
        return Segments(note=_NO_PAIR)
    a, b = between
    for impl in (a, b):
        if impl not in reps or reps[impl].config is None:
            return Segments(a, b, note=f"{impl}: no bleu_impl setting reproduces it")
    common = [n for n in names if n in scores[a] and n in scores[b]]
    if not common:
        return Segments(a, b, note="no system scored by both")
    system = options.system or max(common, key=lambda n: abs(scores[b][n] - scores[a][n]))
    if system not in common:
        return Segments(a, b, system, note=f"{system}: not scored by both")
    try:
        rows, total = contributions(cache, names.index(system), reps[a], reps[b], options.top)
        counted = count_change(cache, names.index(system), reps[a], reps[b])
    except BleuError as exc:
        return Segments(a, b, system, note=str(exc))
    difference = scores[b][system] - scores[a][system]
    return Segments(
        a,
        b,
        system,
        difference=difference,
        counting=counted,
        scoring=difference - counted,
        sum_of_contributions=total,
        rows=tuple(rows),
    )


def corpus_report(
    corpus: UserCorpus,
    subjects: Sequence[Subject],
    baseline: str,
    options: CorpusOptions,
    progress: Progress = lambda _: None,
    record: Record = lambda _: None,
) -> tuple[list[Cell], CorpusSummary]:
    """Every implementation's cell on every system (each passed to ``record`` as its
    implementation finishes) and what the report derives from them. Every system is scored
    on the same references under many settings: the tokens of each line and the n-gram
    matches of each system are counted once per tokenization
    (:class:`bleu_impl.bulk.SharedCounts`), by the asked bleu_impl profiles too."""
    counts = SharedCounts()
    sharing = [s.adapter for s in subjects if isinstance(s.adapter, BleuImplAdapter)]
    for adapter in sharing:
        adapter.counts = counts
    try:
        return _report(corpus, subjects, baseline, options, progress, record, counts)
    finally:
        for adapter in sharing:
            adapter.counts = None


def _report(
    corpus: UserCorpus,
    subjects: Sequence[Subject],
    baseline: str,
    options: CorpusOptions,
    progress: Progress,
    record: Record,
    counts: SharedCounts,
) -> tuple[list[Cell], CorpusSummary]:
    names = list(corpus.names)
    cells, feedings = _ask_all(corpus, subjects, options, progress, record)
    cache = TableCache([corpus.case(j, options.knobs) for j in range(len(names))], counts)
    reps = _reproductions(subjects, cells, feedings, cache, options.knobs, baseline, progress)
    scores = {
        impl: {c.system: c.score for c in row if c.score is not None} for impl, row in cells.items()
    }
    progress("resampling")
    answered = {
        impl: [j for j, c in enumerate(row) if c.score is not None] for impl, row in cells.items()
    }
    sig = significance(cache, reps, answered, options.policy, options.test)
    p_value = p_values(sig, cache, reps, options.policy, options.test)
    flips = verdicts.flips(scores, p_value, names, options.policy)
    versus = verdicts.against_first(scores, p_value, names, options.policy)
    progress("decomposing")
    between = _pick_between(reps, cells, options, baseline)
    summary = CorpusSummary(
        references=tuple(corpus.reference_files),
        segment_count=corpus.segments,
        knobs=jsonable(dict(options.knobs)),
        baseline=baseline,
        systems=tuple(System(n, f) for n, f in zip(names, corpus.system_files)),
        notes=tuple(
            script_notes(corpus.references[0], options.knobs)
            + file_notes(_files(corpus))
            + system_notes(list(zip(names, corpus.outputs)))
        ),
        reproduced=tuple(
            _reproduced(s, reps[s.name], sig.missing.get(s.name), feedings[s.name], options.knobs)
            for s in subjects
        ),
        ranks={impl: rank(s, options.policy.decimals) for impl, s in scores.items()},
        spread=_spread(scores, names),
        intervals=named_intervals(sig, names),
        significance=Significance(
            options.test,
            options.policy.resamples,
            options.policy.trials,
            options.policy.seed,
            options.policy.alpha,
            "" if len(names) > 1 else "one system: nothing to rank or test",
        ),
        decomposition=_decomposition(cells, reps, cache, baseline, names),
        flips=tuple(flips),
        segments=_segments(cache, reps, scores, names, between, options),
        versus=tuple(versus),
        unread=tuple(System("<stdin>" if f == "-" else f, f, why) for f, why in corpus.unread),
    )
    return [c for s in subjects for c in cells[s.name]], summary


def _spread(scores: Mapping[str, Mapping[str, float]], names: Sequence[str]) -> dict[str, Spread]:
    out = {}
    for n in names:
        values = {i: s[n] for i, s in scores.items() if n in s}
        if values:
            hi, lo = max(values, key=values.__getitem__), min(values, key=values.__getitem__)
            out[n] = Spread(values[hi], values[lo], values[hi] - values[lo], hi, lo)
    return out


def _reproduced(
    subject: Subject,
    rep: Reproduction,
    missing: str | None,
    feeding: Feeding,
    knobs: Mapping[str, Any],
) -> Reproduced:
    return Reproduced(
        fed=feeding.describe(knobs),
        implementation=subject.name,
        native=subject.native,
        reproduced_by=rep.describe() if rep.config is not None else None,
        setting=None if rep.config is None else jsonable(rep.config.as_dict()),
        significance=f"by {rep.describe()}" if missing is None else f"not computed: {missing}",
    )
