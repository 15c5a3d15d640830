"""Differential tests: the fast path's corpus statistics equal the reference path's, exactly.

Seeded random corpora with empty lines, Unicode (final sigma, NBSP, U+001C), repeated
n-grams, up to 6 references per segment and missing references, under every tokenizer,
split, lowercase, line_prep, ref_length and denominator_floor value; chunk sizes small
enough to cut corpora into many chunks; error messages compared too.
"""

from __future__ import annotations

import itertools
import random
import zlib
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_impl import BleuStats, InputError, corpus_stats, fast, get_profile, iter_segment_stats
from bleu_impl.knobs import CHOICES, SINGLE_SPACE_SPLITS, SINGLE_SPACED, make_config
from bleu_impl.spm_models import SPM_MODELS

from ..randomcorpus import WORDS, random_corpus, random_line


def _reference(hyps, refs, config) -> list[BleuStats]:
    return list(iter_segment_stats(hyps, refs, config))


def _check(hyps, refs, config, limit: int = 13) -> None:
    """Per segment, and summed over chunks of about ``limit`` sentences."""
    expected = _reference(hyps, refs, config)
    assert [fast.corpus_stats([h], [r], config) for h, r in zip(hyps, refs)] == expected
    total = sum(expected, BleuStats.zero(config.max_order))
    got = fast.corpus_stats(hyps, refs, config, limit=limit)
    assert got == total
    assert type(got.ref_len) is type(total.ref_len)
    assert corpus_stats(hyps, refs, config) == total


TOKENIZE_SPLIT = [
    (tokenize, split)
    for tokenize, split in itertools.product(CHOICES["tokenize"], CHOICES["split"])
    if split not in SINGLE_SPACE_SPLITS or tokenize in SINGLE_SPACED
]


@pytest.mark.parametrize(("tokenize", "split"), TOKENIZE_SPLIT)
@pytest.mark.parametrize("lowercase", CHOICES["lowercase"])
def test_tokenizers_splits_casing(tokenize: str, split: str, lowercase, request) -> None:
    hyps, refs = random_corpus(zlib.crc32(f"{tokenize}|{split}|{lowercase}".encode()) % 1000)
    model = request.getfixturevalue("spm_model") if tokenize in SPM_MODELS else None
    for line_prep in CHOICES["line_prep"]:
        config = make_config(
            {
                "tokenize": tokenize,
                "split": split,
                "lowercase": lowercase,
                "line_prep": line_prep,
                "spm_model": model,
            }
        )
        _check(hyps, refs, config)


@pytest.mark.parametrize("ref_length", CHOICES["ref_length"])
@pytest.mark.parametrize("floor", CHOICES["denominator_floor"])
@pytest.mark.parametrize("max_order", [1, 2, 4, 6])
def test_ref_length_floor_orders(ref_length: str, floor: str, max_order: int) -> None:
    max_refs = 1 if ref_length == "single" else 6
    for seed in range(3):
        hyps, refs = random_corpus(seed, max_refs=max_refs)
        config = make_config(
            {"ref_length": ref_length, "denominator_floor": floor, "max_order": max_order}
        )
        _check(hyps, refs, config)


def test_uniform_reference_counts_take_the_vectorised_ref_length() -> None:
    rng = random.Random(5)
    for k in (1, 2, 4):
        hyps = [random_line(rng, WORDS) for _ in range(80)]
        refs = [[random_line(rng, WORDS) for _ in range(k)] for _ in hyps]
        for rule in ("closest", "closest-first", "shortest", "average"):
            _check(hyps, refs, make_config({"ref_length": rule}), limit=50)


def test_missing_references_len_9999() -> None:
    for seed in range(4):
        hyps, refs = random_corpus(seed, missing=True)
        _check(hyps, refs, make_config({"missing_refs": "len-9999"}))


