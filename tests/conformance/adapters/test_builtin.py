"""The built-in adapters: bleu_impl profiles and the live libraries."""

from __future__ import annotations

import pytest

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


def test_sacrebleu_no_reference_sentinel_is_a_failure():
    """Live sacrebleu scores an empty hypothesis with no reference as ``ref_len = -1`` (its
    closest-length search starts at -1); the adapter reports that as the tool's failure."""
    request = Request(
        level="corpus", config={}, hypotheses=("",), references=((None, None),)
    )
    answer = make_adapter("sacrebleu").run(request)
    assert answer.failure is not None and answer.failure.kind == "missing-reference"
    assert "ref_len = -1" in answer.failure.message


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
