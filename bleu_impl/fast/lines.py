"""Tokens of raw lines remembered per tokenization: each line tokenized once, however many
corpora (systems on the same references) and configs read it.

A tokenization is what a :class:`~bleu_impl.tokenizers.Pipeline` does to a line: its
``tokenize``, ``split``, ``lowercase`` and ``spm_model`` knobs and the stage at which it
lowercases (:func:`tokenization`). ``line_prep="rstrip"`` is the same tokenization of the
line without its trailing whitespace (lowercasing neither adds nor removes whitespace, so it
commutes with the strip). Lines are tokenized in one :meth:`Pipeline.batch
<bleu_impl.tokenizers.Pipeline.batch>` call per request (the same tokens as one at a time).

Every distinct token sequence is kept once, as a tuple of shared ``str`` objects, with a
number (its *content id*): equal ids, equal tokens, whatever the tokenization, so corpora
that two tokenizations split alike can be recognised by their ids alone.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace

from ..tokenizers import Pipeline

__all__ = ["LINE_BYTES", "POINTER_BYTES", "TUPLE_BYTES", "LineTokens", "tokenization", "unstripped"]

#: About what a remembered line costs per tokenization (a dict entry and its int), what a
#: tuple costs, and a pointer (CPython, 64 bits).
LINE_BYTES, TUPLE_BYTES, POINTER_BYTES = 100, 56, 8


def tokenization(pipeline: Pipeline) -> Hashable:
    """What the tokens of ``pipeline`` depend on: equal keys, equal tokens for any line."""
    config = pipeline.config
    return (
        config.tokenize,
        config.split,
        config.line_prep,
        config.lowercase,
        config.spm_model,
        pipeline.stage,
    )


def unstripped(pipeline: Pipeline) -> Pipeline:
    """The pipeline without ``line_prep="rstrip"`` (the same role and stage)."""
    return Pipeline(replace(pipeline.config, line_prep="none"), pipeline.role)


class LineTokens:
    """Content ids of the lines seen, per tokenization, and the tokens of each content id;
    ``size`` estimates the bytes kept: ``LINE_BYTES`` per line and tokenization, and per
    distinct token sequence a tuple (``TUPLE_BYTES`` and a pointer per token)."""

    def __init__(self) -> None:
        self._lines: dict[Hashable, dict[str, int]] = {}
        self._ids: dict[tuple[str, ...], int] = {}
        self._tokens: list[tuple[str, ...]] = []
        self._canonical: dict[str, str] = {}
        self.size = 0

    def ids(self, pipeline: Pipeline, lines: list[str]) -> list[int]:
        """The content id of each line's tokens (new lines tokenized in one batch)."""
        if pipeline.config.line_prep == "rstrip":
            pipeline = unstripped(pipeline)
            lines = [line.rstrip() for line in lines]
        known = self._lines.setdefault(tokenization(pipeline), {})
        new = [line for line in dict.fromkeys(lines) if line not in known]
        if new:
            known.update(zip(new, map(self._content, pipeline.batch(new))))
            self.size += LINE_BYTES * len(new)
        return list(map(known.__getitem__, lines))

    def _content(self, tokens: list[str]) -> int:
        canonical = self._canonical.setdefault
        key = tuple(map(canonical, tokens, tokens))
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self._tokens)
            self._tokens.append(key)
            self.size += TUPLE_BYTES + POINTER_BYTES * len(key)
        return found

    def tokens(self, ids: list[int]) -> list[tuple[str, ...]]:
        """The tokens of each content id."""
        return list(map(self._tokens.__getitem__, ids))

    def clear(self) -> None:
        """Forget every line and content id."""
        self._lines.clear()
        self._ids.clear()
        self._tokens.clear()
        self._canonical.clear()
        self.size = 0
