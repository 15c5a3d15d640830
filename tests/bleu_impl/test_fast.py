"""Differential tests: the fast path's statistics equal the reference path's, exactly.

Seeded random corpora with empty lines, Unicode (final sigma, NBSP, U+001C), repeated
n-grams, up to 6 references per segment and missing references, under every tokenizer,
split, lowercase, line_prep, ref_length and denominator_floor value; chunk sizes small
enough to cut corpora into many chunks; error messages compared too.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_impl import BleuStats, InputError, get_profile, score_stats, sentence_bleu
from bleu_impl._fast import fast_corpus_stats, fast_segment_stats, supports
from bleu_impl._fastsent import sentence_stats
from bleu_impl.api import corpus_stats, iter_segment_stats
from bleu_impl.knobs import CHOICES, Config, make_config
from bleu_impl.profiles import resolve_cached
from bleu_impl.tokenizers import Pipeline, make_tokenizer
from bleu_impl.tokenizers.tok13a import tokenize_13a
from bleu_impl.tokenizers.tok13a_batch import tokenize_13a_batch

from .randomcorpus import WORDS, random_corpus, random_line


def _reference(hyps, refs, config) -> list[BleuStats]:
    return list(iter_segment_stats(hyps, refs, config))


def _check(hyps, refs, config, limit: int = 13) -> None:
    expected = _reference(hyps, refs, config)
    assert list(fast_segment_stats(hyps, refs, config, limit=limit)) == expected
    total = sum(expected, BleuStats.zero(config.max_order))
    got = fast_corpus_stats(hyps, refs, config, limit=limit)
    assert got == total
    assert type(got.ref_len) is type(total.ref_len)
    assert corpus_stats(hyps, refs, config) == total


TOKENIZE_SPLIT = list(itertools.product(CHOICES["tokenize"], CHOICES["split"]))


@pytest.mark.parametrize(("tokenize", "split"), TOKENIZE_SPLIT)
@pytest.mark.parametrize("lowercase", CHOICES["lowercase"])
def test_tokenizers_splits_casing(tokenize: str, split: str, lowercase) -> None:
    hyps, refs = random_corpus(hash((tokenize, split, str(lowercase))) % 1000)
    for line_prep in CHOICES["line_prep"]:
        config = make_config(
            {"tokenize": tokenize, "split": split, "lowercase": lowercase, "line_prep": line_prep}
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


def test_average_reference_length_is_an_exact_fraction() -> None:
    hyps, refs = ["a b c", "a"], [["a b", "a b c d"], ["a", "b c", "d e f g"]]
    stats = fast_corpus_stats(hyps, refs, make_config({"ref_length": "average"}))
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
        assert fast_corpus_stats(iter(hyps), iter(refs), config, limit=limit) == expected


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
]


@pytest.mark.parametrize(("hyps", "refs"), BAD_INPUTS)
@pytest.mark.parametrize("ref_length", ["closest", "single"])
def test_errors_match_the_reference_path(hyps, refs, ref_length: str) -> None:
    config = make_config({"ref_length": ref_length})
    with pytest.raises(InputError) as expected:
        _reference(hyps, refs, config)
    for limit in (1, 100):
        with pytest.raises(InputError) as got:
            fast_corpus_stats(hyps, refs, config, limit=limit)
        assert str(got.value) == str(expected.value)


def test_13a_batch_equals_13a_on_every_short_string() -> None:
    alphabet = ["1", "a", ".", ",", "-", " ", "&quot;", "&amp;", '"', "\n", "<skipped>", "\x00"]
    lines = ["".join(p) for n in range(5) for p in itertools.product(alphabet, repeat=n)]
    got = tokenize_13a_batch(lines)
    assert [g.split() for g in got] == [tokenize_13a(line).split() for line in lines]


def test_13a_batch_random_long_lines_and_placeholders_in_text() -> None:
    rng = random.Random(13)
    pieces = ["1", "2", "a", ".", ",", "..", "-", " ", "\u00a0", "\x00", "\x01", "\ue000"]
    lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    lines.append("".join(["\x00", "\x01", "\x02", "\x03", "\ue000", "\ue001", "\ufdd0", "1.2"]))
    got = tokenize_13a_batch(lines)
    assert [g.split() for g in got] == [tokenize_13a(line).split() for line in lines]


@pytest.mark.parametrize("config_knobs", [{}, {"tokenize": "13a", "lowercase": "unicode"}])
def test_batch_and_line_tokenizers_equal_make_tokenizer(config_knobs) -> None:
    hyps, _ = random_corpus(21, segments=200)
    for split, line_prep in itertools.product(CHOICES["split"], CHOICES["line_prep"]):
        config = make_config({**config_knobs, "split": split, "line_prep": line_prep})
        reference = [list(make_tokenizer(config)(h)) for h in hyps]
        assert Pipeline(config).batch(hyps) == reference
        assert [Pipeline(config).line(h) for h in hyps] == reference


@pytest.mark.parametrize(
    "knobs",
    [
        {},
        {"tokenize": "13a", "ref_length": "closest-first"},
        {"tokenize": "intl", "lowercase": "unicode", "denominator_floor": "per-segment"},
        {"ref_length": "average", "max_order": 2},
        {"missing_refs": "len-9999"},
    ],
)
def test_sentence_path_equals_reference(knobs) -> None:
    hyps, refs = random_corpus(4, missing="missing_refs" in knobs)
    config = make_config(knobs)
    for hyp, ref_list in zip(hyps, refs):
        assert sentence_stats(hyp, ref_list, config) == corpus_stats([hyp], [ref_list], config)
        expected = next(iter(iter_segment_stats([hyp], [ref_list], config)))
        assert sentence_stats(hyp, ref_list, config) == expected


def test_sentence_bleu_results_unchanged() -> None:
    hyps, refs = random_corpus(9)
    for profile in ("sacrebleu", "nltk", "papineni2002"):
        prof = get_profile(profile)
        config = prof.resolve({}, "sentence")
        for hyp, ref_list in zip(hyps, refs):
            stats = next(iter(iter_segment_stats([hyp], [ref_list], config)))
            want = score_stats(stats, profile=prof, config=config)
            assert sentence_bleu(hyp, ref_list, profile=profile) == want


def test_sentence_path_errors_match() -> None:
    config = make_config({})
    for hyp, refs in [(None, ["a"]), ("a", "a"), ("a", []), ("a", [b"x"]), (["a", 2], ["a"])]:
        with pytest.raises(InputError) as expected:
            _reference([hyp], [refs], config)
        with pytest.raises(InputError) as got:
            sentence_stats(hyp, refs, config)
        assert str(got.value) == str(expected.value)


def test_resolve_cache_returns_the_resolved_config() -> None:
    prof = get_profile("nltk")
    for knobs in ({}, {"tokenize": "13a"}, {"weights": [0.5, 0.5]}, {"weights": (0.5, 0.5)}):
        assert resolve_cached(prof, knobs, "sentence") == prof.resolve(knobs, "sentence")
        assert resolve_cached(prof, knobs, "sentence") == prof.resolve(knobs, "sentence")


def test_unknown_knobs_fall_back_to_the_reference_path() -> None:
    assert supports(get_profile("nltk").resolve({"tokenize": "13a", "smoothing": "nltk-method7"}))
    extended = dataclasses.make_dataclass(
        "Extended", [("new_knob", str, "x")], bases=(Config,), frozen=True
    )
    config = extended()
    assert not supports(config)
    hyps, refs = random_corpus(1)
    assert corpus_stats(hyps, refs, config) == sum(
        _reference(hyps, refs, config), BleuStats.zero(4)
    )


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
def test_property_fast_equals_reference(pairs, tokenize, lowercase, ref_length, order, limit):
    config = make_config(
        {"tokenize": tokenize, "lowercase": lowercase, "ref_length": ref_length, "max_order": order}
    )
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    _check(hyps, refs, config, limit=limit)
    for hyp, ref_list in pairs:
        assert sentence_stats(hyp, ref_list, config) == corpus_stats([hyp], [ref_list], config)
