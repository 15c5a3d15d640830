"""sentence_scores: every segment exactly as sentence_bleu scores it, for every profile.

Property-tested against two loops over the segments: ``sentence_bleu`` per segment, and the
readable reference path (``iter_segment_stats`` of the one segment, then ``score_stats``),
over profiles, the knobs each profile's tool offers (every knob for the generic profile),
tokenizers, raw text and token lists, several and missing references. Errors must be the
same type (and emulated-failure kind) as the loop's first.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_impl import (
    CHOICES,
    PROFILES,
    BleuError,
    BleuStats,
    EmulatedFailure,
    InputError,
    get_profile,
    iter_segment_stats,
    score_stats,
    sentence_bleu,
    sentence_scores,
)

WORDS = ["the", "The", "cat", "cat.", "sat", "a", "a,", "mat!", "(x)", "école", "ΣΟΦΟΣ", "1,000"]
GLUE = [" ", " ", "  ", "\u00a0", "\t"]

#: Values tried for the knobs that are not enumerated in CHOICES.
NUMERIC: dict[str, tuple[Any, ...]] = {
    "max_order": (1, 2, 3, 4, 5),
    "weights": (None, (0.5, 0.5), (0.25, 0.25, 0.25, 0.25), (0.1, 0.2, 0.3, 0.4)),
    "smoothing_value": (None, 0.0, 0.1, 1.0),
    "epsilon": (0.1, 0.5),
    "alpha": (5.0, 1.0),
    "k": (5.0, 1.0),
    "effective_order": (False, True),
    "auto_reweigh": (False, True),
}


@st.composite
def texts(draw: Any, tokens: bool) -> Any:
    words = draw(st.lists(st.sampled_from(WORDS), max_size=9))
    if tokens:
        return words
    return draw(st.sampled_from(GLUE)).join(words) + draw(st.sampled_from(["", " "]))


@st.composite
def corpora(draw: Any) -> tuple[list[Any], list[list[Any]]]:
    tokens = draw(st.booleans())
    size = draw(st.integers(1, 6))
    hyps, refs = [], []
    for _ in range(size):
        fewest = 0 if draw(st.integers(0, 7)) == 0 else 1  # sometimes no reference at all
        ref_list = draw(st.lists(texts(tokens), min_size=fewest, max_size=4))
        if ref_list and draw(st.integers(0, 9)) == 0:
            ref_list.append(None)  # a missing reference is dropped
        exact = bool(ref_list) and ref_list[0] is not None and draw(st.booleans())
        hyp = ref_list[0] if exact else draw(texts(tokens))  # sometimes an exact match
        hyps.append(hyp)
        refs.append(ref_list)
    return hyps, refs


@st.composite
def settings_of(draw: Any) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(PROFILES)))
    options = get_profile(name).options
    offered = {**CHOICES, **NUMERIC} if options is None else options
    knobs: dict[str, Any] = {}
    if not offered:  # a tool without options (a script run as is)
        return name, knobs
    for knob in draw(st.lists(st.sampled_from(sorted(offered)), max_size=4, unique=True)):
        option = offered[knob]
        values = getattr(option, "values", option)
        if values is None:
            values = CHOICES.get(knob) or NUMERIC.get(knob, ())
        if values:
            knobs[knob] = draw(st.sampled_from(list(values)))
    return name, knobs


def _outcome(run: Any) -> Any:
    try:
        return run()
    except BleuError as exc:
        return (type(exc), exc.kind if isinstance(exc, EmulatedFailure) else None)


def _reference(hyps: list[Any], refs: list[Any], profile: str, knobs: dict[str, Any]) -> Any:
    prof = get_profile(profile)
    config = prof.resolve(knobs, "sentence")
    out = []
    for hyp, ref_list in zip(hyps, refs):
        (stats,) = iter_segment_stats([hyp], [ref_list], config)
        out.append(score_stats(stats, profile=prof, config=config))
    return out


@settings(max_examples=300, deadline=None)
@given(corpora(), settings_of())
def test_batch_equals_the_loop_for_every_profile(corpus: Any, setting: Any) -> None:
    hyps, refs = corpus
    profile, knobs = setting
    loop = _outcome(
        lambda: [sentence_bleu(h, r, profile=profile, **knobs) for h, r in zip(hyps, refs)]
    )
    reference = _outcome(lambda: _reference(hyps, refs, profile, knobs))
    results = _outcome(
        lambda: sentence_scores(hyps, refs, profile=profile, statistics=True, **knobs)
    )
    scores = _outcome(lambda: sentence_scores(hyps, refs, profile=profile, **knobs))
    assert results == loop == reference
    assert scores == (loop if isinstance(loop, tuple) else [r.score for r in loop])
    if isinstance(results, list):  # counted without the constructor's checks: they must pass
        for result in results:
            BleuStats(result.counts, result.totals, result.hyp_len, result.ref_len)


def test_many_segments_cross_chunks_and_reuse_precisions() -> None:
    """Enough segments for several chunks of the fast path; repeated statistics hit the
    remembered precisions."""
    hyps = [f"the cat sat on mat {i % 7}" for i in range(5000)]
    refs = [[f"the cat sat on the mat {i % 5}", "a cat sat"] for i in range(5000)]
    for profile in ("sacrebleu", "nltk", "papineni2002"):
        want = [sentence_bleu(h, r, profile=profile).score for h, r in zip(hyps, refs)]
        assert sentence_scores(hyps, refs, profile=profile) == want


def test_an_error_names_its_segment_as_the_loop_meets_it() -> None:
    hyps = ["a b", "c", "d"]
    with pytest.raises(InputError, match="segment 1"):
        sentence_scores(hyps, [["a b"], [], ["d"]])
    with pytest.raises(InputError, match="differ in length"):
        sentence_scores(hyps, [["a b"], ["c"]])
    # the first failure wins: segment 0's empty hypothesis fails before segment 1's missing
    # reference (mteval dies on an empty system output)
    with pytest.raises(EmulatedFailure):
        sentence_scores(["", "c"], [["a"], []], profile="mteval-v13a")


def test_empty_input_gives_no_scores() -> None:
    assert sentence_scores([], []) == []
