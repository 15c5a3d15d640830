"""Differential tests: the fast path's corpus statistics under macro aggregation, joined
n-grams and a corpus-wide reference pool equal the reference path's, exactly (per-segment
parts, types and errors included), and so do the per-segment tables of resampling.

Joined n-grams differ from tuples only with tokens that hold a space, which only token
sequences can have: those are mixed into the inputs (the ``("a b", "c")`` / ``("a", "b c")``
collision of fast-bleu, torchtext's re-split past the highest order).
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_impl import (
    BleuError,
    BleuStats,
    corpus_stats,
    fast,
    get_profile,
    iter_segment_stats,
    make_config,
    segment_table,
)
from bleu_impl.knobs import CHOICES

from ..randomcorpus import corpus, random_corpus

KNOBS = [
    {"ngram_join": "space"},
    {"ngram_join": "space-resplit"},
    {"aggregation": "macro"},
    {"aggregation": "macro", "ngram_join": "space-resplit", "ref_length": "average"},
    {"ref_scope": "corpus"},
    {"ref_scope": "corpus", "ngram_join": "space", "aggregation": "macro"},
    {"ref_scope": "corpus", "ngram_join": "space-resplit"},
    {"ref_scope": "corpus", "ref_length": "average", "denominator_floor": "per-segment"},
    {"ref_scope": "corpus", "ref_length": "closest-first", "tokenize": "13a"},
    {"ref_scope": "corpus", "ref_length": "closest-9999", "max_order": 6},
    {"ref_scope": "corpus", "ref_length": "shortest", "lowercase_stage": "hyp-before-ref-after",
     "lowercase": "unicode", "tokenize": "13a"},
    {"aggregation": "macro", "missing_refs": "len-9999"},
    {"aggregation": "macro", "ngram_join": "space", "missing_refs": "len-9999", "max_order": 2},
]  # fmt: skip

#: NLTK methods 5-7 read every segment's own data under macro aggregation and a pool.
LAST = {"smoothing": "nltk-method5", "smoothing_context": "last-segment"}


def _outcome(compute) -> object:
    try:
        return compute()
    except BleuError as exc:
        return f"{type(exc).__name__}: {exc}"


def _reference(hyps, refs, config) -> object:
    return _outcome(
        lambda: sum(iter_segment_stats(hyps, refs, config), BleuStats.zero(config.max_order))
    )


def _check(hyps, refs, config, limit: int = 13) -> None:
    """The sum (parts included), per chunk size, and the per-segment table."""
    assert fast.supports_corpus(config)
    expected = _reference(hyps, refs, config)
    for size in (limit, 10_000):
        got = _outcome(partial(fast.corpus_stats, hyps, refs, config, limit=size))
        assert got == expected
        if isinstance(got, BleuStats):
            assert isinstance(expected, BleuStats)
            assert type(got.ref_len) is type(expected.ref_len)
            assert [type(p.ref_len) for p in got.parts or ()] == [
                type(p.ref_len) for p in expected.parts or ()
            ]
    assert _outcome(lambda: corpus_stats(hyps, refs, config)) == expected
    _check_table(hyps, refs, config)


def _check_table(hyps, refs, config) -> None:
    plain = replace(config, aggregation="corpus")
    rows = _outcome(lambda: list(iter_segment_stats(hyps, refs, plain)))
    table = _outcome(lambda: segment_table(hyps, refs, config))
    if isinstance(rows, str):
        assert table == rows
        return
    assert not isinstance(table, str), table
    assert table.rows() == [replace(r, missing=0) for r in rows]  # a table keeps no `missing`


@pytest.mark.parametrize("knobs", KNOBS)
def test_raw_corpora(knobs) -> None:
    for seed in range(6):
        missing = knobs.get("missing_refs") == "len-9999"
        hyps, refs = random_corpus(seed, max_refs=3, missing=missing)
        _check(hyps, refs, make_config(knobs))


@pytest.mark.parametrize(
    "knobs", [k for k in KNOBS if k.get("ref_scope") == "corpus" or k.get("aggregation")]
)
def test_last_segment_data_of_every_part(knobs) -> None:
    for seed in range(3):
        missing = knobs.get("missing_refs") == "len-9999"
        hyps, refs = random_corpus(seed + 40, max_refs=3, missing=missing)
        _check(hyps, refs, make_config({**knobs, **LAST}))


def _spaced(tokens: list[str], rng: random.Random) -> list[str]:
    """Neighbouring tokens merged with a space inside (fast-bleu's collisions)."""
    out = list(tokens)
    for _ in range(rng.randint(1, 2)):
        if len(out) > 1:
            i = rng.randrange(len(out) - 1)
            out[i : i + 2] = [f"{out[i]} {out[i + 1]}"]
    return out


def _with_spaced_tokens(seed: int, every: int) -> tuple[list, list]:
    rng = random.Random(seed)
    hyps, refs = corpus(rng, 40, max_refs=3)
    hyps = [_spaced(h, rng) if i % every == 0 else h for i, h in enumerate(hyps)]
    refs = [[_spaced(r, rng) if rng.random() < 0.3 else r for r in rs] for rs in refs]
    return hyps, refs


@pytest.mark.parametrize("join", ["space", "space-resplit"])
@pytest.mark.parametrize("scope", CHOICES["ref_scope"])
@pytest.mark.parametrize("aggregation", CHOICES["aggregation"])
def test_token_sequences_with_spaces_inside_tokens(join, scope, aggregation) -> None:
    for seed, every in [(1, 3), (2, 7), (3, 40)]:
        hyps, refs = _with_spaced_tokens(seed, every)
        for order in (1, 2, 4):
            config = make_config(
                {"ngram_join": join, "ref_scope": scope, "aggregation": aggregation,
                 "max_order": order}
            )  # fmt: skip
            _check(hyps, refs, config, limit=11)


def test_resplit_past_the_highest_order_fails_at_the_same_segment() -> None:
    config = get_profile("torchtext").resolve({"max_order": 2})
    hyps = ["a b", ["a b c", "d"], "x y"]
    refs = [["a b"], [["a b c", "d"]], [["z"]]]
    expected = _reference(hyps, refs, config)
    assert "index-error" in str(expected) or "IndexError" in str(expected)
    for limit in (1, 2, 100):
        assert _outcome(partial(fast.corpus_stats, hyps, refs, config, limit=limit)) == expected


BAD_INPUTS = [
    (["a", "b"], [["a"]]),
    (["a", None], [["a"], ["b"]]),
    (["a", "b"], [["a"], [["b", 3]]]),
    (["a", "b", "c"], [["a"], [], ["c"]]),
    (["a", ["b", 1], "c"], [["a"], ["b"], []]),
    (["a", ["b c", 1]], [[], [b"x"]]),
    ([["a b", "c"], "b"], [[["a", "b c"]], []]),
    ([], []),
    (["a"], [[]]),
]


@pytest.mark.parametrize(("hyps", "refs"), BAD_INPUTS)
@pytest.mark.parametrize("knobs", [*KNOBS, {"ref_length": "single", "ref_scope": "corpus"}])
def test_errors_match_the_reference_path(hyps, refs, knobs) -> None:
    config = make_config(knobs)
    expected = _reference(hyps, refs, config)
    for limit in (1, 100):
        assert _outcome(partial(fast.corpus_stats, hyps, refs, config, limit=limit)) == expected


def test_profiles_that_take_the_new_paths() -> None:
    hyps, refs = random_corpus(21, max_refs=2)
    for name in ("ignite", "codexglue", "fast-bleu", "torchtext"):
        config = get_profile(name).resolve({}, "corpus")
        assert not fast.supports(config)  # the per-segment path still declines them
        _check(hyps, refs, config)


TOKENS = st.sampled_from(["a", "b", "c", "A", "a b", "b c", "a.", " ", "σ", "Σ"])
SEGMENTS = st.one_of(st.lists(TOKENS, max_size=8).map(" ".join), st.lists(TOKENS, max_size=8))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(SEGMENTS, st.lists(SEGMENTS, max_size=4)), max_size=10),
    st.sampled_from(CHOICES["ngram_join"]),
    st.sampled_from(CHOICES["ref_scope"]),
    st.sampled_from(CHOICES["aggregation"]),
    st.sampled_from(["closest", "closest-first", "shortest", "average", "closest-9999"]),
    st.sampled_from(CHOICES["missing_refs"]),
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=1, max_value=9),
)
def test_property_fast_equals_reference(
    pairs, join, scope, aggregation, ref_length, missing, order, limit
):
    config = make_config(
        {"ngram_join": join, "ref_scope": scope, "aggregation": aggregation,
         "ref_length": ref_length, "missing_refs": missing, "max_order": order}
    )  # fmt: skip
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    _check(hyps, refs, config, limit=limit)
