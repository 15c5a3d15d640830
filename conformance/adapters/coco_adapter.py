"""Built-in adapter: pycocoevalcap's ``Bleu(n).compute_score`` (MS-COCO captions).

Segment i becomes image id i: ``gts[i]`` its references, ``res[i]`` its one hypothesis.
pycocoevalcap splits on whitespace (``str.split``); token lists are joined with spaces. The
answer is BLEU-N (``score[N-1]``), where N is the ``max_order`` knob (default 4).
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

__all__ = ["CocoAdapter"]


class CocoAdapter(Adapter):
    """Drive ``pycocoevalcap.bleu.bleu.Bleu`` in process."""

    def __init__(self, timeout: float = 30.0) -> None:
        from pycocoevalcap.bleu.bleu import Bleu

        self._Bleu = Bleu
        self.capabilities = Capabilities(
            name="coco",
            version=version("pycocoevalcap"),
            knobs=profile_knobs("coco"),
            native="coco",
            expect=("coco",),
            timeout=timeout,
        )

    def check(self, request: Request) -> str | None:
        reason = super().check(request)
        if reason is None and request.input_format == "tokenized" and not joinable(request):
            reason = "pycocoevalcap takes strings: these tokens cannot be joined with spaces"
        return reason

    def warm_up(self) -> None:
        self.run(WARM_UP_REQUEST)

    def run(self, request: Request) -> Answer:
        config = get_profile("coco").resolve(
            settable(self.capabilities, request.complete), request.level
        )
        gts = {
            i: [as_line(r) for r in refs if r is not None]
            for i, refs in enumerate(request.references)
        }
        res = {i: [as_line(h)] for i, h in enumerate(request.hypotheses)}

        def call() -> Any:
            score, _ = self._Bleu(config.max_order).compute_score(gts, res, verbose=0)
            return score[config.max_order - 1]

        try:
            value = call()
        except Exception as exc:
            return Answer(failure=failure_from(exc))
        return Answer(score=float(value))
