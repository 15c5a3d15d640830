"""Implementations that patch the worker they run in (the same process) to send the harness
replies of the wrong shape: each must become that implementation's error, never a crash of
bleu-conformance."""

from __future__ import annotations

import sys
from typing import Any

from conformance.protocol import Answer, Failure

_REPLIES: dict[str, Any] = {
    "error-kind-number": lambda seq: (seq, "error", 7, "a number for a kind", ""),
    "error-stderr-number": lambda seq: (seq, "error", "crash", "stderr is a number", 12),
    "error-short": lambda seq: (seq, "error", "crash"),
    "status-unknown": lambda seq: (seq, "maybe", 0.5),
    "failure-text": lambda seq: (seq, "ok", Answer(failure="boom")),  # type: ignore[arg-type]
    "failure-kind-seven": lambda seq: (seq, "ok", Answer(failure=Failure(7, "m"))),  # type: ignore[arg-type]
    "stderr-number": lambda seq: (seq, "ok", Answer(score=0.5, stderr=12)),  # type: ignore[arg-type]
}


def _patched(mode: str) -> Any:
    def bleu(hypotheses: list, references: list, **config: Any) -> float:
        worker = sys.modules["__main__"]  # the worker runs as ``python -m``
        original = worker._pack

        def pack(message: Any) -> bytes:
            if isinstance(message, tuple) and len(message) == 3 and message[1] == "ok":
                return original(_REPLIES[mode](message[0]))
            return original(message)

        worker._pack = pack
        return 0.5

    bleu.__name__ = mode.replace("-", "_")
    return bleu


error_kind_number = _patched("error-kind-number")
error_stderr_number = _patched("error-stderr-number")
error_short = _patched("error-short")
status_unknown = _patched("status-unknown")
failure_text = _patched("failure-text")
failure_kind_seven = _patched("failure-kind-seven")
stderr_number = _patched("stderr-number")


def _unchecked_declaration(fields: Any, where: str, kind: str = "", prefix: str = "") -> Any:
    """The declaration as written: no check at all."""
    return {name: value for name, value in fields.items() if value is not None}


def _declaring_through_a_patched_checker(**attributes: Any) -> Any:
    """At import (in the worker), the declaration checker is replaced by one that accepts
    anything; the function then declares ``attributes``."""
    import conformance.adapters.declared as declared
    import conformance.adapters.python_callable as python_callable

    declared.read_declaration = _unchecked_declaration
    python_callable.read_declaration = _unchecked_declaration  # (its own binding too)

    def bleu(hypotheses: list, references: list, **config: Any) -> float:
        return 0.5

    for name, value in attributes.items():
        setattr(bleu, name, value)
    return bleu


scale_zero_unchecked = _declaring_through_a_patched_checker(bleu_scale=0)
precision_word_unchecked = _declaring_through_a_patched_checker(bleu_precision="two")
