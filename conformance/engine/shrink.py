"""Shrink a disagreement to a minimal input that still shows it, with the same cause.

Two passes, both deterministic (results do not depend on ``--jobs``):

1. property-based (when Hypothesis is installed): Hypothesis draws sub-corpora of the input
   (which segments, references and tokens to keep) and its shrinker minimises one on which
   the two implementations still differ and the attribution names the same cause
   (derandomized, no database);
2. delta debugging polishes the result: drop one segment, reference or token at a time
   while the disagreement survives, until nothing more can go.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..adapters.text import join_tokens, split_tokens
from ..cases import Case
from ..protocol import Text
from .differ import DIFFERING, PairRow, Subject, compare_case

__all__ = ["MAX_STEPS", "shrink_disagreement"]

MAX_STEPS = 400

Refs = list[list[Text | None]]


def _without_segment(hyps: list[Text], refs: Refs) -> Iterator[tuple[list[Text], Refs]]:
    if len(hyps) > 1:
        for i in range(len(hyps)):
            yield hyps[:i] + hyps[i + 1 :], refs[:i] + refs[i + 1 :]


def _without_reference(hyps: list[Text], refs: Refs) -> Iterator[tuple[list[Text], Refs]]:
    for i, ref_list in enumerate(refs):
        for j in range(len(ref_list) if len(ref_list) > 1 else 0):
            new_refs = [list(r) for r in refs]
            del new_refs[i][j]
            yield hyps, new_refs


def _without_token(hyps: list[Text], refs: Refs) -> Iterator[tuple[list[Text], Refs]]:
    for i, hyp in enumerate(hyps):
        toks = split_tokens(hyp)
        for k in range(len(toks)):
            new_hyps = list(hyps)
            new_hyps[i] = join_tokens(toks[:k] + toks[k + 1 :], hyp)
            yield new_hyps, refs
    for i, ref_list in enumerate(refs):
        for j, ref in enumerate(ref_list):
            toks = [] if ref is None else split_tokens(ref)
            for k in range(len(toks)):
                new_refs = [list(r) for r in refs]
                new_refs[i][j] = join_tokens(toks[:k] + toks[k + 1 :], ref)
                yield hyps, new_refs


def _candidates(case: Case) -> Iterator[Case]:
    hyps: list[Text] = list(case.hypotheses)
    refs: Refs = [list(r) for r in case.references]
    for step in (_without_segment, _without_reference, _without_token):
        for new_hyps, new_refs in step(hyps, refs):
            yield case.with_texts(new_hyps, new_refs)


def shrink_disagreement(
    case: Case, subject_a: Subject, subject_b: Subject, row: PairRow
) -> Case | None:
    """The smallest input found on which the pair still differs for the same cause."""
    if row.attribution is None:
        return None
    cause = row.attribution.cause
    if case.level == "sentence" and len(case.hypotheses) != 1:
        return None

    def still_differs(candidate: Case) -> bool:
        if not candidate.hypotheses:
            return False
        if candidate.level == "sentence" and len(candidate.hypotheses) != 1:
            return False
        (new_row,) = compare_case(candidate, [subject_a, subject_b])
        return (
            new_row.verdict == DIFFERING
            and new_row.attribution is not None
            and new_row.attribution.cause == cause
        )

    current = _hypothesis_pass(case, still_differs) or case
    steps, improved = 0, True
    while improved and steps < MAX_STEPS:
        improved = False
        for candidate in _candidates(current):
            steps += 1
            if still_differs(candidate):
                current, improved = candidate, True
                break
            if steps >= MAX_STEPS:
                break
    return current if current != case else None


def _hypothesis_pass(case: Case, keeps_disagreeing: Callable[[Case], bool]) -> Case | None:
    """The smallest sub-corpus Hypothesis finds that keeps the disagreement, or None (also
    when Hypothesis is not installed: delta debugging alone then does the work)."""
    try:
        from hypothesis import HealthCheck, find, settings
        from hypothesis import strategies as st
        from hypothesis.errors import NoSuchExample
    except ImportError:
        return None

    segments = list(zip(case.hypotheses, case.references))

    def kept(draw: Any, text: Text) -> Text:
        tokens = split_tokens(text)
        flags = draw(st.lists(st.booleans(), min_size=len(tokens), max_size=len(tokens)))
        return join_tokens([t for t, keep in zip(tokens, flags) if keep], text)

    @st.composite
    def sub_cases(draw: Any) -> Case:
        chosen = draw(st.lists(st.booleans(), min_size=len(segments), max_size=len(segments)))
        hyps: list[Text] = []
        refs: list[Sequence[Text | None]] = []
        for keep, (hyp, ref_list) in zip(chosen, segments):
            if not keep:
                continue
            hyps.append(kept(draw, hyp))
            present = [r for r in ref_list if r is not None]
            mask = draw(st.lists(st.booleans(), min_size=len(present), max_size=len(present)))
            refs.append([kept(draw, r) for r, m in zip(present, mask) if m] or present[:1])
        return case.with_texts(hyps, refs)

    config = settings(
        max_examples=150,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    try:
        return find(sub_cases(), keeps_disagreeing, settings=config)
    except NoSuchExample:
        return None
