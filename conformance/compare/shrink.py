"""Shrink a disagreement to a minimal input that still shows it, with the same cause.

Delta debugging, deterministic (so results do not depend on ``--jobs``): repeatedly try to
drop a segment, a reference or a token, keeping any change after which the two
implementations still differ and the attribution names the same cause; stop at a fixpoint.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

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
        if candidate.level == "sentence" and len(candidate.hypotheses) != 1:
            return False
        (new_row,) = compare_item(candidate, [impl_a, impl_b])
        return (
            new_row.verdict == DIFFERING
            and new_row.attribution is not None
            and new_row.attribution.cause == cause
        )

    current, steps, improved = item, 0, True
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
