"""The ``spm``, ``flores101`` and ``flores200`` tokenizers: SentencePiece pieces, as sacrebleu
2.x's ``TokenizerSPM`` (``" ".join(sp.EncodeAsPieces(line))``, no other step), with the
model file given by the ``spm_model`` knob (``pip install 'bleu-conformance[spm]'``)."""

from __future__ import annotations

import hashlib
import os
import threading
from typing import Any

from ..errors import KnobError
from ..spm_models import SPM_MODELS, sacrebleu_model_path
from .extras import require

__all__ = ["SpmTokenizer", "model_digest", "spm_tokenizer"]


class SpmTokenizer:
    """One loaded SentencePiece model."""

    def __init__(self, path: str, tokenize: str) -> None:
        spm = require("sentencepiece", "spm", f"tokenize={tokenize!r}")
        if not os.path.isfile(path):
            raise KnobError(
                f"spm_model {path!r}: no such file. tokenize={tokenize!r} uses sacrebleu's "
                f"{SPM_MODELS[tokenize].signature} model, which sacrebleu downloads from "
                f"{SPM_MODELS[tokenize].url} to {sacrebleu_model_path(tokenize)}"
            )
        self.processor: Any = spm.SentencePieceProcessor()
        try:
            self.processor.Load(path)
        except (OSError, RuntimeError) as exc:
            raise KnobError(f"spm_model {path!r}: not a SentencePiece model ({exc})") from exc
        self._encode = self.processor.EncodeAsPieces

    def __call__(self, line: str) -> str:
        """The line's pieces separated by single spaces (sacrebleu's ``TokenizerSPM``)."""
        return " ".join(self._encode(line))

    def batch(self, lines: list[str]) -> list[str]:
        """``[self(line) for line in lines]`` in one SentencePiece call."""
        return [" ".join(pieces) for pieces in self.processor.encode(lines, out_type=str)]


_LOADED: dict[tuple[str, int, int], SpmTokenizer] = {}
_LOCK = threading.Lock()


def _key(path: str) -> tuple[str, int, int]:
    """The path with the file's modification time and size (a replaced file is reloaded)."""
    try:
        stat = os.stat(path)
    except OSError:
        return (path, -1, -1)
    return (os.path.abspath(path), stat.st_mtime_ns, stat.st_size)


def spm_tokenizer(path: str, tokenize: str) -> SpmTokenizer:
    """The model at ``path``, loaded once per process (and again if the file changes)."""
    key = _key(path)
    with _LOCK:
        tokenizer = _LOADED.get(key)
        if tokenizer is None:
            tokenizer = SpmTokenizer(path, tokenize)
            if key[1] >= 0:
                _LOADED[key] = tokenizer
    return tokenizer


_DIGESTS: dict[tuple[str, int, int], str] = {}


def model_digest(path: str) -> str:
    """``<file name>@<first 12 hex digits of its SHA-256>`` (``@missing`` without a file):
    the model in a signature, whatever directory it was read from."""
    key = _key(path)
    if key[1] < 0:
        return f"{os.path.basename(path)}@missing"
    digest = _DIGESTS.get(key)
    if digest is None:
        with open(path, "rb") as handle:
            digest = _DIGESTS[key] = hashlib.sha256(handle.read()).hexdigest()[:12]
    return f"{os.path.basename(path)}@{digest}"