def test_missing_references_len_minus_1() -> None:
    """An empty hypothesis without a reference counts -1 (sacrebleu 2.2+), any other one
    raises, on both paths and in every chunking."""
    config = make_config({"missing_refs": "len-minus-1"})
    for seed in range(4):
        hyps, refs = random_corpus(seed, missing=True)
        hyps = ["" if all(r is None for r in rs) else h for h, rs in zip(hyps, refs)]
        _check(hyps, refs, config)
        _check(hyps, refs, config, limit=3)
    hyps = ["x" if all(r is None for r in rs) else h for h, rs in zip(hyps, refs)]
    expected = _outcome(lambda: sum(_reference(hyps, refs, config), BleuStats.zero(4)))
    assert isinstance(expected, str) and "no reference (missing_refs='len-minus-1')" in expected
    for limit in (1, 100):
        assert _outcome(partial(fast.corpus_stats, hyps, refs, config, limit=limit)) == expected


def test_average_reference_length_is_an_exact_fraction() -> None:
    hyps, refs = ["a b c", "a"], [["a b", "a b c d"], ["a", "b c", "d e f g"]]
    stats = fast.corpus_stats(hyps, refs, make_config({"ref_length": "average"}))
    assert stats.ref_len == Fraction(3) + Fraction(7, 3)
    assert isinstance(stats.ref_len, Fraction)


def test_token_sequences_mixed_with_strings() -> None:
    hyps, refs = random_corpus(11)
    mixed_h = [h.split() if i % 3 == 0 else h for i, h in enumerate(hyps)]
    mixed_r = [[r.split() if j % 2 else r for j, r in enumerate(rs)] for rs in refs]
    for lowercase in CHOICES["lowercase"]:
        _check(mixed_h, mixed_r, make_config({"tokenize": "13a", "lowercase": lowercase}))


def test_streaming_iterators_and_chunk_sizes() -> None:
    hyps, refs = random_corpus(3, segments=200)
    config = make_config({"tokenize": "13a"})
    expected = sum(_reference(hyps, refs, config), BleuStats.zero(4))
    for limit in (1, 2, 7, 100, 10_000):
        assert fast.corpus_stats(iter(hyps), iter(refs), config, limit=limit) == expected


def test_segments_beyond_the_bit_budget_use_the_reference_counts() -> None:
    rng = random.Random(2)
    vocab = [f"w{i}" for i in range(40)]
    hyps, refs = [], []
    for i in range(30):
        n = 300 if i % 5 == 0 else 12  # long segments exceed 2**bits tokens at max_order 8
        ref = [rng.choice(vocab[:8]) for _ in range(n)]
        hyps.append(" ".join(ref[: n // 2] + [rng.choice(vocab) for _ in range(n // 2)]))
        refs.append([" ".join(ref), " ".join(reversed(ref))])
    for order in (4, 8, 12, 20):
        _check(hyps, refs, make_config({"max_order": order}), limit=60)


def test_last_segment_context_for_nltk_methods_5_to_7() -> None:
    hyps, refs = random_corpus(8)
    for method in ("nltk-method5", "nltk-method6", "nltk-method7"):
        config = get_profile("nltk").resolve({"smoothing": method})
        _check(hyps, refs, config)
        _check(hyps[:1], refs[:1], config)


def test_empty_corpus_and_empty_lines() -> None:
    config = make_config({})
    _check([], [], config)
    _check(["", " ", ""], [[""], ["  "], ["", "a"]], config)


BAD_INPUTS = [
    (["a", "b"], [["a"]]),
    (["a"], [["a"], ["b"]]),
    (["a", None], [["a"], ["b"]]),
    (["a", None], [["a"]]),
    (["a", "b"], [["a"], "b"]),
    (["a", "b"], [["a"], 5]),
    (["a", b"b"], [["a"], ["b"]]),
    (["a", "b"], [["a"], [["b", 3]]]),
    (["a", "b", "c"], [["a"], [], ["c"]]),
    (["a", "b", "c"], [["a"], ["b", "c"], [None]]),
    (["a", "b", "c"], [["a"], [b"x"], []]),
    (["a", ["b", 1], "c"], [["a"], ["b"], []]),
    (["a", ["b", 1]], [[], [b"x"]]),
]


@pytest.mark.parametrize(("hyps", "refs"), BAD_INPUTS)
@pytest.mark.parametrize("ref_length", ["closest", "single"])
def test_errors_match_the_reference_path(hyps, refs, ref_length: str) -> None:
    config = make_config({"ref_length": ref_length})
    with pytest.raises(InputError) as expected:
        _reference(hyps, refs, config)
    for limit in (1, 100):
        with pytest.raises(InputError) as got:
            fast.corpus_stats(hyps, refs, config, limit=limit)
        assert str(got.value) == str(expected.value)


def _outcome(statistics) -> BleuStats | str:
    try:
        return statistics()
    except InputError as exc:
        return f"InputError: {exc}"


@pytest.mark.parametrize(("hyps", "refs"), BAD_INPUTS)
@pytest.mark.parametrize("ref_length", ["closest", "single"])
@pytest.mark.parametrize("missing_refs", ["len-9999", "len-minus-1"])
def test_outcomes_match_the_reference_path_when_references_may_be_missing(
    hyps, refs, ref_length: str, missing_refs: str
) -> None:
    config = make_config({"ref_length": ref_length, "missing_refs": missing_refs})
    expected = _outcome(lambda: sum(_reference(hyps, refs, config), BleuStats.zero(4)))
    for limit in (1, 100):
        assert _outcome(partial(fast.corpus_stats, hyps, refs, config, limit=limit)) == expected


TOKENS = st.sampled_from(["a", "b", "c", "A", "a.", "1,5", "σ", "Σ", "-", "&amp;"])
LINES = st.lists(TOKENS, max_size=12).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(LINES, st.lists(LINES, min_size=1, max_size=5)), max_size=12),
    st.sampled_from(CHOICES["tokenize"]),
    st.sampled_from(CHOICES["lowercase"]),
    st.sampled_from(["closest", "closest-first", "shortest", "average"]),
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=1, max_value=9),
)
def test_property_fast_equals_reference(
    spm_model, pairs, tokenize, lowercase, ref_length, order, limit
):
    config = make_config(
        {
            "tokenize": tokenize,
            "lowercase": lowercase,
            "ref_length": ref_length,
            "max_order": order,
            "spm_model": spm_model if tokenize in SPM_MODELS else None,
        }
    )
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    _check(hyps, refs, config, limit=limit)
    for hyp, ref_list in pairs:
        assert fast.sentence_stats(hyp, ref_list, config) == corpus_stats([hyp], [ref_list], config)


