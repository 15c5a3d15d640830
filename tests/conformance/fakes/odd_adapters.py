"""An adapter registered by a package (entry point ``odd``) whose answers and capabilities
hold values of the wrong type: what a buggy or forged worker reply carries. ``odd:MODE``
picks the oddity; with none it answers like bleu_impl."""

from __future__ import annotations

from typing import Any

from bleu_impl import corpus_bleu
from conformance.adapters import Adapter, Capabilities
from conformance.protocol import Answer, Failure, Request

#: MODE -> the answer's fields (beside a correct score, unless the mode replaces it).
ANSWERS: dict[str, dict[str, Any]] = {
    "failure-text": {"score": None, "failure": "boom"},
    "stderr-number": {"stderr": 5},
    "failure-kind-number": {"score": None, "failure": Failure(kind=7, message="x")},
    "many-counts": {"counts": (1,) * 500_000, "totals": (2,) * 500_000},
}
#: MODE -> capabilities fields.
CAPABILITIES: dict[str, dict[str, Any]] = {
    "scale-zero": {"scale": 0},
    "precision-word": {"precision": "two"},
    "levels-text": {"levels": "corpus"},
}


class Odd(Adapter):
    def __init__(self, mode: str = "") -> None:
        self.mode = mode
        self.capabilities = Capabilities(
            name="odd", expect=("papineni2002",), **CAPABILITIES.get(mode, {})
        )

    def run(self, request: Request) -> Answer:
        hyps = [h if isinstance(h, str) else list(h) for h in request.hypotheses]
        refs = [
            [r if r is None or isinstance(r, str) else list(r) for r in rs]
            for rs in request.references
        ]
        score = corpus_bleu(hyps, refs, **request.config).score
        return Answer(**{"score": score, **ANSWERS.get(self.mode, {})})
