"""Profiles checked against published numbers (each with its source) and live libraries.

Tolerances: the source's own (tensor2tensor's tests use atol 1e-3); a printed float repr is
matched to 1e-12 relative; live libraries to 1e-9 (float64) or 1e-6 (torchmetrics computes in
float32, whose rounding error over ~10 operations stays below 1e-6 relative).
"""

from __future__ import annotations

import math
import random

import pytest

import bleu_impl
from bleu_impl import EmulatedFailure

from .randomcorpus import corpus

# Papineni et al. (2002), Example 1: references R1-R3 and candidates C1, C2.
PAPER_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the "
    "command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]
PAPER_C1 = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
PAPER_C2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
SHIP_REFS = ["this is a ship", "it is ship", "ship it is", "a ship, it is"]


@pytest.mark.parametrize(
    ("hypothesis", "expected"),
    [
        # seed 000 ("Introduction to BLEU in Python"), NLTK sentence_bleu of the 3.2.x era
        ("it is ship", 1.0),
        ("it is a ship", 0.8408964152537145),
        ("it", 0.1353352832366127),
        ("it it it it it it it", 0.6147881529512643),
        ("it a b c d e f g h i j k l m n", 0.6042750794713536),
        ("ship ship ship", 0.7598356856515925),
        ("it ship", 0.6065306597126334),
    ],
)
def test_nltk_322_reproduces_seed_000(hypothesis: str, expected: float) -> None:
    refs = [r.split() for r in SHIP_REFS]
    got = bleu_impl.sentence_bleu(hypothesis.split(), refs, profile="nltk-3.2.2")
    assert math.isclose(got.score, expected, rel_tol=1e-12)


def test_nltk_322_seed_003_foo_bar_and_the_the_the() -> None:
    """seed 003: NLTK (3.2.x) gives 1.0 for 'foo bar' vs itself and 0.7311104457090247 for
    'the the the the the the the' vs the paper's two references."""
    assert (
        bleu_impl.sentence_bleu(["foo", "bar"], [["foo", "bar"]], profile="nltk-3.2.2").score == 1.0
    )
    hyp = ["the"] * 7
    refs = [
        ["the", "cat", "is", "on", "the", "mat"],
        ["there", "is", "a", "cat", "on", "the", "mat"],
    ]
    got = bleu_impl.sentence_bleu(hyp, refs, profile="nltk-3.2.2").score
    assert math.isclose(got, 0.7311104457090247, rel_tol=1e-12)


def test_nltk_seed_004_weights() -> None:
    """seed 004: sentence_bleu(rt, c, weights=(.5, .5, 0, 0)) on lowercased paper sentences."""
    rt = [r.lower().split() for r in PAPER_REFS]
    c1, c2 = PAPER_C1, PAPER_C2
    for cand, expected in ((c1, 0.7453559924999299), (c2, 0.18174699151949172)):
        got = bleu_impl.sentence_bleu(
            cand.lower().split(), rt, profile="nltk", weights=(0.5, 0.5, 0, 0)
        )
        assert math.isclose(got.score, expected, rel_tol=1e-12)


# tensor2tensor/utils/bleu_hook_test.py (token ids as strings; the test's atol=1e-3)
T2T_CASES = [
    ([[1, 2, 3]], [[1, 2, 3]], 1.0),
    ([[5, 6, 7, 8]], [[1, 2, 3, 4]], 0.0798679),
    ([[1, 2, 3, 4], [5, 6, 7, 10]], [[1, 2, 3, 4], [5, 6, 7, 0]], 0.7231),
    ([[1, 2, 1, 13], [12, 6, 7, 4, 8, 9, 10]], [[1, 2, 1, 3], [5, 6, 7, 4]], 0.3436),
]


@pytest.mark.parametrize(("references", "translations", "expected"), T2T_CASES)
def test_tensor2tensor_published_tests(references, translations, expected) -> None:
    hyps = [[str(t) for t in h] for h in translations]
    refs = [[[str(t) for t in r]] for r in references]
    got = bleu_impl.corpus_bleu(hyps, refs, profile="tensor2tensor")
    assert math.isclose(got.score, expected, abs_tol=1e-3)
    assert got.score == float(__import__("numpy").float32(got.score))  # float32 result


def test_tensor2tensor_rejects_several_references() -> None:
    with pytest.raises(bleu_impl.InputError, match="exactly one reference"):
        bleu_impl.corpus_bleu(["a b"], [["a b", "a c"]], profile="tensor2tensor")


def test_google_nmt_hf_evaluate_card_example() -> None:
    """HF evaluate 'bleu' (tf/nmt compute_bleu + 13a): the card's example, as quoted in the
    bleuscore 0.2.0 README: bleu 1.0, length_ratio 1.1666666666666667, 7 / 6 (shortest ref)."""
    preds = ["hello there general kenobi", "foo bar foobar"]
    refs = [["hello there general kenobi", "hello there !"], ["foo bar foobar"]]
    got = bleu_impl.corpus_bleu(preds, refs, profile="google-nmt")
    assert got.score == 1.0
    assert (got.hyp_len, got.ref_len) == (7, 6)
    assert got.ratio == 1.1666666666666667


