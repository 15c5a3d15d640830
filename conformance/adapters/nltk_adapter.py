"""Built-in adapter: the live ``nltk.translate.bleu_score`` (sentence_bleu / corpus_bleu).

Raw text is tokenized with ``str.split()``; token lists are used as given. Knobs NLTK can
express: weights (or max_order, as uniform weights), ``smoothing`` nltk-method0..7 through
``SmoothingFunction(epsilon, alpha, k)``, and ``auto_reweigh``. Everything else must equal
NLTK's own behaviour (the ``nltk`` profile), or the case is skipped.
"""

from __future__ import annotations

import warnings
from typing import Any

from bleu_impl import get_profile

from ..protocol import Answer, Request
from .base import Adapter, Capabilities, profile_knobs, settable
from .pyerrors import failure_from
from .text import split_tokens


class NltkAdapter(Adapter):
    """Drive ``nltk.translate.bleu_score`` in process."""

    def __init__(self, timeout: float = 30.0) -> None:
        import nltk
        from nltk.translate import bleu_score

        self._bleu = bleu_score
        self.capabilities = Capabilities(
            name="nltk",
            version=nltk.__version__,
            knobs=profile_knobs("nltk"),
            native="nltk",
            expect=("nltk",),
            timeout=timeout,
        )

    def _kwargs(self, request: Request) -> dict[str, Any]:
        config = get_profile("nltk").resolve(
            settable(self.capabilities, request.complete), request.level
        )
        smoother = self._bleu.SmoothingFunction(
            epsilon=config.epsilon, alpha=config.alpha, k=config.k
        )
        return {
            "weights": tuple(config.order_weights),
            "smoothing_function": getattr(smoother, config.smoothing.replace("nltk-", "")),
            "auto_reweigh": config.auto_reweigh,
        }

    def run(self, request: Request) -> Answer:
        kwargs = self._kwargs(request)
        hyps = [split_tokens(h) for h in request.hypotheses]
        refs = [[split_tokens(r) for r in rs if r is not None] for rs in request.references]

        def call() -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if request.level == "sentence":
                    return self._bleu.sentence_bleu(refs[0], hyps[0], **kwargs)
                return self._bleu.corpus_bleu(refs, hyps, **kwargs)

        try:
            score = call()
        except Exception as exc:  # NLTK raising is an answer (AssertionError, KeyError...)
            return Answer(failure=failure_from(exc))
        return Answer(score=float(score))
