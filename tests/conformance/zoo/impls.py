"""The thinnest callable adapters docs/runner.md allows over real BLEU libraries.

Each converts shapes only (strings to token lists or back, per-segment references to what
the library takes, a list of sentence scores to their mean where the library returns one
score per hypothesis) and leaves the semantics untouched; it takes ``**config`` and ignores
it, as a user's quick wrapper does. ``identify`` must name each one's profile and options.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any


def _text(t: Any) -> str:
    return t if isinstance(t, str) else " ".join(t)


def _tokens(t: Any) -> list[str]:
    return t.split() if isinstance(t, str) else list(t)


def _texts(hyps: list[Any], refs: list[list[Any]]) -> tuple[list[str], list[list[str]]]:
    return [_text(h) for h in hyps], [[_text(r) for r in rs if r is not None] for rs in refs]


def torchmetrics_bleu(hyps, refs, **config):
    from torchmetrics.functional.text import bleu_score

    return float(bleu_score(*_texts(hyps, refs)))


def torchmetrics_sacre_bleu(hyps, refs, **config):
    from torchmetrics.functional.text import sacre_bleu_score

    return float(sacre_bleu_score(*_texts(hyps, refs)))


def sacrebleu_intl(hyps, refs, **config):
    import sacrebleu

    preds, targets = _texts(hyps, refs)
    width = max(len(r) for r in targets)
    streams = [[rs[k] if k < len(rs) else None for rs in targets] for k in range(width)]
    return sacrebleu.corpus_bleu(preds, streams, tokenize="intl").score / 100


def coco(hyps, refs, **config):
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


def ignite_macro(hyps, refs, **config):
    return _ignite(hyps, refs, "no_smooth", "macro")


def ignite_smooth1(hyps, refs, **config):
    return _ignite(hyps, refs, "smooth1", "macro")


def ignite_nltk_smooth2_micro(hyps, refs, **config):
    return _ignite(hyps, refs, "nltk_smooth2", "micro")


def ignite_smooth2(hyps, refs, **config):
    return _ignite(hyps, refs, "smooth2", "macro")


def torcheval_bleu(hyps, refs, **config):
    from torcheval.metrics.functional import bleu_score

    return float(bleu_score(*_texts(hyps, refs), n_gram=4))


def fast_bleu(hyps, refs, **config):
    from fast_bleu import BLEU

    pool = [_tokens(r) for rs in refs for r in rs if r is not None]
    if not pool:  # fast-bleu would read past its empty reference set (undefined behaviour)
        raise ValueError("no reference at all")
    scores = BLEU(pool, {4: (0.25, 0.25, 0.25, 0.25)}).get_score([_tokens(h) for h in hyps])
    return sum(scores[4]) / len(scores[4])


def bleuscore_default(hyps, refs, **config):
    import bleuscore

    preds, targets = _texts(hyps, refs)
    return bleuscore.compute(targets, preds)["bleu"]


def constant(hyps, refs, **config):
    """Not a BLEU at all: the same number for every input."""
    return 0.25
