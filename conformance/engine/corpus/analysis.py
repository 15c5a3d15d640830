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

The result is one JSON-friendly dict (``docs/corpus-report.md``); reporters only render it.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from statistics import fmean
from typing import Any

from bleu_impl import BleuError, SharedCounts, sharing

from ...cases.usercorpus import UserCorpus
from ...protocol import jsonable
from ..asking import ANSWERED, SKIPPED, Reply
from ..attribution import UNKNOWN_FAILURE
from ..compare.differ import Subject
from .notes import file_notes, script_notes, system_notes
from .paths import Reproduction, path_steps, reproduce_subject
from .segments import contributions, count_change
from .significance import ALPHA, SignificanceOptions, randomization, significance
from .tables import TableCache

__all__ = ["CorpusOptions", "corpus_report", "rank"]

#: The version of the report's JSON layout.
REPORT_VERSION = 1


@dataclass(frozen=True)
class CorpusOptions:
    """What to compute: the corpus knobs (every implementation is asked with them), the
    significance test, the pair of implementations (and system) whose segments are shown,
    how many segments."""

    knobs: Mapping[str, Any]
    significance: SignificanceOptions = field(default_factory=SignificanceOptions)
    between: tuple[str, str] | None = None
    system: str | None = None
    top: int = 10
    jobs: int = 1  # implementations in other processes asked at once


@dataclass(frozen=True)
class Cell:
    """One implementation on one system: a score (0-100) or why there is none."""

    score: float | None
    status: str  # answered / failed / errored / skipped
    reason: str = ""


def _cell(reply: Reply, scale: int) -> Cell:
    if reply.status == SKIPPED:
        return Cell(None, "skipped", reply.reason)
    outcome = reply.outcome(scale)
    if reply.status != ANSWERED or outcome is None:
        return Cell(None, "errored", reply.reason)
    if outcome.failure is not None:
        message = reply.answer.failure.message if reply.answer and reply.answer.failure else ""
        kind = "" if outcome.failure == UNKNOWN_FAILURE else outcome.failure  # says nothing
        return Cell(None, "failed", f"{kind}: {message}".strip(": ") or UNKNOWN_FAILURE)
    assert outcome.score is not None
    return Cell(100 * outcome.score, "answered")


def _files(corpus: UserCorpus) -> list[tuple[str, tuple[str, ...]]]:
    """Every file with its lines, as the report names them (``-`` is ``<stdin>``)."""
    paths = [*corpus.reference_files, *corpus.system_files]
    texts = [*corpus.references, *corpus.outputs]
    return [("<stdin>" if p == "-" else p, lines) for p, lines in zip(paths, texts)]


def rank(scores: Mapping[str, float]) -> dict[str, int]:
    """1 = best; equal scores share the better rank (1, 2, 2, 4)."""
    ordered = sorted(scores.values(), reverse=True)
    return {name: ordered.index(value) + 1 for name, value in scores.items()}


Progress = Callable[[str], None]