def test_google_nmt_default_is_hf_evaluate_on_raw_text() -> None:
    """Called the usual way (raw strings, no tokenizer argument) HF evaluate 'bleu' splits
    punctuation with 13a: whitespace splitting would leave 3 tokens and no 4-gram (BLEU 0)."""
    bleuscore = pytest.importorskip("bleuscore")
    preds = ["kenobi, hello there!", "the cat sat on the mat."]
    refs = [["kenobi , hello there !"], ["the cat is on the mat ."]]
    theirs = bleuscore.compute(references=refs, predictions=preds)["bleu"]
    ours = bleu_impl.corpus_bleu(preds, refs, profile="google-nmt")
    assert theirs > 0.5
    assert math.isclose(ours.score, theirs, rel_tol=1e-9)
    assert bleu_impl.corpus_bleu(preds[:1], refs[:1], profile="google-nmt").score == 1.0


@pytest.mark.parametrize(
    ("hyp", "ref", "kind"), [("", "a b", "empty-hypothesis"), ("a b", "", "empty-reference")]
)
def test_google_nmt_raises_like_zero_division(hyp: str, ref: str, kind: str) -> None:
    with pytest.raises(EmulatedFailure) as failure:
        bleu_impl.corpus_bleu([hyp], [[ref]], profile="google-nmt")
    assert failure.value.kind == kind
    assert "ZeroDivisionError" in str(failure.value)


@pytest.mark.parametrize("seed", range(60))
def test_google_nmt_matches_bleuscore_live(seed: int) -> None:
    """bleuscore 0.2.0 equals HF/tf-nmt bit for bit with its defaults, and so does the
    profile with its own: raw text is 13a-tokenized, as HF evaluate 'bleu' does by default
    (the random words carry punctuation that 13a splits off, e.g. 'end.', 'a,b', '$5')."""
    bleuscore = pytest.importorskip("bleuscore")
    rng = random.Random(seed)
    hyps, refs = corpus(rng, rng.randint(1, 5), allow_empty=False)
    preds = [" ".join(h) for h in hyps]
    references = [[" ".join(r) for r in rs] for rs in refs]
    smooth = rng.random() < 0.5
    order = rng.choice([1, 2, 3, 4])
    theirs = bleuscore.compute(
        references=references, predictions=preds, max_order=order, smooth=smooth
    )
    ours = bleu_impl.corpus_bleu(
        preds,
        references,
        profile="google-nmt",
        max_order=order,
        smoothing="add-one" if smooth else "none",
    )
    assert math.isclose(ours.score, theirs["bleu"], rel_tol=1e-9, abs_tol=1e-300)
    assert (ours.hyp_len, ours.ref_len) == (
        theirs["translation_length"],
        theirs["reference_length"],
    )


@pytest.mark.parametrize("seed", range(60))
def test_torchmetrics_matches_live(seed: int) -> None:
    tm = pytest.importorskip("torchmetrics.functional.text")
    rng = random.Random(500 + seed)
    hyps, refs = corpus(rng, rng.randint(1, 5), allow_empty=False)
    preds = [" ".join(h) for h in hyps]
    target = [[" ".join(r) for r in rs] for rs in refs]
    smooth = rng.random() < 0.5
    order = rng.choice([2, 3, 4])
    theirs = float(tm.bleu_score(preds, target, n_gram=order, smooth=smooth))
    ours = bleu_impl.corpus_bleu(
        preds,
        target,
        profile="torchmetrics",
        max_order=order,
        smoothing="add-k" if smooth else "none",
    )
    assert math.isclose(ours.score, theirs, rel_tol=1e-6, abs_tol=0.0), (ours.score, theirs)


def test_torchmetrics_ties_go_to_first_listed_reference() -> None:
    """torchmetrics picks index(min(diffs)); closest-first differs from closest on a tie."""
    ours = bleu_impl.corpus_bleu(
        ["a b c d e f g h i j k l"],
        [["a " * 12 + "x", "a b c d e f g h i j k"]],
        profile="torchmetrics",
    )
    assert ours.ref_len == 13
    paper = bleu_impl.corpus_bleu(
        ["a b c d e f g h i j k l"], [["a " * 12 + "x", "a b c d e f g h i j k"]]
    )
    assert paper.ref_len == 11


def test_papineni_worked_examples() -> None:
    """Paper section 2.1: C1 17/18 and 10/17; C2 8/14 and 1/13; 'the'x7 2/7 (lowercased)."""
    r, c1, c2 = PAPER_REFS, PAPER_C1, PAPER_C2
    res1 = bleu_impl.sentence_bleu(c1, r)
    res2 = bleu_impl.sentence_bleu(c2, r)
    assert (res1.counts[:2], res1.totals[:2]) == ((17, 10), (18, 17))
    assert (res2.counts[:2], res2.totals[:2]) == ((8, 1), (14, 13))
    the = bleu_impl.sentence_bleu(
        "the the the the the the the",
        ["The cat is on the mat", "There is a cat on the mat"],
        lowercase="ascii",
    )
    assert (the.counts[0], the.totals[0]) == (2, 7)
    cased = bleu_impl.sentence_bleu(
        "the the the the the the the", ["The cat is on the mat", "There is a cat on the mat"]
    )
    assert (cased.counts[0], cased.totals[0]) == (1, 7)
    of_the = bleu_impl.sentence_bleu("of the", r)
    assert (of_the.counts[:2], of_the.totals[:2]) == ((2, 1), (2, 1))
