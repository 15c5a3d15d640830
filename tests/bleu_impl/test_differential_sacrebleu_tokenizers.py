"""Profile ``sacrebleu`` with ``zh``, ``ja-mecab``, ``ko-mecab``, ``spm``, ``flores101`` and
``flores200`` against live sacrebleu 2.x (with its ``[ja]``/``[ko]`` extras; the SentencePiece
tokenizers with a small model the tests train, placed where sacrebleu reads its models) on
seeded random multilingual text: Chinese (simplified, traditional), Japanese (kana, kanji,
half- and full-width), Korean, Thai, Arabic, Latin with digits, CJK punctuation, emoji, empty
and whitespace-only lines.

Corpus and sentence level, 1-4 references, random smoothing / lowercase / order / effective
order; the statistics (counts, totals, lengths) are integers on both sides and compared
exactly, the score to 1e-9 relative (sacrebleu sums floats on the 0-100 scale). The fast
path in one process, streamed from iterators, over ``--jobs 2`` and on a Dask cluster give
the same statistics as sacrebleu.
"""

from __future__ import annotations

import importlib.util
import math
import random

import pytest

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402

import bleu_impl  # noqa: E402
import bleu_impl.bulk  # noqa: E402
from bleu_impl.spm_models import SPM_MODELS  # noqa: E402
from tools.fixtures.multilingual import SCRIPTS, random_corpus  # noqa: E402

#: tokenizer -> the Python module its sacrebleu tokenizer needs
NEEDS = {
    "zh": "sacrebleu",
    "ja-mecab": "MeCab",
    "ko-mecab": "mecab_ko",
    "spm": "sentencepiece",
    "flores101": "sentencepiece",
    "flores200": "sentencepiece",
}
#: the script most lines of a corpus are in, per tokenizer (None: any)
MAIN = {"zh": "zh-hans", "ja-mecab": "ja", "ko-mecab": "ko"}
HAS_DASK = importlib.util.find_spec("dask") is not None and (
    importlib.util.find_spec("distributed") is not None
)


@pytest.fixture
def model_for(request):
    """``model_for(tokenize)``: the spm_model knob value that tokenizer needs (None for the
    others); the SentencePiece ones get the trained model, placed for sacrebleu too."""

    def get(tokenize: str) -> str | None:
        pytest.importorskip(NEEDS[tokenize])
        if tokenize in SPM_MODELS:
            return request.getfixturevalue("sacrebleu_spm_model")
        return None

    return get


def options(rng: random.Random, tokenize: str) -> dict:
    smooth = rng.choice(["none", "floor", "add-k", "exp", "exp"])
    value = rng.choice([None, 0.01, 0.5]) if smooth in ("floor", "add-k") else None
    return {
        "tokenize": tokenize,
        "lowercase": rng.random() < 0.3,
        "smooth_method": smooth,
        "smooth_value": value,
        "effective_order": rng.random() < 0.3,
        "max_ngram_order": rng.choice([4, 4, 4, 1, 2, 3, 5]),
    }


def our_knobs(opts: dict, model: str | None) -> dict:
    knobs = {
        "tokenize": opts["tokenize"],
        "lowercase": "unicode" if opts["lowercase"] else False,
        "smoothing": opts["smooth_method"],
        "smoothing_value": opts["smooth_value"],
        "effective_order": opts["effective_order"],
        "max_order": opts["max_ngram_order"],
    }
    return {**knobs, "spm_model": model} if model else knobs


def check(ours: bleu_impl.BleuResult, theirs, opts: dict) -> None:
    if opts["smooth_method"] != "add-k":  # sacrebleu reports add-k counts with +k added
        assert list(ours.counts) == list(theirs.counts)
        assert list(ours.totals) == list(theirs.totals)
    assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert math.isclose(ours.score * 100, theirs.score, rel_tol=1e-9, abs_tol=1e-12), (
        ours.score * 100,
        theirs.score,
    )


