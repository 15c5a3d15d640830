"""The Python result reads like sacrebleu's: ``str`` is sacrebleu's line (live sacrebleu
2.6.0), ``scaled_score`` its ``.score``, ``to_dict()`` is JSON; sacrebleu's reference shape
gets an error that says it is transposed; ``corpus_stats`` takes a profile; and the
docstrings' examples run (doctest)."""

from __future__ import annotations

import doctest
import importlib
import json

import pytest

import bleu_impl

HYPS = ["The cat sat on the mat.", "Hello, world.", "It rained all day long."]
STREAMS = [
    ["The cat is on the mat.", "Hello world!", "It was raining all day."],
    ["There is a cat on the mat.", "Hello, world !", "All day long it rained."],
]
REFS = [list(r) for r in zip(*STREAMS)]  # bleu_impl's shape: REFS[i] = segment i's references


@pytest.mark.parametrize("knobs", [{}, {"lowercase": True}, {"smoothing": "floor"}])
def test_str_and_scaled_score_are_sacrebleus(knobs) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    ours = bleu_impl.corpus_bleu(HYPS, REFS, profile="sacrebleu", **knobs)
    theirs = sacrebleu.corpus_bleu(
        HYPS,
        STREAMS,
        lowercase=bool(knobs.get("lowercase")),
        smooth_method=knobs.get("smoothing", "exp"),
    )
    assert str(ours) == str(theirs)
    assert ours.scaled_score == pytest.approx(theirs.score, abs=1e-9)
    assert 0 <= ours.score <= 1 and ours.score == pytest.approx(theirs.score / 100, abs=1e-11)


def test_sentence_str_is_sacrebleus() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    ours = bleu_impl.sentence_bleu(HYPS[1], REFS[1], profile="sacrebleu")
    assert str(ours) == str(sacrebleu.sentence_bleu(HYPS[1], REFS[1]))


def test_a_0_to_1_profile_prints_its_scale() -> None:
    """papineni2002 prints 0..1 with four decimals: a 0..100 reader sees the leading 0."""
    text = str(bleu_impl.corpus_bleu(HYPS, REFS))
    assert text.startswith("BLEU = 0.") and "\n" not in text


@pytest.mark.parametrize("profile", list(bleu_impl.PROFILES))
def test_every_profiles_result_is_json(profile: str) -> None:
    one_ref = [refs[:1] for refs in REFS]  # tensor2tensor, fairseq, allennlp take one
    result = bleu_impl.corpus_bleu([h.lower() for h in HYPS], one_ref, profile=profile)
    back = json.loads(json.dumps(result.to_dict()))
    assert back["hyp_len"] == result.hyp_len and back["profile"] == profile


@pytest.mark.parametrize("streams", [STREAMS[:1], [*STREAMS, STREAMS[0], STREAMS[1]]])
def test_sacrebleus_shape_is_named_as_transposed(streams) -> None:
    """One stream of 3 lines (the hypotheses run on) and 4 streams of 3 lines (the
    references run on): the error says what the shape is and how to turn it."""
    with pytest.raises(bleu_impl.InputError, match=r"sacrebleu's shape, \d reference stream"):
        bleu_impl.corpus_bleu(HYPS, streams, profile="sacrebleu")


def test_a_plain_length_mismatch_gets_no_transposition_hint() -> None:
    with pytest.raises(bleu_impl.InputError) as info:
        bleu_impl.corpus_bleu(HYPS, [["a"], ["b"]])
    assert "sacrebleu's shape" not in str(info.value)


def test_corpus_stats_takes_a_profile() -> None:
    config = bleu_impl.get_profile("sacrebleu").resolve({"lowercase": True}, "corpus")
    by_profile = bleu_impl.corpus_stats(HYPS, REFS, profile="sacrebleu", lowercase=True)
    assert by_profile == bleu_impl.corpus_stats(HYPS, REFS, config)
    with pytest.raises(TypeError, match="not both"):
        bleu_impl.corpus_stats(HYPS, REFS, config, profile="sacrebleu")


@pytest.mark.parametrize("module", ["bleu_impl.score", "bleu_impl.api", "bleu_impl.signature"])
def test_docstring_examples_run(module: str) -> None:
    results = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0 and results.failed == 0
