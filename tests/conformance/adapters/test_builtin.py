"""The built-in adapters: bleu_impl profiles and the live libraries."""

from __future__ import annotations

import pytest

import bleu_impl
from conformance.adapters import make_adapter
from conformance.adapters.text import to_streams
from conformance.protocol import AdapterError, Request

from ..helpers import mini, run


def test_bleu_impl_profile_checks_the_keys_it_reproduces():
    loaded = mini()
    adapter = make_adapter("bleu_impl:multi-bleu", loaded.keys)
    assert adapter.capabilities.expect[0] == "multi-bleu"
    results = run(adapter)
    assert results["mini.partial"].outcome == "pass"
    assert results["mini.empty-hypothesis"].outcome == "pass"  # EmulatedFailure kind matches


def test_bleu_impl_key_name():
    loaded = mini()
    adapter = make_adapter("bleu_impl:multi-bleu-lc", loaded.keys)
    assert adapter.capabilities.name == "bleu_impl:multi-bleu-lc"
    assert adapter.capabilities.expect == ("multi-bleu-lc",)


def test_nltk_live():
    results = run(make_adapter("nltk"))
    assert results["mini.nltk-method1"].outcome == "pass"
    assert results["mini.nltk-method1"].expect_key == "nltk>=3.3"


def test_nltk_cannot_express_other_semantics():
    results = run(make_adapter("nltk"), expect=("papineni2002",))
    assert results["mini.exact"].outcome == "skip"
    assert "nltk cannot express" in results["mini.exact"].reason


def test_sacrebleu_skips_nltk_smoothing():
    results = run(make_adapter("sacrebleu"), expect=("nltk>=3.3",))
    assert results["mini.nltk-method1"].outcome == "skip"
    assert "smoothing" in results["mini.nltk-method1"].reason


def test_sacrebleu_streams_layout():
    assert to_streams((("a", "b"), ("c",))) == [["a", "c"], ["b", None]]


def test_sacrebleu_answers_on_its_scale():
    adapter = make_adapter("sacrebleu")
    request = Request(
        level="corpus",
        config={"tokenize": "none", "smoothing": "none"},
        hypotheses=("a b c d",),
        references=(("a b c d",),),
    )
    answer = adapter.run(request)
    assert answer.score == pytest.approx(100.0)
    assert answer.counts == (4, 3, 2, 1)


def test_sacrebleu_no_reference_sentinel_is_reported_as_it_is():
    """Live sacrebleu counts an empty hypothesis with no reference as ``ref_len = -1`` (its
    closest-length search starts at -1), which lowers the corpus's reference length; the
    profile reproduces it (``missing_refs="len-minus-1"``), and fails where sacrebleu raises
    (a non-empty hypothesis without a reference: its TypeError)."""
    live = make_adapter("sacrebleu")
    alone = Request(level="corpus", config={}, hypotheses=("",), references=((None, None),))
    answer = live.run(alone)
    assert (answer.failure, answer.score, answer.ref_len) == (None, 0.0, -1)
    hyps = ("the cat sat on the mat", "")
    two = Request(level="corpus", config={}, hypotheses=hyps, references=(("the cat sat",), ()))
    answer = live.run(two)
    ours = bleu_impl.corpus_bleu(list(hyps), [["the cat sat"], []], profile="sacrebleu")
    assert (answer.hyp_len, answer.ref_len) == (ours.hyp_len, ours.ref_len) == (6, 2)
    assert answer.score == pytest.approx(100 * ours.score, rel=1e-12)  # 0-100 vs 0-1
    three = Request(level="corpus", config={}, hypotheses=("a b",), references=((None,),))
    failed = live.run(three).failure
    assert failed is not None and failed.message.startswith("TypeError: argument of type")
    with pytest.raises(bleu_impl.InputError, match="segment 0: no reference"):
        bleu_impl.corpus_bleu(["a b"], [[]], profile="sacrebleu")


def test_unknown_spec_lists_the_choices():
    with pytest.raises(AdapterError) as info:
        make_adapter("definitely-not-an-adapter")
    assert "package.module:function" in str(info.value)


def test_torchmetrics_missing_is_a_clear_error():
    pytest.importorskip(
        "torch", reason="only meaningful when torchmetrics is absent"
    ) if False else None
    try:
        import torchmetrics  # noqa: F401
    except ImportError:
        with pytest.raises(AdapterError) as info:
            make_adapter("torchmetrics")
        assert "not importable" in str(info.value)
