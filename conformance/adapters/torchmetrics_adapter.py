"""Built-in adapter: ``torchmetrics.functional.text.bleu.bleu_score`` (when importable).

torchmetrics tokenizes with ``str.split()``; its ``smooth=True`` is add-1 on orders >= 2
(``smoothing=add-k`` with k = 1). Scores come back as float32 tensors.
"""

from __future__ import annotations

from typing import Any

from bleu_impl import get_profile

from ..protocol import Answer, Request
from .base import Adapter, Capabilities, profile_knobs, settable
from .pyerrors import failure_from
from .text import joinable


class TorchmetricsAdapter(Adapter):
    """Drive torchmetrics' functional BLEU in process."""

    def __init__(self, timeout: float = 60.0) -> None:
        import torchmetrics
        from torchmetrics.functional.text.bleu import bleu_score

        self._bleu_score = bleu_score
        self.capabilities = Capabilities(
            name="torchmetrics",
            version=torchmetrics.__version__,
            knobs=profile_knobs("torchmetrics"),
            native="torchmetrics",
            expect=("torchmetrics",),
            timeout=timeout,
            arithmetic="float32",
        )

    def check(self, request: Request) -> str | None:
        reason = super().check(request)
        if reason is None and request.complete.get("smoothing_value") not in (None, 1, 1.0):
            reason = "torchmetrics smooth=True is add-1 only"
        if reason is None and request.input_format == "tokenized" and not joinable(request):
            reason = "torchmetrics takes strings: these tokens cannot be joined with spaces"
        return reason

    def run(self, request: Request) -> Answer:
        config = get_profile("torchmetrics").resolve(
            settable(self.capabilities, request.complete), request.level
        )

        def text(t: Any) -> str:
            return t if isinstance(t, str) else " ".join(t)

        preds = [text(h) for h in request.hypotheses]
        target = [[text(r) for r in rs if r is not None] for rs in request.references]

        def call() -> Any:
            return self._bleu_score(
                preds,
                target,
                n_gram=config.max_order,
                smooth=config.smoothing == "add-k",
                weights=list(config.weights) if config.weights else None,
            )

        try:
            value = call()
        except Exception as exc:
            return Answer(failure=failure_from(exc))
        return Answer(score=float(value))
