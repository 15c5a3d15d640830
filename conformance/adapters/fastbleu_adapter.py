"""Built-in adapter: fast-bleu's ``BLEU(references, weights).get_score(hypotheses)``.

fast-bleu scores each hypothesis against the whole reference set it is built with, so the
references of every segment form one pool; the answer is the mean of the per-hypothesis
scores (how a corpus score is read off its list). Raw text is split with ``str.split()``.
An empty reference pool is never sent: fast-bleu's C++ reads past the end of it (undefined
behaviour, a crash of the whole process), so it is reported as a failure instead.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from bleu_impl import get_profile

from ..protocol import Answer, Failure, Request
from .base import Adapter, Capabilities, profile_knobs, settable
from .pyerrors import failure_from
from .text import split_tokens
from .warmup import WARM_UP_REQUEST

__all__ = ["FastBleuAdapter"]


class FastBleuAdapter(Adapter):
    """Drive ``fast_bleu.BLEU`` in process."""

    def __init__(self, timeout: float = 30.0) -> None:
        from fast_bleu import BLEU

        self._BLEU = BLEU
        self.capabilities = Capabilities(
            name="fast-bleu",
            version=version("fast-bleu"),
            knobs=profile_knobs("fast-bleu"),
            native="fast-bleu",
            expect=("fast-bleu",),
            timeout=timeout,
        )

    def warm_up(self) -> None:
        self.run(WARM_UP_REQUEST)

    def run(self, request: Request) -> Answer:
        config = get_profile("fast-bleu").resolve(
            settable(self.capabilities, request.complete), request.level
        )
        hyps = [split_tokens(h) for h in request.hypotheses]
        pool = [split_tokens(r) for rs in request.references for r in rs if r is not None]
        if not pool:
            return Answer(
                failure=Failure(
                    "missing-reference",
                    "no reference at all: fast-bleu would read past its empty reference set "
                    "(undefined behaviour), so it was not called",
                )
            )
        weights = {"bleu": tuple(config.order_weights)}
        smoothing_func = 1 if config.smoothing == "nltk-method1" else 0

        def call() -> Any:
            scores = self._BLEU(pool, weights, smoothing_func=smoothing_func).get_score(hyps)
            return sum(scores["bleu"]) / len(scores["bleu"])

        try:
            value = call()
        except Exception as exc:
            return Answer(failure=failure_from(exc))
        return Answer(score=float(value))
