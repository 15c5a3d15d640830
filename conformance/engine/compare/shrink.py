"""Shrink a disagreement to a minimal input that still shows it, with the same cause.

Delta debugging, deterministic (results do not depend on ``--jobs``) and on a budget:
repeatedly drop chunks of segments, then single references, then chunks of tokens (halves,
quarters, ... single tokens) of every text, keeping each reduction on which the pair still
differs for the same cause, until a whole round removes nothing or the budget is spent.

Each step asks both implementations the candidate input (that is what is being shrunk)
and re-runs only the part of the attribution that decides the cause (no equally minimal
alternatives), on statistics reused across knob settings (:class:`Evaluator`). An
*unexplained* disagreement is kept on any candidate where the pair still differs, and the
attribution is re-run once at the end: when the smallest input no longer gives the same
cause, the previous accepted inputs are tried, newest first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass
from typing import Any

from ...cases import Case
from ...protocol import Text
from ...results.records import Shrinking
from ...results.vocab import DIFFERING
from ..asking import Outcome
from ..attribution import Attribution, Side, attribute, matches
from ..evaluator import Evaluator
from ..subjects import Subject, tolerance_for
from . import MAX_STEPS
from .pairs import PairRow, classify

__all__ = ["MAX_VERIFY", "ShrinkResult", "shrink_disagreement"]


#: Full attributions run at the end of shrinking an unexplained disagreement, at most.
MAX_VERIFY = 3

_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class ShrinkResult:
    """The smallest input found (None when nothing smaller keeps the disagreement), the
    candidates tried, the budget, and whether the budget ran out before the search ended."""

    minimal: Case | None
    steps: int
    budget: int
    exhausted: bool = False
    note: str = ""

    def record(self) -> Shrinking:
        """What the compare log keeps of it."""
        return Shrinking(self.steps, self.budget, self.exhausted, self.note)


class _Text:
    """A text as tokens and the whitespace around them (``seps[i]`` precedes token i,
    ``seps[-1]`` trails), or a token tuple (``seps`` None)."""

    def __init__(self, text: Text | None) -> None:
        self.none = text is None
        if isinstance(text, str):
            self.tokens = _TOKEN.findall(text)
            self.seps: list[str] | None = _TOKEN.split(text)
        else:
            self.tokens = list(text or ())
            self.seps = None

    def without(self, drop: Container[int]) -> Text | None:
        """The text without the tokens at the positions in ``drop``; each kept token keeps
        the whitespace before it (the first kept one the text's leading whitespace)."""
        if self.none:
            return None
        kept = [i for i in range(len(self.tokens)) if i not in drop]
        if self.seps is None:
            return tuple(self.tokens[i] for i in kept)
        if not kept:
            return ""
        parts = [self.seps[0]]
        for at, i in enumerate(kept):
            parts += [self.seps[i], self.tokens[i]] if at else [self.tokens[i]]
        return "".join([*parts, self.seps[-1]])


def _without_word(text: Text, word: str) -> Text:
    parsed = _Text(text)
    shorter = parsed.without({i for i, t in enumerate(parsed.tokens) if t == word})
    return text if shorter is None else shorter


Segments = list[tuple[Text, list[Text | None]]]


def _chunks(length: int) -> Iterator[int]:
    """Chunk sizes to try on ``length`` items: halves, quarters, ... 1."""
    size = length // 2 or 1
    while True:
        yield size
        if size == 1:
            return
        size //= 2


class _Search:
    """Greedy reductions of one input under a step budget."""

    def __init__(self, case: Case, keeps: Callable[[Case], bool], budget: int) -> None:
        self.case, self.keeps, self.budget = case, keeps, budget
        self.segments: Segments = [(h, list(r)) for h, r in zip(case.hypotheses, case.references)]
        self.steps = 0
        self.accepted: list[Case] = []
        self._tried: set[Any] = set()

    @property
    def spent(self) -> bool:
        return self.steps >= self.budget

    def _try(self, segments: Segments) -> bool:
        if self.spent or not segments:
            return False
        candidate = self.case.with_texts([h for h, _ in segments], [r for _, r in segments])
        key = candidate.input.segments
        if key in self._tried:
            return False
        self._tried.add(key)
        self.steps += 1
        if not self.keeps(candidate):
            return False
        self.segments = segments
        self.accepted.append(candidate)
        return True

    def run(self) -> None:
        progress = True
        while progress and not self.spent:
            progress = self._drop_segments()
            progress = self._drop_references() or progress
            progress = self._drop_words() or progress
            progress = self._drop_tokens() or progress

    def _texts(self) -> Iterator[Text | None]:
        for hyp, refs in self.segments:
            yield hyp
            yield from refs

    def _drop_words(self) -> bool:
        """Drop every occurrence of one word at once (a hypothesis that matches its
        reference shrinks only with it)."""
        progress = False
        words = dict.fromkeys(w for text in self._texts() for w in _Text(text).tokens)
        for word in words:
            trial = [
                (
                    _without_word(hyp, word),
                    [r if r is None else _without_word(r, word) for r in refs],
                )
                for hyp, refs in self.segments
            ]
            if trial != self.segments and self._try(trial):
                progress = True
        return progress

    def _drop_segments(self) -> bool:
        if self.case.level == "sentence":
            return False
        progress = False
        for size in _chunks(len(self.segments)):
            start = 0
            while start < len(self.segments) and len(self.segments) > 1:
                segs = self.segments
                if self._try(segs[:start] + segs[start + size :]):
                    progress = True
                else:
                    start += size
        return progress

    def _drop_references(self) -> bool:
        progress = False
        for i in range(len(self.segments)):
            j = 0
            while j < len(self.segments[i][1]) and len(self.segments[i][1]) > 1:
                hyp, refs = self.segments[i]
                trial = list(self.segments)
                trial[i] = (hyp, refs[:j] + refs[j + 1 :])
                if self._try(trial):
                    progress = True
                else:
                    j += 1
        return progress

    def _drop_tokens(self) -> bool:
        progress = False
        for i in range(len(self.segments)):
            for j in range(-1, len(self.segments[i][1])):  # -1: the hypothesis
                progress = self._shrink_text(i, j) or progress
        return progress

    def _shrink_text(self, i: int, j: int) -> bool:
        def replaced(text: Text | None) -> Segments:
            trial = list(self.segments)
            hyp, refs = trial[i]
            if j < 0:
                assert text is not None
                trial[i] = (text, refs)
            else:
                trial[i] = (hyp, [*refs[:j], text, *refs[j + 1 :]])
            return trial

        def current() -> _Text:
            hyp, refs = self.segments[i]
            return _Text(hyp if j < 0 else refs[j])

        progress = False
        for size in _chunks(len(current().tokens)):
            start = 0
            while start < len(current().tokens):
                text = current()
                if self._try(replaced(text.without(range(start, start + size)))):
                    progress = True
                else:
                    start += size
        return progress


class _Keeps:
    """Whether the pair still differs on a candidate input, for the same cause."""

    def __init__(self, subject_a: Subject, subject_b: Subject, first: Attribution) -> None:
        self.subjects = (subject_a, subject_b)
        self.first = first
        self.tolerance = tolerance_for(subject_a, subject_b)

    def outcomes(self, candidate: Case) -> tuple[Outcome, Outcome] | None:
        """Both sides' outcomes on ``candidate`` when they still differ, else None."""
        replies = [subject.reply(candidate) for subject in self.subjects]
        oa, ob = (r.outcome(s.scale) for r, s in zip(replies, self.subjects))
        if classify(replies[0], replies[1], oa, ob, self.tolerance)[0] != DIFFERING:
            return None
        assert oa is not None and ob is not None
        return oa, ob

    def reproduced(self, evaluator: Evaluator, oa: Outcome, ob: Outcome) -> bool:
        """The settings that reproduced each side still do (a cheap test first: otherwise
        the attribution would search for other settings, a different explanation)."""
        sides = ((self.first.config_a, oa), (self.first.config_b, ob))
        for subject, (config, want) in zip(self.subjects, sides):
            scorer = subject.native or "papineni2002"
            if config is not None and not matches(
                evaluator.score(config, scorer), want, self.tolerance
            ):
                return False
        return True

    def __call__(self, candidate: Case, exact: bool) -> bool:
        """``exact``: the attribution (without alternatives) names the same cause; else the
        pair only has to differ, with the same settings reproducing the sides."""
        outcomes = self.outcomes(candidate)
        if outcomes is None:
            return False
        evaluator = Evaluator(candidate)
        if not self.reproduced(evaluator, *outcomes):
            return False
        if not exact:
            return True
        a, b = self.subjects
        found = attribute(
            evaluator,
            Side(a.native, outcomes[0], a.native_knobs),
            Side(b.native, outcomes[1], b.native_knobs),
            candidate.config,
            self.tolerance,
            alternatives=False,
        )
        return found.cause == self.first.cause


def shrink_disagreement(
    case: Case, subject_a: Subject, subject_b: Subject, row: PairRow, budget: int = MAX_STEPS
) -> ShrinkResult | None:
    """The smallest input found on which the pair still differs for the same cause, within
    ``budget`` candidate inputs (None when the row has no attribution to keep)."""
    if row.attribution is None:
        return None
    if case.level == "sentence" and len(case.hypotheses) != 1:
        return None
    keeps = _Keeps(subject_a, subject_b, row.attribution)
    explained = row.attribution.explained
    search = _Search(case, lambda candidate: keeps(candidate, explained), budget)
    search.run()
    minimal, note = (search.accepted[-1] if search.accepted else None), ""
    if not explained and minimal is not None:  # the cause is checked once, at the end
        recent = reversed(search.accepted[-MAX_VERIFY:])
        minimal = next((c for c in recent if keeps(c, True)), None)
        if minimal is None:
            note = "the smaller inputs found show the difference with another cause"
    return ShrinkResult(minimal, search.steps, budget, search.spent, note)
