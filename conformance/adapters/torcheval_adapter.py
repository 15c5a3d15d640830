"""Built-in adapter: torcheval's functional ``bleu_score`` (in process).

torcheval splits strings with ``str.split()``; token lists are joined with spaces. Its
tensors are float32 (``arithmetic``); ``weights`` become a tensor.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from bleu_impl import get_profile

from ..protocol import Answer, Request
from .base import Adapter, Capabilities, profile_knobs, settable
from .pyerrors import failure_from
from .text import as_line, joinable
from .warmup import WARM_UP_REQUEST

__all__ = ["TorchevalAdapter"]


class TorchevalAdapter(Adapter):
    """Drive ``torcheval.metrics.functional.bleu_score`` in process."""

    def __init__(self, timeout: float = 60.0) -> None:
        from torcheval.metrics.functional import bleu_score

        self._bleu_score = bleu_score
        self.capabilities = Capabilities(
            name="torcheval",
            version=version("torcheval"),
            knobs=profile_knobs("torcheval"),
            native="torcheval",
            expect=("torcheval",),
            timeout=timeout,
            arithmetic="float32",
        )

    def check(self, request: Request) -> str | None:
        reason = super().check(request)
        if reason is None and request.input_format == "tokenized" and not joinable(request):
            reason = "torcheval takes strings: these tokens cannot be joined with spaces"
        return reason

    def warm_up(self) -> None:
        self.run(WARM_UP_REQUEST)

    def run(self, request: Request) -> Answer:
        config = get_profile("torcheval").resolve(
            settable(self.capabilities, request.complete), request.level
        )
        preds = [as_line(h) for h in request.hypotheses]
        target = [[as_line(r) for r in rs if r is not None] for rs in request.references]

        def call() -> Any:
            import torch

            weights = None if config.weights is None else torch.tensor(config.weights)
            return self._bleu_score(preds, target, n_gram=config.max_order, weights=weights)

        try:
            value = call()
        except Exception as exc:  # its documented error: an order without n-grams
            too_short = isinstance(exc, ValueError) and "too short" in str(exc)
            return Answer(failure=failure_from(exc, "absent-order" if too_short else None))
        return Answer(score=float(value))