def streams(refs: list[list[str]]) -> list[list[str]]:
    return [list(column) for column in zip(*refs)]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("tokenize", list(NEEDS))
def test_corpus_score_matches_sacrebleu(tokenize: str, seed: int, model_for) -> None:
    model = model_for(tokenize)
    rng = random.Random(f"{tokenize}-{seed}")
    main = MAIN.get(tokenize) if seed % 3 else rng.choice(SCRIPTS)  # some mixed corpora
    hyps, refs = random_corpus(rng.randrange(10**6), rng.randint(1, 40), rng.randint(1, 4), main)
    opts = options(rng, tokenize)
    theirs = BLEU(**opts).corpus_score(hyps, streams(refs))
    ours = bleu_impl.corpus_bleu(hyps, refs, profile="sacrebleu", **our_knobs(opts, model))
    check(ours, theirs, opts)


@pytest.mark.parametrize("tokenize", list(NEEDS))
def test_sentence_score_matches_sacrebleu(tokenize: str, model_for) -> None:
    model = model_for(tokenize)
    rng = random.Random(f"sentence-{tokenize}")
    for seed in range(30):
        hyps, refs = random_corpus(seed, 1, rng.randint(1, 4), MAIN.get(tokenize))
        opts = {**options(rng, tokenize), "effective_order": True}
        theirs = BLEU(**opts).sentence_score(hyps[0], refs[0])
        knobs = our_knobs(opts, model)
        ours = bleu_impl.sentence_bleu(hyps[0], refs[0], profile="sacrebleu", **knobs)
        check(ours, theirs, opts)


def _sacrebleu_stats(hyps, refs, tokenize: str, lowercase: bool) -> bleu_impl.BleuStats:
    """sacrebleu's corpus statistics as a BleuStats (no smoothing: its counts are raw)."""
    theirs = BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, streams(refs))
    return bleu_impl.BleuStats(
        tuple(theirs.counts), tuple(theirs.totals), theirs.sys_len, theirs.ref_len, len(hyps)
    )


@pytest.mark.parametrize("tokenize", ["zh", "ja-mecab", "flores200"])
def test_streaming_and_jobs_equal_sacrebleu(tokenize: str, model_for) -> None:
    model = model_for(tokenize)
    hyps, refs = random_corpus(77, 300, 3, MAIN.get(tokenize))
    want = _sacrebleu_stats(hyps, refs, tokenize, lowercase=True)
    knobs = {"tokenize": tokenize, "lowercase": True, **({"spm_model": model} if model else {})}
    config = bleu_impl.get_profile("sacrebleu").resolve(knobs)
    assert bleu_impl.corpus_stats(hyps, refs, config) == want
    assert bleu_impl.corpus_stats(iter(hyps), iter(refs), config) == want
    got = bleu_impl.bulk.parallel_corpus_stats(iter(hyps), iter(refs), config, jobs=2, limit=70)
    assert got == want


@pytest.mark.skipif(
    not HAS_DASK, reason="dask[bag] and distributed are not installed (extra 'dask')"
)
def test_dask_bag_equals_sacrebleu(model_for) -> None:
    import dask.bag as db
    from distributed import Client, LocalCluster

    from bleu_impl.dask_bag import bag_stats, shards

    cases = []
    for tokenize in ("zh", "ja-mecab", "ko-mecab", "spm"):
        model = model_for(tokenize)
        hyps, refs = random_corpus(5, 200, 2, MAIN.get(tokenize))
        knobs = {"tokenize": tokenize, **({"spm_model": model} if model else {})}
        config = bleu_impl.get_profile("sacrebleu").resolve(knobs)
        cases.append((hyps, refs, config, _sacrebleu_stats(hyps, refs, tokenize, False)))
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        for hyps, refs, config, want in cases:
            bag = db.from_sequence(list(shards(hyps, refs, size=90)), npartitions=3)
            assert bag_stats(bag, config) == want