@pytest.mark.parametrize("stage", CHOICES["lowercase_stage"])
@pytest.mark.parametrize("tokenize", CHOICES["tokenize"])
def test_lowercase_stages(stage: str, tokenize: str, request: pytest.FixtureRequest) -> None:
    hyps, refs = random_corpus(zlib.crc32(f"{stage}|{tokenize}".encode()) % 1000)
    mixed_h = [h.split() if i % 5 == 0 else h for i, h in enumerate(hyps)]
    model = request.getfixturevalue("spm_model") if tokenize in SPM_MODELS else None
    for lowercase in CHOICES["lowercase"]:
        config = make_config(
            {
                "tokenize": tokenize,
                "lowercase": lowercase,
                "lowercase_stage": stage,
                "spm_model": model,
            }
        )
        _check(hyps, refs, config)
        _check(mixed_h, refs, config)


def test_closest_9999_caps_far_references_on_every_path() -> None:
    rng = random.Random(9)
    far = " ".join(["w"] * 10_020)
    hyps, refs = [], []
    for i in range(24):
        hyps.append(" ".join(["w"] * rng.choice([0, 1, 20, 10_019])))
        refs.append([far, "w w"][: 1 + i % 2] if i % 3 else [far])
    config = make_config({"ref_length": "closest-9999", "missing_refs": "len-9999"})
    _check(hyps, refs, config, limit=10**6)  # uniform chunks: the vectorised rule
    _check(hyps, refs, config, limit=5)
    _check(hyps, [r[:1] for r in refs], config, limit=10**6)


def test_segments_without_references_are_counted() -> None:
    hyps, refs = random_corpus(4, missing=True)
    config = make_config({"missing_refs": "len-9999"})
    stats = fast.corpus_stats(hyps, refs, config, limit=7)
    assert stats.missing == sum(1 for r in refs if not [x for x in (r or []) if x is not None])
    assert stats.missing > 0
