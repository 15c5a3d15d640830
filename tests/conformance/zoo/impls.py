"""The thinnest callable adapters docs/runner.md allows over real BLEU libraries.

Each converts shapes only (strings to token lists or back, per-segment references to what
the library takes, a list of sentence scores to their mean where the library returns one
score per hypothesis) and leaves the semantics untouched; it takes no knob (so a case that
sets one is skipped, by ``run`` as by ``identify``). ``identify`` must name each one's
profile and options, and its verdict must be ``run --as``'s.

The last few differ from a real library only in their numbers: torchmetrics computed in
float64, or returned at 100 times the declared scale, or printed to 4 decimals.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any


def _text(t: Any) -> str:
    return t if isinstance(t, str) else " ".join(t)


def _tokens(t: Any) -> list[str]:
    return t.split() if isinstance(t, str) else list(t)


def _raw_only(fn):
    """Mark a wrapper that joins token lists into text: it cannot pass on a token with a
    space inside, so it takes raw text only (token-list cases are skipped)."""
    fn.bleu_inputs = ("raw",)
    return fn


def _texts(hyps: list[Any], refs: list[list[Any]]) -> tuple[list[str], list[list[str]]]:
    return [_text(h) for h in hyps], [[_text(r) for r in rs if r is not None] for rs in refs]


def _streams(hyps: list[Any], refs: list[list[Any]]) -> tuple[list[str], list[list[str | None]]]:
    """sacrebleu's shape: the k-th reference of every segment is stream k (None: missing)."""
    preds, targets = _texts(hyps, refs)
    width = max(len(r) for r in targets)
    return preds, [[rs[k] if k < len(rs) else None for rs in targets] for k in range(width)]


@_raw_only
def torchmetrics_bleu(hyps, refs):
    from torchmetrics.functional.text import bleu_score

    return float(bleu_score(*_texts(hyps, refs)))


@_raw_only
def torchmetrics_sacre_bleu(hyps, refs):
    from torchmetrics.functional.text import sacre_bleu_score

    return float(sacre_bleu_score(*_texts(hyps, refs)))


@_raw_only
def sacrebleu_intl(hyps, refs):
    import sacrebleu

    preds, streams = _streams(hyps, refs)
    return sacrebleu.corpus_bleu(preds, streams, tokenize="intl").score / 100


@_raw_only
def coco(hyps, refs):
    from pycocoevalcap.bleu.bleu import Bleu

    preds, targets = _texts(hyps, refs)
    gts = dict(enumerate(targets))
    res = {i: [p] for i, p in enumerate(preds)}
    with contextlib.redirect_stdout(io.StringIO()):
        score, _ = Bleu(4).compute_score(gts, res)
    return score[3]


def _ignite(hyps, refs, smooth: str, average: str) -> float:
    from ignite.metrics.nlp import Bleu

    metric = Bleu(ngram=4, smooth=smooth, average=average)
    refs = [[_tokens(r) for r in rs if r is not None] for rs in refs]
    metric.update(([_tokens(h) for h in hyps], refs))
    return float(metric.compute())


def ignite_macro(hyps, refs):
    return _ignite(hyps, refs, "no_smooth", "macro")


def ignite_smooth1(hyps, refs):
    return _ignite(hyps, refs, "smooth1", "macro")


def ignite_nltk_smooth2_micro(hyps, refs):
    return _ignite(hyps, refs, "nltk_smooth2", "micro")


def ignite_smooth2(hyps, refs):
    return _ignite(hyps, refs, "smooth2", "macro")


@_raw_only
def torcheval_bleu(hyps, refs):
    from torcheval.metrics.functional import bleu_score

    return float(bleu_score(*_texts(hyps, refs), n_gram=4))


def fast_bleu(hyps, refs):
    from fast_bleu import BLEU

    pool = [_tokens(r) for rs in refs for r in rs if r is not None]
    if not pool:  # fast-bleu would read past its empty reference set (undefined behaviour)
        raise ValueError("no reference at all")
    scores = BLEU(pool, {4: (0.25, 0.25, 0.25, 0.25)}).get_score([_tokens(h) for h in hyps])
    return sum(scores[4]) / len(scores[4])


