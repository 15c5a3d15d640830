"""Profile ``sacrebleu`` against live sacrebleu 2.x on seeded random raw text.

Covers corpus and sentence level, the none/floor/add-k/exp smoothing methods (with and
without smoothing values), effective order, the 13a/intl/char/none tokenizers, lowercasing
and 1-4 references. Agreement to 1e-9 relative (sacrebleu computes on the 0-100 scale with
plain ``sum``; the statistics are integers on both sides and compared exactly).
"""

from __future__ import annotations

import math
import random

import pytest

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402

import bleu_impl  # noqa: E402

WORDS = [
    "the",
    "The",
    "cat",
    "sat",
    "on",
    "mat",
    "ÉCOLE",
    "école",
    "dog",
    "3.5",
    "1,000",
    "2023",
    "it's",
    "don't",
    "U.S.",
    "co-op",
    "naïve",
    "Straße",
    "İstanbul",
    "東京",
    "€5",
    "$",
    "&amp;",
    "&quot;hi&quot;",
    "<skipped>",
    "a",
    "is",
    "ship",
]
PUNCT = ["", "", "", ".", ",", "!", "?", ";", ":", '"', "'", "(", ")", "-", "—", "…", "«", "»"]


def raw_sentence(rng: random.Random) -> str:
    n = rng.choice([0, 1, 2, 3, 4, 6, 9])
    words = [rng.choice(WORDS) + rng.choice(PUNCT) for _ in range(n)]
    glue = rng.choice([" ", " ", "  ", "\u00a0", "\t"])
    return glue.join(words) + rng.choice(["", ".", " .", " ", "2023."])


def raw_corpus(rng: random.Random, segments: int, nrefs: int):
    hyps, streams = [], [[] for _ in range(nrefs)]
    for _ in range(segments):
        refs = [raw_sentence(rng) for _ in range(nrefs)]
        hyp = rng.choice(refs) if rng.random() < 0.3 else raw_sentence(rng)
        if rng.random() < 0.3 and hyp:
            hyp = hyp.replace(" ", " the ", 1)
        hyps.append(hyp)
        for stream, ref in zip(streams, refs):
            stream.append(ref)
    return hyps, streams


def options(rng: random.Random) -> dict:
    smooth = rng.choice(["none", "floor", "add-k", "exp"])
    value = None
    if smooth in ("floor", "add-k") and rng.random() < 0.5:
        value = rng.choice([0.01, 0.5, 2])
    return {
        "tokenize": rng.choice(["13a", "13a", "intl", "char", "none"]),
        "lowercase": rng.random() < 0.3,
        "smooth_method": smooth,
        "smooth_value": value,
        "effective_order": rng.random() < 0.3,
        "max_ngram_order": rng.choice([4, 4, 4, 2, 3, 5]),
    }


def our_knobs(opts: dict) -> dict:
    return {
        "tokenize": opts["tokenize"],
        "lowercase": "unicode" if opts["lowercase"] else False,
        "smoothing": opts["smooth_method"],
        "smoothing_value": opts["smooth_value"],
        "effective_order": opts["effective_order"],
        "max_order": opts["max_ngram_order"],
    }


def check(ours: bleu_impl.BleuResult, theirs) -> None:
    assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert math.isclose(ours.score * 100, theirs.score, rel_tol=1e-9, abs_tol=1e-12), (
        ours.score * 100,
        theirs.score,
    )


@pytest.mark.parametrize("seed", range(150))
def test_corpus_score_matches_sacrebleu(seed: int) -> None:
    rng = random.Random(seed)
    opts = options(rng)
    hyps, streams = raw_corpus(rng, rng.randint(1, 6), rng.randint(1, 4))
    theirs = BLEU(**opts).corpus_score(hyps, streams)
    refs = [list(segment) for segment in zip(*streams)]
    ours = bleu_impl.corpus_bleu(hyps, refs, profile="sacrebleu", **our_knobs(opts))
    if opts["smooth_method"] != "add-k":  # sacrebleu reports add-k counts with +k added
        assert list(ours.counts) == list(theirs.counts)
        assert list(ours.totals) == list(theirs.totals)
    check(ours, theirs)


@pytest.mark.parametrize("seed", range(150))
def test_sentence_score_matches_sacrebleu(seed: int) -> None:
    rng = random.Random(1_000 + seed)
    opts = options(rng)
    opts["effective_order"] = rng.random() < 0.8
    hyps, streams = raw_corpus(rng, 1, rng.randint(1, 4))
    refs = [s[0] for s in streams]
    theirs = BLEU(**opts).sentence_score(hyps[0], refs)
    ours = bleu_impl.sentence_bleu(hyps[0], refs, profile="sacrebleu", **our_knobs(opts))
    check(ours, theirs)


def test_sentence_default_is_effective_order() -> None:
    """sacrebleu.sentence_bleu (compat) uses the effective order; so does our sentence level."""
    hyp, refs = "the cat", ["the cat sat"]
    theirs = sacrebleu.sentence_bleu(hyp, refs)
    ours = bleu_impl.sentence_bleu(hyp, refs, profile="sacrebleu")
    assert ours.config.effective_order is True
    assert math.isclose(ours.score * 100, theirs.score, rel_tol=1e-9)


def test_corpus_default_matches_compat_corpus_bleu() -> None:
    hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
    refs = [
        ["The dog bit the man.", "The dog had bit the man."],
        ["It was not unexpected.", "No one was surprised."],
        ["The man bit him first.", "The man had bitten the dog."],
    ]
    streams = [list(s) for s in zip(*refs)]
    theirs = sacrebleu.corpus_bleu(hyps, streams)
    ours = bleu_impl.corpus_bleu(hyps, refs, profile="sacrebleu")
    check(ours, theirs)


@pytest.mark.parametrize("hyp", ["", "a b"])
def test_brevity_penalty_with_an_empty_reference_matches_sacrebleu(hyp: str) -> None:
    """sacrebleu tests ``c < r`` first, so r = 0 gives BP 1 even for an empty hypothesis
    (NLTK's ``brevity_penalty(0, 0)`` is 0: profile nltk, ``empty_ref='rule'``)."""
    theirs = BLEU().corpus_score([hyp], [[""]])
    ours = bleu_impl.corpus_bleu([hyp], [[""]], profile="sacrebleu")
    assert ours.bp == theirs.bp == 1.0
    check(ours, theirs)