def _ask_all(
    corpus: UserCorpus,
    subjects: Sequence[Subject],
    options: CorpusOptions,
    progress: Progress,
) -> dict[str, list[Cell]]:
    """Every implementation's cell on every system. With ``jobs`` > 1 the implementations
    that work in another process (live libraries, programs) are asked from ``jobs``
    threads while this one asks the in-process ones: each is asked exactly as alone."""
    cases = [corpus.case(j, options.knobs) for j in range(len(corpus.system_files))]
    cells: dict[str, list[Cell]] = {}

    def ask(subject: Subject) -> None:
        progress(f"scoring with {subject.name}")
        cells[subject.name] = [_cell(subject.reply(case), subject.scale) for case in cases]

    away = [s for s in subjects if s.adapter.separate_process] if options.jobs > 1 else []
    with _Asking(away, ask, options.jobs) as asking:
        for subject in subjects:
            if subject not in away:
                ask(subject)
    asking.raise_failure()
    return {s.name: cells[s.name] for s in subjects}


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
        context = contextvars.copy_context()
        self._threads = [
            threading.Thread(target=context.copy().run, args=(self._work,), daemon=True)
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
    out[baseline] = reproduce_subject(by_name[baseline], wanted[baseline], cache, knobs, None)
    for subject in subjects:
        if subject.name != baseline:
            progress(f"reproducing {subject.name}")
            out[subject.name] = reproduce_subject(
                subject, wanted[subject.name], cache, knobs, out[baseline]
            )
    return out


def _decomposition(
    cells: Mapping[str, list[Cell]],
    reps: Mapping[str, Reproduction],
    cache: TableCache,
    baseline: str,
    names: Sequence[str],
) -> dict[str, Any]:
    base = reps[baseline]
    out: dict[str, Any] = {}
    for impl, rep in reps.items():
        if impl == baseline:
            continue
        common = [
            j
            for j, (a, b) in enumerate(zip(cells[baseline], cells[impl]))
            if a.score is not None and b.score is not None
        ]
        total = {names[j]: cells[impl][j].score - cells[baseline][j].score for j in common}  # type: ignore[operator]
        entry: dict[str, Any] = {"total": total, "steps": [], "order": [], "explained": False}
        if not common or base.config is None or rep.config is None:
            entry["unexplained"] = total
            entry["note"] = _no_decomposition(cells, reps, baseline, impl, common)
            out[impl] = entry
            continue
        done = {j: 0.0 for j in common}
        for step, deltas in path_steps(cache, common, base, rep):
            shown = {names[j]: None if d is None else 100 * d for j, d in deltas.items()}
            entry["steps"].append(
                {
                    "knobs": [c[0] for c in step.changes],
                    "change": step.label,
                    "from": [jsonable(c[1]) for c in step.changes],
                    "to": [jsonable(c[2]) for c in step.changes],
                    "delta": shown,
                    "mean": _mean(shown.values()),
                }
            )
            entry["order"].extend(c[0] for c in step.changes)
            for j, d in deltas.items():
                done[j] += 100 * d if d is not None else 0.0
        entry["unexplained"] = {names[j]: total[names[j]] - done[j] for j in common}
        entry["explained"] = True
        out[impl] = entry
    return out


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
            return f"{name}{role} has no score on any system{advice}"
    if not common:
        return f"no system has a score from both {baseline} and {impl}"
    missing = baseline if reps[baseline].config is None else impl
    return f"no bleu_impl setting reproduces {missing}: {reps[missing].note}"


def _mean(values: Any) -> float | None:
    present = [v for v in values if v is not None]
    return fmean(present) if present else None


def _significant(p: float | None, delta: float) -> bool | None:
    """p < ALPHA, but a tie (both systems score the same) is never a significant difference:
    sacrebleu's p = (0 + 1) / (n + 1) is below 0.05 when every resample ties too (two
    systems that both score 0, as NLTK and torchmetrics give most of WMT22 en-zh)."""
    return None if p is None else p < ALPHA and delta != 0


def _flips(
    scores: Mapping[str, Mapping[str, float]],
    p_values: Mapping[str, Mapping[tuple[str, str], float]],
    names: Sequence[str],
) -> list[dict[str, Any]]:
    """Every pair of systems that one implementation orders one way and another the other."""
    flips: list[dict[str, Any]] = []
    for a, b in combinations(names, 2):
        deltas = {i: s[a] - s[b] for i, s in scores.items() if a in s and b in s}
        if not (any(d > 0 for d in deltas.values()) and any(d < 0 for d in deltas.values())):
            continue
        p = {i: p_values.get(i, {}).get((a, b)) for i in deltas}
        flips.append(
            {
                "systems": [a, b],
                "a_better": sorted(i for i, d in deltas.items() if d > 0),
                "b_better": sorted(i for i, d in deltas.items() if d < 0),
                "tied": sorted(i for i, d in deltas.items() if d == 0),
                "delta": deltas,
                "p_value": p,
                "significant": {i: _significant(v, deltas[i]) for i, v in p.items()},
            }
        )
    flips.sort(key=lambda f: -max(abs(d) for d in f["delta"].values()))
    return flips


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
            abs(a.score - b.score)
            for a, b in zip(cells[baseline], cells[impl])
            if a.score is not None and b.score is not None
        ]
        if pairs:
            gaps.append((fmean(pairs), impl))
    if not gaps or reps[baseline].config is None:
        return None
    return baseline, max(gaps)[1]


def _segments(
    cache: TableCache,
    reps: Mapping[str, Reproduction],
    scores: Mapping[str, Mapping[str, float]],
    names: Sequence[str],
    between: tuple[str, str] | None,
    options: CorpusOptions,
) -> dict[str, Any]:
    if between is None:
        return {
            "note": "no pair to compare: the baseline and another implementation must both "
            "be reproduced by bleu_impl settings on a system both score (--between A,B "
            "chooses the pair)",
            "rows": [],
        }
    a, b = between
    for impl in (a, b):
        if impl not in reps or reps[impl].config is None:
            return {
                "a": a,
                "b": b,
                "note": f"{impl}: no bleu_impl setting reproduces it",
                "rows": [],
            }
    common = [n for n in names if n in scores[a] and n in scores[b]]
    if not common:
        return {"a": a, "b": b, "note": "no system scored by both", "rows": []}
    system = options.system or max(common, key=lambda n: abs(scores[b][n] - scores[a][n]))
    if system not in common:
        return {
            "a": a,
            "b": b,
            "system": system,
            "note": f"{system}: not scored by both",
            "rows": [],
        }
    try:
        rows, total = contributions(cache, names.index(system), reps[a], reps[b], options.top)
        counted = count_change(cache, names.index(system), reps[a], reps[b])
    except BleuError as exc:
        return {"a": a, "b": b, "system": system, "note": str(exc), "rows": []}
    return {
        "a": a,
        "b": b,
        "system": system,
        "difference": scores[b][system] - scores[a][system],
        "counting": counted,
        "scoring": scores[b][system] - scores[a][system] - counted,
        "sum_of_contributions": total,
        "rows": [r.to_json() for r in rows],
        "note": "",
    }


