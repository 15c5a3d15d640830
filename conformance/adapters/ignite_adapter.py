"""Built-in adapter: pytorch-ignite's ``ignite.metrics.nlp.Bleu`` (in process).

The whole input is one ``update((y_pred, y))`` with token lists (``str.split`` of raw text,
token lists as given), then ``compute()``. Knobs map to its arguments: ``max_order`` ->
``ngram``; ``smoothing`` none / floor / add-k (+ ``denominator_floor`` corpus or none) ->
``smooth`` no_smooth / smooth1 / nltk_smooth2 / smooth2; ``aggregation`` macro / corpus ->
``average`` macro / micro. ignite keeps counts in float32 tensors (``arithmetic``).
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from bleu_impl import Config, get_profile

from ..protocol import Answer, Request
from .base import Adapter, Capabilities, profile_knobs, settable
from .pyerrors import failure_from
from .text import split_tokens
from .warmup import WARM_UP_REQUEST

__all__ = ["IgniteAdapter", "ignite_arguments"]


def ignite_arguments(config: Config) -> dict[str, Any]:
    """``Bleu(...)`` keyword arguments for a config of the ``ignite`` profile."""
    smooth = {"none": "no_smooth", "floor": "smooth1"}.get(config.smoothing)
    if smooth is None:
        smooth = "nltk_smooth2" if config.denominator_floor == "corpus" else "smooth2"
    average = "macro" if config.aggregation == "macro" else "micro"
    return {"ngram": config.max_order, "smooth": smooth, "average": average}


class IgniteAdapter(Adapter):
    """Drive ``ignite.metrics.nlp.Bleu`` in process."""

    def __init__(self, timeout: float = 60.0) -> None:
        from ignite.metrics.nlp import Bleu

        self._Bleu = Bleu
        self.capabilities = Capabilities(
            name="ignite",
            version=version("pytorch-ignite"),
            knobs=profile_knobs("ignite"),
            native="ignite",
            expect=("ignite",),
            timeout=timeout,
            arithmetic="float32",
        )

    def warm_up(self) -> None:
        self.run(WARM_UP_REQUEST)

    def run(self, request: Request) -> Answer:
        config = get_profile("ignite").resolve(
            settable(self.capabilities, request.complete), request.level
        )
        hyps = [split_tokens(h) for h in request.hypotheses]
        refs = [[split_tokens(r) for r in rs if r is not None] for rs in request.references]

        def call() -> Any:
            metric = self._Bleu(**ignite_arguments(config))
            metric.update((hyps, refs))
            return metric.compute()

        try:
            value = call()
        except Exception as exc:  # NotComputableError: macro average of no sentence
            empty = type(exc).__name__ == "NotComputableError"
            return Answer(failure=failure_from(exc, "empty-corpus" if empty else None))
        return Answer(score=float(value))
