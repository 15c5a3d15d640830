"""The zoo profiles against the installed libraries on seeded random corpora.

Each test calls the real library (pycocoevalcap 1.2, pytorch-ignite 0.5.5, torcheval 0.0.7,
fast-bleu 0.0.90, torchmetrics 1.9 ``sacre_bleu_score``) and the bleu_impl profile on the same
input. Tolerance: 1e-9 relative where the library computes in float64 (measured: <= 4e-15);
1e-6 relative where it computes in float32 tensors (torcheval, torchmetrics, ignite's
``no_smooth`` sentence precisions; measured: <= 2e-7, ~10 single-precision operations of
6e-8 each). Where the library raises, the profile must raise too.
"""

from __future__ import annotations

import contextlib
import io
import math
import random

import pytest

import bleu_impl
from bleu_impl import BleuError

from .randomcorpus import corpus, random_corpus

FLOAT64, FLOAT32 = 1e-9, 1e-6
SEEDS = range(30)


def _same(library, ours, rel: float) -> None:
    try:
        want = library()
    except Exception:
        with pytest.raises(BleuError):
            ours()
        return
    got = ours().score
    assert math.isclose(got, float(want), rel_tol=rel, abs_tol=0.0), (got, want)


def _joined(hyps, refs):
    return [" ".join(h) for h in hyps], [[" ".join(r) for r in rs] for rs in refs]


@pytest.mark.parametrize("order", [1, 2, 4, 5])  # Bleu(5) raises IndexError: so must coco
@pytest.mark.parametrize("seed", SEEDS)
def test_coco(seed: int, order: int) -> None:
    bleu = pytest.importorskip("pycocoevalcap.bleu.bleu")
    hyps, refs = corpus(random.Random(seed), random.Random(seed).randint(1, 5))
    preds, targets = _joined(hyps, refs)

    def library() -> float:
        with contextlib.redirect_stdout(io.StringIO()):
            score, _ = bleu.Bleu(order).compute_score(
                dict(enumerate(targets)), {i: [p] for i, p in enumerate(preds)}
            )
        return score[order - 1]

    _same(
        library, lambda: bleu_impl.corpus_bleu(hyps, refs, profile="coco", max_order=order), FLOAT64
    )


IGNITE = [
    ("no_smooth", "macro", {}, FLOAT32),
    ("no_smooth", "micro", {"aggregation": "corpus"}, FLOAT64),
    ("smooth1", "macro", {"smoothing": "floor"}, FLOAT64),
    ("smooth1", "micro", {"smoothing": "floor", "aggregation": "corpus"}, FLOAT64),
    ("nltk_smooth2", "macro", {"smoothing": "add-k"}, FLOAT64),
    (
        "smooth2",
        "micro",
        {"smoothing": "add-k", "denominator_floor": "none", "aggregation": "corpus"},
        FLOAT64,
    ),
]


@pytest.mark.parametrize(("smooth", "average", "knobs", "rel"), IGNITE)
@pytest.mark.parametrize("seed", SEEDS)
def test_ignite(seed: int, smooth: str, average: str, knobs: dict, rel: float) -> None:
    nlp = pytest.importorskip("ignite.metrics.nlp")
    rng = random.Random(1000 + seed)
    hyps, refs = corpus(rng, rng.randint(1, 5))
    order = rng.choice([2, 3, 4])

    def library() -> float:
        metric = nlp.Bleu(ngram=order, smooth=smooth, average=average)
        metric.update((hyps, refs))
        return float(metric.compute())

    def ours():
        return bleu_impl.corpus_bleu(hyps, refs, profile="ignite", max_order=order, **knobs)

    _same(library, ours, rel)


@pytest.mark.parametrize("seed", SEEDS)
def test_torcheval(seed: int) -> None:
    functional = pytest.importorskip("torcheval.metrics.functional")
    rng = random.Random(2000 + seed)
    hyps, refs = corpus(rng, rng.randint(1, 5))
    order = rng.choice([1, 2, 3, 4])
    preds, targets = _joined(hyps, refs)

    def library() -> float:
        return float(functional.bleu_score(preds, targets, n_gram=order))

    _same(
        library,
        lambda: bleu_impl.corpus_bleu(preds, targets, profile="torcheval", max_order=order),
        FLOAT32,
    )


@pytest.mark.parametrize("smoothing_func", [0, 1])
@pytest.mark.parametrize("seed", SEEDS)
def test_fast_bleu(seed: int, smoothing_func: int) -> None:
    fast_bleu = pytest.importorskip("fast_bleu")
    rng = random.Random(3000 + seed)
    hyps, refs = corpus(rng, rng.randint(1, 5))
    if rng.random() < 0.4:  # tokens with spaces inside: joined n-gram keys
        hyps = [[" ".join(h[i : i + 2]) for i in range(0, len(h), 2)] for h in hyps]
    order = rng.choice([2, 3, 4])
    pool = [r for rs in refs for r in rs]

    def library() -> float:
        scores = fast_bleu.BLEU(pool, {"k": (1 / order,) * order}, smoothing_func=smoothing_func)
        got = scores.get_score(hyps)["k"]
        return sum(got) / len(got)

    smoothing = "nltk-method1" if smoothing_func else "none"

    def ours():
        return bleu_impl.corpus_bleu(
            hyps, refs, profile="fast-bleu", max_order=order, smoothing=smoothing
        )

    _same(library, ours, FLOAT64)


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "none"])
@pytest.mark.parametrize("seed", range(12))
def test_torchmetrics_sacre_bleu(seed: int, tokenize: str) -> None:
    text = pytest.importorskip("torchmetrics.functional.text")
    hyps, refs = random_corpus(seed, segments=random.Random(seed).randint(1, 6), max_refs=1)

    def library() -> float:
        return float(text.sacre_bleu_score(hyps, refs, tokenize=tokenize))

    def ours():
        return bleu_impl.corpus_bleu(
            hyps, refs, profile="torchmetrics-sacrebleu", tokenize=tokenize
        )

    _same(library, ours, FLOAT32)
