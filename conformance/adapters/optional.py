"""Cases whose tokenizer needs an optional package (MeCab and its dictionary,
SentencePiece) that the current environment lacks: a skip naming the ``pip install``, not an
implementation's error. The harness asks it of its own environment; a pinned release's worker
asks it of the release's environment, which holds only that release and its dependencies."""

from __future__ import annotations

import functools

from bleu_impl import BleuError, Pipeline, make_config

from ..protocol import Request

__all__ = ["not_installed"]


@functools.cache
def _missing(tokenize: str, spm_model: str | None) -> str | None:
    knobs = (
        {"tokenize": tokenize}
        if spm_model is None
        else {"tokenize": tokenize, "spm_model": spm_model}
    )
    try:
        Pipeline(make_config(knobs))
    except BleuError as exc:
        return str(exc) if isinstance(exc, ImportError) else None
    return None


def not_installed(request: Request) -> str | None:
    """Why ``request`` cannot be asked here: the missing package and its ``pip install``;
    None when its tokenizer loads (or fails for another reason, which the case will meet)."""
    tokenize, model = request.config.get("tokenize"), request.config.get("spm_model")
    if not isinstance(tokenize, str):
        return None
    return _missing(tokenize, model if isinstance(model, str) else None)
