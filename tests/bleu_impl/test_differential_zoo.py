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


#: torchmetrics' tokenizers beyond sacrebleu's defaults -> the module each needs.
TORCHMETRICS_NEEDS = {
    "zh": "torchmetrics",
    "ja-mecab": "MeCab",
    "ko-mecab": "mecab_ko",
    "flores101": "sentencepiece",
    "flores200": "sentencepiece",
}


@pytest.mark.parametrize("tokenize", list(TORCHMETRICS_NEEDS))
@pytest.mark.parametrize("seed", range(8))
def test_torchmetrics_sacre_bleu_languages(
    seed: int, tokenize: str, request, tmp_path, monkeypatch
) -> None:
    """torchmetrics 1.9 ``sacre_bleu_score(tokenize=zh/ja-mecab/ko-mecab/flores101/200)`` on
    multilingual text. The FLORES models it downloads are out of reach offline: the tests'
    trained model is placed where torchmetrics reads them (``_FLORES_LOCAL_DIR``), for both."""
    pytest.importorskip(TORCHMETRICS_NEEDS[tokenize])
    text = pytest.importorskip("torchmetrics.functional.text")
    from tools.fixtures.multilingual import random_corpus as multilingual

    main = {"zh": "zh-hans", "ja-mecab": "ja", "ko-mecab": "ko"}.get(tokenize)
    rng = random.Random(seed)
    hyps, refs = multilingual(seed, rng.randint(1, 6), 1, main)
    knobs: dict = {"tokenize": tokenize, "lowercase": rng.random() < 0.3}
    if tokenize.startswith("flores"):
        sacre = pytest.importorskip("torchmetrics.functional.text.sacre_bleu")
        model = request.getfixturevalue("spm_model")
        for url in sacre._FLORES_MODELS_URL.values():
            (tmp_path / url.rsplit("/", 1)[-1]).symlink_to(model)
        monkeypatch.setattr(sacre, "_FLORES_LOCAL_DIR", str(tmp_path))
        processors = {"flores101": None, "flores200": None}
        monkeypatch.setattr(sacre._SacreBLEUTokenizer, "sentencepiece_processors", processors)
    else:
        model = None

    def library() -> float:
        return float(text.sacre_bleu_score(hyps, refs, **knobs))

    def ours():
        profile = "torchmetrics-sacrebleu"
        return bleu_impl.corpus_bleu(hyps, refs, profile=profile, spm_model=model, **knobs)

    _same(library, ours, FLOAT32)


#: Text pieces on which compare-mt's and ParlAI's splitting and normalising differ from
#: str.split: double spaces, tabs, punctuation, articles, case, empty lines.
PIECES = ["the", "A", "an", "cat", "Cat", "sat", "on", "mat", ",", "!", "it's", "x-y", "é"]


def _line(rng: random.Random) -> str:
    words = [rng.choice(PIECES) for _ in range(rng.randint(0, 8))]
    return "".join(w + rng.choice([" ", " ", " ", "  ", "\t", ""]) for w in words)


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("seed", range(20))
def test_compare_mt(seed: int, lowercase: bool) -> None:
    """compare-mt 0.2.10 BleuScorer on its reader's tokens (line.strip().split(' '))."""
    scorers = pytest.importorskip("compare_mt.scorers")
    rng = random.Random(seed)
    pairs = [(_line(rng), _line(rng)) for _ in range(rng.randint(1, 6))]
    hyps, refs = [h for h, _ in pairs], [[r] for _, r in pairs]

    def library() -> float:
        scorer = scorers.BleuScorer(case_insensitive=lowercase)
        ref_tokens = [r.strip().split(" ") for (r,) in refs]
        return scorer.score_corpus(ref_tokens, [h.strip().split(" ") for h in hyps])[0] / 100

    def ours():
        return bleu_impl.corpus_bleu(hyps, refs, profile="compare-mt", lowercase=lowercase)

    _same(library, ours, FLOAT64)


@pytest.mark.parametrize("seed", range(30))
def test_parlai(seed: int) -> None:
    """ParlAI 1.7.2 BleuMetric.compute (live NLTK) per example, averaged."""
    metrics = pytest.importorskip("parlai.core.metrics")
    rng = random.Random(seed)
    hyps = [_line(rng) + " cat sat on the mat" for _ in range(rng.randint(1, 5))]
    # a reference the normaliser may make equal to the hypothesis, and unrelated ones
    refs = [
        [h.upper() + rng.choice(["", "!", " ."])] + [_line(rng)] * rng.randint(0, 2) for h in hyps
    ]

    def library() -> float:
        scores = [metrics.BleuMetric.compute(h, rs).value() for h, rs in zip(hyps, refs)]
        return sum(scores) / len(scores)

    _same(library, lambda: bleu_impl.corpus_bleu(hyps, refs, profile="parlai"), FLOAT64)


@pytest.mark.parametrize("seed", range(30))
def test_lm_eval(seed: int) -> None:
    """lm-evaluation-harness 0.4.13 ``bleu`` (sacrebleu after ``zip(*refs)``) on ragged
    reference lists: each segment keeps as many references as the one with the fewest;
    a segment without any leaves none (its IndexError), as does an empty corpus."""
    metrics = pytest.importorskip("lm_eval.api.metrics")
    rng = random.Random(seed)
    hyps, refs = random_corpus(seed, segments=rng.randint(0, 6), max_refs=4)
    refs = [[r for r in rs if r is not None] for rs in refs]
    if refs and rng.random() < 0.15:
        refs[rng.randrange(len(refs))] = []

    def library() -> float:
        return metrics.bleu(list(zip(refs, hyps))) / 100

    _same(library, lambda: bleu_impl.corpus_bleu(hyps, refs, profile="lm-eval"), FLOAT64)