def corpus_report(
    corpus: UserCorpus,
    subjects: Sequence[Subject],
    baseline: str,
    options: CorpusOptions,
    progress: Progress = lambda _: None,
) -> dict[str, Any]:
    """The whole report as a JSON-friendly dict (see ``docs/corpus-report.md``). Every
    system is scored on the same references under many settings: the tokens of each line
    and the n-gram matches of each system are counted once per tokenization
    (:class:`bleu_impl.SharedCounts`), by the asked bleu_impl profiles too."""
    with sharing(SharedCounts()):
        return _report(corpus, subjects, baseline, options, progress)


def _report(
    corpus: UserCorpus,
    subjects: Sequence[Subject],
    baseline: str,
    options: CorpusOptions,
    progress: Progress,
) -> dict[str, Any]:
    names = list(corpus.names)
    cells = _ask_all(corpus, subjects, options, progress)
    cache = TableCache([corpus.case(j, options.knobs) for j in range(len(names))])
    reps = _reproductions(subjects, cells, cache, options.knobs, baseline, progress)
    scores = {
        impl: {names[j]: c.score for j, c in enumerate(row) if c.score is not None}
        for impl, row in cells.items()
    }
    progress("resampling")
    answered = {
        impl: [j for j, c in enumerate(row) if c.score is not None] for impl, row in cells.items()
    }
    sig = significance(cache, reps, answered, options.significance)
    p_values = {
        impl: {(names[a], names[b]): p for (a, b), p in pairs.items()}
        for impl, pairs in sig.p_values.items()
    }
    flips = _flips(scores, p_values, names)
    if options.significance.test == "paired-ar":
        _randomize(flips, cache, reps, names, options.significance)
    progress("decomposing")
    decomposition = _decomposition(cells, reps, cache, baseline, names)
    between = _pick_between(reps, cells, options, baseline)
    segments = _segments(cache, reps, scores, names, between, options)
    return {
        "kind": "corpus-report",
        "version": REPORT_VERSION,
        "references": list(corpus.reference_files),
        "segment_count": corpus.segments,
        "knobs": jsonable(dict(options.knobs)),
        "baseline": baseline,
        "notes": script_notes(corpus.references[0], options.knobs)
        + file_notes(_files(corpus))
        + system_notes(list(zip(names, corpus.outputs))),
        "systems": [{"name": n, "file": f} for n, f in zip(names, corpus.system_files)],
        "implementations": [_impl_info(s, reps[s.name], sig.missing.get(s.name)) for s in subjects],
        "scores": scores,
        "errors": {
            impl: {
                names[j]: f"{c.status}: {c.reason}" for j, c in enumerate(row) if c.score is None
            }
            for impl, row in cells.items()
        },
        "ranks": {impl: rank(s) for impl, s in scores.items()},
        "spread": _spread(scores, names),
        "intervals": {
            impl: {names[j]: vars(iv) for j, iv in ivs.items()}
            for impl, ivs in sig.intervals.items()
        },
        "significance": {
            "test": options.significance.test,
            "resamples": options.significance.resamples,
            "trials": options.significance.trials,
            "seed": options.significance.seed,
            "alpha": ALPHA,
            "note": "" if len(names) > 1 else "one system: nothing to rank or test",
        },
        "decomposition": decomposition,
        "flips": flips,
        "segments": segments,
    }


def _randomize(
    flips: list[dict[str, Any]],
    cache: TableCache,
    reps: Mapping[str, Reproduction],
    names: Sequence[str],
    options: SignificanceOptions,
) -> None:
    """Replace the flips' p-values by approximate randomization (first system = baseline)."""
    for flip in flips:
        a, b = (names.index(n) for n in flip["systems"])
        for impl in flip["p_value"]:
            rep = reps.get(impl)
            if rep is None or rep.config is None:
                continue
            p = randomization(cache, rep, a, b, options)
            flip["p_value"][impl] = p
            flip["significant"][impl] = _significant(p, flip["delta"][impl])


def _spread(scores: Mapping[str, Mapping[str, float]], names: Sequence[str]) -> dict[str, Any]:
    out = {}
    for n in names:
        values = {i: s[n] for i, s in scores.items() if n in s}
        if values:
            hi, lo = max(values, key=values.__getitem__), min(values, key=values.__getitem__)
            out[n] = {
                "max": values[hi],
                "min": values[lo],
                "spread": values[hi] - values[lo],
                "max_impl": hi,
                "min_impl": lo,
            }
    return out


def _impl_info(subject: Subject, rep: Reproduction, missing: str | None) -> dict[str, Any]:
    return {
        **subject.info(),
        "native": subject.native,
        "reproduced_by": rep.describe() if rep.config is not None else None,
        "setting": None if rep.config is None else jsonable(rep.config.as_dict()),
        "significance": f"by {rep.describe()}" if missing is None else f"not computed: {missing}",
    }