@_raw_only
def bleuscore_default(hyps, refs):
    import bleuscore

    preds, targets = _texts(hyps, refs)
    return bleuscore.compute(targets, preds)["bleu"]


@_raw_only
def torchmetrics_bleu_float64(hyps, refs):
    """torchmetrics' own code, its tensors in float64 (``torch.set_default_dtype``)."""
    import torch
    from torchmetrics.functional.text import bleu_score

    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        return float(bleu_score(*_texts(hyps, refs)))
    finally:
        torch.set_default_dtype(before)


@_raw_only
def torchmetrics_bleu_x100(hyps, refs):
    """torchmetrics returning 0-100 while declaring the default scale 0-1."""
    return 100 * torchmetrics_bleu(hyps, refs)


@_raw_only
def sacrebleu_printed(hyps, refs):
    """sacrebleu's score printed to 2 decimals (0-100), as its command line does, scaled back."""
    import sacrebleu

    preds, streams = _streams(hyps, refs)
    return round(sacrebleu.corpus_bleu(preds, streams).score, 2) / 100


@_raw_only
def compare_mt_bleu(hyps, refs):
    """compare-mt's BleuScorer on its corpus reader's tokens (``line.strip().split(' ')``),
    one reference per sentence, 0-100 scaled back."""
    from compare_mt.scorers import BleuScorer

    preds, targets = _texts(hyps, refs)
    if any(len(rs) != 1 for rs in targets):
        raise ValueError("compare-mt takes exactly one reference per sentence")
    split = [rs[0].strip().split(" ") for rs in targets]
    return BleuScorer().score_corpus(split, [p.strip().split(" ") for p in preds])[0] / 100


@_raw_only
def parlai_bleu(hyps, refs):
    """ParlAI's BleuMetric per example, averaged as its AverageMetric reports do."""
    from parlai.core.metrics import BleuMetric

    preds, targets = _texts(hyps, refs)
    scores = [BleuMetric.compute(p, rs) for p, rs in zip(preds, targets)]
    return sum(s.value() for s in scores) / len(scores)


@_raw_only
def lm_eval_bleu(hyps, refs):
    """lm-evaluation-harness's ``bleu`` aggregation on its (references, prediction) items,
    0-100 scaled back."""
    from lm_eval.api.metrics import bleu

    preds, targets = _texts(hyps, refs)
    return bleu(list(zip(targets, preds))) / 100


@_raw_only
def moses_detok_sacrebleu(hyps, refs):
    """``sacremoses -l en detokenize < hyp | sacrebleu ref``: the hypotheses detokenized by
    sacremoses' MosesDetokenizer (English), then sacrebleu's corpus BLEU (13a), scaled back."""
    import sacrebleu
    from sacremoses import MosesDetokenizer

    detok = MosesDetokenizer(lang="en")
    preds, streams = _streams(hyps, refs)
    preds = [detok.detokenize(p.split()) for p in preds]
    return sacrebleu.corpus_bleu(preds, streams).score / 100


def constant(hyps, refs):
    """Not a BLEU at all: the same number for every input."""
    return 0.25


def nltk_dies_on_empty_refs(hyps, refs):
    """NLTK's corpus_bleu, raising ZeroDivisionError where its reference length r is 0 (as
    texar-pytorch 0.1.4's corpus_bleu does dividing c by r): a raise is never evidence, so
    only the check of the nearest setting can find the tool that dies there."""
    from nltk.translate.bleu_score import closest_ref_length, corpus_bleu

    hyps = [_tokens(h) for h in hyps]
    refs = [[_tokens(r) for r in rs if r is not None] for rs in refs]
    if sum(closest_ref_length(rs, len(h)) for h, rs in zip(hyps, refs)) == 0:
        raise ZeroDivisionError("float division by zero")
    return corpus_bleu(refs, hyps)
