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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..cases import Case
from ..protocol import Text
from .attribution import Side, attribute
from .differ import DIFFERING, PairRow, Subject, classify, tolerance_for
from .evaluate import Evaluator

__all__ = ["MAX_STEPS", "MAX_VERIFY", "ShrinkResult", "shrink_disagreement"]

#: Candidate inputs tried per disagreement at most (each asks both implementations once).
MAX_STEPS = 150

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

    def record(self) -> dict[str, Any]:
        """What the compare log keeps of it."""
        out: dict[str, Any] = {"steps": self.steps, "budget": self.budget}
        if self.exhausted:
            out["exhausted"] = True
        if self.note:
            out["note"] = self.note
        return out


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

    def without(self, start: int, stop: int) -> Text | None:
        """The text with tokens ``start:stop`` dropped (with the whitespace before them, or
        after them for the first tokens)."""
        if self.none:
            return None
        tokens = self.tokens[:start] + self.tokens[stop:]
        if self.seps is None:
            return tuple(tokens)
        if not tokens:
            return ""
        seps = self.seps
        kept = [seps[0], *seps[stop + 1 :]] if start == 0 else seps[:start] + seps[stop:]
        return "".join(s + t for s, t in zip(kept, [*tokens, ""]))


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
            progress = self._drop_tokens() or progress

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
                trial[i] = (hyp, refs[:j] + [text] + refs[j + 1 :])
            return trial

        def current() -> _Text:
            hyp, refs = self.segments[i]
            return _Text(hyp if j < 0 else refs[j])

        progress = False
        for size in _chunks(len(current().tokens)):
            start = 0
            while start < len(current().tokens):
                text = current()
                if self._try(replaced(text.without(start, start + size))):
                    progress = True
                else:
                    start += size
        return progress


def shrink_disagreement(
    case: Case, subject_a: Subject, subject_b: Subject, row: PairRow, budget: int = MAX_STEPS
) -> ShrinkResult | None:
    """The smallest input found on which the pair still differs for the same cause, within
    ``budget`` candidate inputs (None when the row has no attribution to keep)."""
    if row.attribution is None:
        return None
    if case.level == "sentence" and len(case.hypotheses) != 1:
        return None
    cause = row.attribution.cause
    tolerance = tolerance_for(subject_a, subject_b)
    sides = (subject_a, subject_b)

    def same_cause(candidate: Case, replies: Any) -> bool:
        oa, ob = (r.outcome(s.scale) for r, s in zip(replies, sides))
        if classify(*replies, oa, ob, tolerance)[0] != DIFFERING:
            return False
        assert oa is not None and ob is not None
        found = attribute(
            Evaluator(candidate),
            Side(subject_a.native, oa, subject_a.native_knobs),
            Side(subject_b.native, ob, subject_b.native_knobs),
            candidate.config,
            tolerance,
            alternatives=False,
        )
        return found.cause == cause

    def still_differs(candidate: Case, exact: bool) -> bool:
        replies = (subject_a.reply(candidate), subject_b.reply(candidate))
        if not exact:
            oa, ob = (r.outcome(s.scale) for r, s in zip(replies, sides))
            return classify(*replies, oa, ob, tolerance)[0] == DIFFERING
        return same_cause(candidate, replies)

    explained = row.attribution.explained
    search = _Search(case, lambda c: still_differs(c, explained), budget)
    search.run()
    exhausted = search.spent
    minimal, note = search.accepted[-1] if search.accepted else None, ""
    if not explained and minimal is not None:
        minimal = next(
            (c for c in reversed(search.accepted[-MAX_VERIFY:]) if still_differs(c, True)), None
        )
        if minimal is None:
            note = "the smaller inputs found show the difference with another cause"
    return ShrinkResult(minimal, search.steps, budget, exhausted, note)
