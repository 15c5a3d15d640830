"""Profile resolution: defaults, flag rules, explicit knobs winning, errors and signatures."""

from __future__ import annotations

import pytest

import bleu_impl
from bleu_impl import PROFILES, KnobError
from bleu_impl.profiles import resolve_cached
from bleu_impl.signature import signature


def test_issue_profiles_exist() -> None:
    assert {
        "papineni2002",
        "mteval-v13a",
        "mteval-v14",
        "multi-bleu",
        "multi-bleu-detok",
        "nltk",
        "nltk-3.2.2",
        "sacrebleu",
        "google-nmt",
        "torchmetrics",
        "tensor2tensor",
    } <= set(PROFILES)


def test_unknown_profile_lists_profiles() -> None:
    with pytest.raises(KnobError) as err:
        bleu_impl.get_profile("mteval")
    assert "mteval-v13a" in str(err.value) and "sacrebleu" in str(err.value)


def test_mteval_no_smoothing_rule() -> None:
    config = bleu_impl.get_profile("mteval-v13a").resolve({"smoothing": "none"})
    assert (config.early_zero, config.absent_order, config.empty_hyp) == (
        "any-zero-order",
        "zero",
        "bp-zero",
    )
    explicit = bleu_impl.get_profile("mteval-v13a").resolve(
        {"smoothing": "none", "absent_order": "one"}
    )
    assert explicit.absent_order == "one"


def test_sacrebleu_sentence_level_uses_effective_order() -> None:
    profile = bleu_impl.get_profile("sacrebleu")
    assert profile.resolve({}, "sentence").effective_order is True
    assert profile.resolve({}, "corpus").effective_order is False
    assert profile.resolve({"effective_order": False}, "sentence").absent_order == "zero"


def test_signature_names_profile_and_every_knob() -> None:
    config = bleu_impl.get_profile("sacrebleu").resolve({})
    sig = signature("sacrebleu", config)
    assert sig.startswith("profile:sacrebleu|")
    assert len(sig.split("|")) == len(bleu_impl.KNOB_NAMES) + 2
    assert "tok:13a" in sig and "smooth:exp" in sig and "scale:100" in sig


def test_signature_is_stable_and_distinguishes_configs() -> None:
    a = bleu_impl.corpus_bleu(["a b"], [["a b"]], profile="nltk")
    b = bleu_impl.corpus_bleu(["a b"], [["a b"]], profile="nltk")
    c = bleu_impl.corpus_bleu(["a b"], [["a b"]], profile="nltk", smoothing="nltk-method3")
    assert a.signature == b.signature != c.signature


def test_nltk_322_refuses_methods_it_does_not_emulate() -> None:
    with pytest.raises(KnobError, match=r"nltk-3\.2\.2"):
        bleu_impl.get_profile("nltk-3.2.2").resolve({"smoothing": "nltk-method4"})


def test_resolve_cache_returns_the_resolved_config() -> None:
    prof = bleu_impl.get_profile("nltk")
    for knobs in ({}, {"tokenize": "13a"}, {"weights": [0.5, 0.5]}, {"weights": (0.5, 0.5)}):
        assert resolve_cached(prof, knobs, "sentence") == prof.resolve(knobs, "sentence")
        assert resolve_cached(prof, knobs, "sentence") == prof.resolve(knobs, "sentence")
