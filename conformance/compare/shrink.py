"""Shrink a disagreement to a minimal input that still shows it, with the same cause.

Two passes, both deterministic (results do not depend on ``--jobs``):

1. property-based: Hypothesis draws sub-corpora of the input (which segments, references
   and tokens to keep) and its shrinker minimises one on which the two implementations
   still differ and the attribution names the same cause (derandomized, no database);
2. delta debugging polishes the result: drop one segment, reference or token at a time
   while the disagreement survives, until nothing more can go.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .differ import Implementation, Item, PairRow

MAX_STEPS = 400


def _tokens(text: object) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)  # type: ignore[union-attr]


def _join(tokens: list[str], like: object) -> object:
    return " ".join(tokens) if isinstance(like, str) else tuple(tokens)


def _candidates(item: Item) -> Iterator[Item]:
    hyps, refs = list(item.hypotheses), [list(r) for r in item.references]
    if len(hyps) > 1:
        for i in range(len(hyps)):
            yield replace(
                item,
                hypotheses=tuple(hyps[:i] + hyps[i + 1 :]),
                references=tuple(tuple(r) for r in refs[:i] + refs[i + 1 :]),
            )
    for i, ref_list in enumerate(refs):
        for j in range(len(ref_list)):
            if len(ref_list) > 1:
                new_refs = [list(r) for r in refs]
                del new_refs[i][j]
                yield replace(item, references=tuple(tuple(r) for r in new_refs))
    for i, hyp in enumerate(hyps):
        toks = _tokens(hyp)
        for k in range(len(toks)):
            new_hyps = list(hyps)
            new_hyps[i] = _join(toks[:k] + toks[k + 1 :], hyp)
            yield replace(item, hypotheses=tuple(new_hyps))
    for i, ref_list in enumerate(refs):
        for j, ref in enumerate(ref_list):
            if ref is None:
                continue
            toks = _tokens(ref)
            for k in range(len(toks)):
                new_refs = [list(r) for r in refs]
                new_refs[i][j] = _join(toks[:k] + toks[k + 1 :], ref)
                yield replace(item, references=tuple(tuple(r) for r in new_refs))


def shrink_disagreement(
    item: Item, impl_a: Implementation, impl_b: Implementation, row: PairRow
) -> Item | None:
    """The smallest input found on which the pair still differs for the same cause."""
    from .differ import DIFFERING, compare_item

    if row.attribution is None:
        return None
    cause = row.attribution.cause
    if row.item.level == "sentence" and len(item.hypotheses) != 1:
        return None

    def still_differs(candidate: Item) -> bool:
        if not candidate.hypotheses:
            return False
        if candidate.level == "sentence" and len(candidate.hypotheses) != 1:
            return False
        (new_row,) = compare_item(candidate, [impl_a, impl_b])
        return (
            new_row.verdict == DIFFERING
            and new_row.attribution is not None
            and new_row.attribution.cause == cause
        )

    current = _hypothesis_pass(item, still_differs) or item
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
    return current if current != item else None


def _hypothesis_pass(item: Item, keeps_disagreeing: Callable[[Item], bool]) -> Item | None:
    """The smallest sub-corpus Hypothesis finds that keeps the disagreement, or None."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    segments = list(zip(item.hypotheses, item.references))

    def kept(draw: Any, text: Any) -> Any:
        tokens = _tokens(text)
        flags = draw(st.lists(st.booleans(), min_size=len(tokens), max_size=len(tokens)))
        return _join([t for t, keep in zip(tokens, flags) if keep], text)

    @st.composite
    def sub_items(draw: Any) -> Item:
        chosen = draw(st.lists(st.booleans(), min_size=len(segments), max_size=len(segments)))
        hyps, refs = [], []
        for keep, (hyp, ref_list) in zip(chosen, segments):
            if not keep:
                continue
            hyps.append(kept(draw, hyp))
            present = [r for r in ref_list if r is not None]
            mask = draw(st.lists(st.booleans(), min_size=len(present), max_size=len(present)))
            refs.append(tuple(kept(draw, r) for r, m in zip(present, mask) if m) or (present[0],))
        return replace(item, hypotheses=tuple(hyps), references=tuple(refs))

    config = settings(
        max_examples=150,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    try:
        return find(sub_items(), keeps_disagreeing, settings=config)
    except NoSuchExample:
        return None
