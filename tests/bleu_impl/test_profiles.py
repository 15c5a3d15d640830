"""Profile resolution: defaults, flag rules, explicit knobs winning, errors and signatures."""

from __future__ import annotations

import math

import pytest

import bleu_impl
from bleu_impl import PROFILES, KnobError
from bleu_impl.knobs import KNOB_NAMES
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
    # a knob the script has no option for is refused, not silently emulated -- unless it is
    # set to what the script does anyway with its other options
    with pytest.raises(bleu_impl.KnobError, match="no option for knob 'absent_order'"):
        bleu_impl.get_profile("mteval-v13a").resolve({"smoothing": "none", "absent_order": "one"})
    same = bleu_impl.get_profile("mteval-v13a").resolve(
        {"smoothing": "none", "absent_order": "zero"}
    )
    assert same == config


def test_emulation_profiles_refuse_what_their_tool_cannot_do() -> None:
    """Each profile names its tool's options; others are refused with a way forward."""
    with pytest.raises(KnobError) as error:
        bleu_impl.sentence_bleu("a b c d", ["a b c d"], profile="mteval-v13a", weights=[1, 1, 1, 1])
    message = str(error.value)
    assert "no option for knob 'weights'" in message and "-c" in message
    assert "profile='papineni2002'" in message
    with pytest.raises(KnobError, match="takes nist, none"):
        bleu_impl.corpus_bleu(["a"], [["a"]], profile="mteval-v13a", smoothing="exp")
    # what the tool does anyway is not a new setting
    assert bleu_impl.corpus_bleu(["a b"], [["a b"]], profile="nltk", tokenize="none").score > 0
    # the generic profile varies anything; the tool's knobs are a starting point
    knobs = {**bleu_impl.get_profile("mteval-v13a").resolve({}).as_dict(), "weights": [1, 0, 0, 0]}
    assert bleu_impl.corpus_bleu(["a b"], [["a b"]], profile="papineni2002", **knobs).score == 1.0
    for profile in PROFILES.values():
        assert profile.options is None or all(k in KNOB_NAMES for k in profile.options)


def test_an_explicit_knob_wins_over_a_rule() -> None:
    profile = bleu_impl.get_profile("sacrebleu")
    assert profile.resolve({}, "sentence").effective_order is True
    assert profile.resolve({"effective_order": False}, "sentence").effective_order is False


def test_sacrebleu_sentence_level_uses_effective_order() -> None:
    profile = bleu_impl.get_profile("sacrebleu")
    assert profile.resolve({}, "sentence").effective_order is True
    assert profile.resolve({}, "corpus").effective_order is False
    assert profile.resolve({"effective_order": False}, "sentence").absent_order == "zero"


def test_signature_names_profile_and_every_knob() -> None:
    config = bleu_impl.get_profile("sacrebleu").resolve({})
    sig = signature("sacrebleu", config)
    assert sig.startswith("profile:sacrebleu|")
    assert len(sig.split("|")) == len(KNOB_NAMES) + 2
    assert "tok:13a" in sig and "smooth:exp" in sig and "scale:100" in sig


def test_signature_is_stable_and_distinguishes_configs() -> None:
    a = bleu_impl.corpus_bleu(["a b"], [["a b"]], profile="nltk")
    b = bleu_impl.corpus_bleu(["a b"], [["a b"]], profile="nltk")
    c = bleu_impl.corpus_bleu(["a b"], [["a b"]], profile="nltk", smoothing="nltk-method3")
    assert a.signature == b.signature != c.signature


def test_nltk_before_3_6_method4_reads_i_plus_k_over_ln_c() -> None:
    """NLTK 3.2.2-3.5 compute ``incvnt = i+1 * k / math.log(c)`` = (n-1) + K/ln c; 3.3-3.4.5
    use 1/incvnt, 3.5 incvnt/l. "a b c" vs "a x y": orders 2 and 3 have no match, c = 3."""

    def precisions(profile: str) -> list[float | None]:
        result = bleu_impl.sentence_bleu(
            "a b c", ["a x y"], profile=profile, max_order=3, smoothing="nltk-method4"
        )
        return [p.as_float for p in result.orders]

    incvnt = [1 + 5 / math.log(3), 2 + 5 / math.log(3)]
    assert precisions("nltk-3.3")[1:] == [1 / incvnt[0], 1 / incvnt[1]]
    assert precisions("nltk-3.5")[1:] == [incvnt[0] / 2, incvnt[1] / 1]
    with pytest.raises(bleu_impl.EmulatedFailure, match="ln 1"):  # one token: ln 1 = 0
        bleu_impl.sentence_bleu("a", ["a b"], profile="nltk-3.5", smoothing="nltk-method4")
    with pytest.raises(bleu_impl.EmulatedFailure, match="math domain"):  # 0 reaches math.log
        bleu_impl.sentence_bleu("a", ["a b"], profile="nltk-3.6", smoothing="nltk-method4")


def test_resolve_cache_returns_the_resolved_config() -> None:
    prof = bleu_impl.get_profile("nltk")
    variants = ({}, {"smoothing": "nltk-method3"}, {"weights": [0.5, 0.5]}, {"weights": (0.5, 0.5)})
    for knobs in variants:
        assert resolve_cached(prof, knobs, "sentence") == prof.resolve(knobs, "sentence")
        assert resolve_cached(prof, knobs, "sentence") == prof.resolve(knobs, "sentence")
