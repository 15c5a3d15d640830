"""Profile ``nltk`` against live NLTK 3.10.x on seeded random inputs, all 8 smoothing methods.

Agreement is required to 1e-9 relative (both sides use the same exact integer statistics; the
float paths differ only in summation order). Where NLTK raises, bleu_impl must raise too.
"""

from __future__ import annotations

import math
import random
import warnings

import pytest

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

import bleu_impl  # noqa: E402
from bleu_impl import BleuError  # noqa: E402

from .randomcorpus import corpus  # noqa: E402

METHODS = range(8)


def nltk_corpus(hyps, refs, method, **kw):
    fn = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nltk_bleu.corpus_bleu(refs, hyps, smoothing_function=fn, **kw)


def ours_corpus(hyps, refs, method, **kw):
    return bleu_impl.corpus_bleu(hyps, refs, profile="nltk", smoothing=f"nltk-method{method}", **kw)


def assert_same(hyps, refs, method, **kw):
    try:
        expected = nltk_corpus(hyps, refs, method, **kw)
    except (AssertionError, IndexError, ValueError, ZeroDivisionError) as exc:
        with pytest.raises(BleuError):
            ours_corpus(hyps, refs, method, **kw)
        return type(exc).__name__
    got = ours_corpus(hyps, refs, method, **kw).score
    assert math.isclose(got, float(expected), rel_tol=1e-9, abs_tol=0.0), (
        f"method{method}: ours {got!r} nltk {expected!r}\nhyps={hyps}\nrefs={refs}"
    )
    return "ok"


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", range(40))
def test_corpus_bleu_matches_nltk(method: int, seed: int) -> None:
    rng = random.Random(seed * 8 + method)
    hyps, refs = corpus(rng, rng.randint(1, 5))
    assert_same(hyps, refs, method)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", range(40))
def test_sentence_bleu_matches_nltk(method: int, seed: int) -> None:
    rng = random.Random(10_000 + seed * 8 + method)
    hyps, refs = corpus(rng, 1)
    fn = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = nltk_bleu.sentence_bleu(refs[0], hyps[0], smoothing_function=fn)
    except (AssertionError, IndexError, ValueError, ZeroDivisionError):
        with pytest.raises(BleuError):
            bleu_impl.sentence_bleu(
                hyps[0], refs[0], profile="nltk", smoothing=f"nltk-method{method}"
            )
        return
    got = bleu_impl.sentence_bleu(
        hyps[0], refs[0], profile="nltk", smoothing=f"nltk-method{method}"
    )
    assert math.isclose(got.score, float(expected), rel_tol=1e-9)


@pytest.mark.parametrize("seed", range(30))
def test_weights_and_auto_reweigh_match_nltk(seed: int) -> None:
    rng = random.Random(20_000 + seed)
    hyps, refs = corpus(rng, rng.randint(1, 3))
    weights = rng.choice([(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (0.1, 0.3, 0.5, 0.1), (1.0,)])
    method = rng.choice([0, 1, 3, 4])
    assert_same(hyps, refs, method, weights=weights, auto_reweigh=rng.random() < 0.5)


def test_nltk_smoothing_parameters_are_honoured() -> None:
    rng = random.Random(7)
    hyps, refs = corpus(rng, 4, allow_empty=False)
    for method, params in [(1, {"epsilon": 0.3}), (4, {"k": 3}), (6, {"alpha": 2})]:
        fn = getattr(nltk_bleu.SmoothingFunction(**params), f"method{method}")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = nltk_bleu.corpus_bleu(refs, hyps, smoothing_function=fn)
        except AssertionError:
            continue
        got = bleu_impl.corpus_bleu(
            hyps, refs, profile="nltk", smoothing=f"nltk-method{method}", **params
        )
        assert math.isclose(got.score, expected, rel_tol=1e-9)


def test_brevity_penalty_with_both_lengths_zero_matches_nltk() -> None:
    """NLTK tests ``c > r`` and then ``c == 0``: BP 0 when both lengths are 0."""
    expected = nltk_bleu.brevity_penalty(0, 0)
    ours = bleu_impl.corpus_bleu([[]], [[[]]], profile="nltk")
    assert ours.bp == expected == 0
