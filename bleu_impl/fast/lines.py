"""Tokens of raw lines remembered per tokenization: each line tokenized once, however many
corpora (systems on the same references) and configs read it.

A tokenization is what a :class:`~bleu_impl.tokenizers.Pipeline` does to a line: its
``tokenize``, ``split``, ``line_prep``, ``lowercase`` and ``spm_model`` knobs and the stage
at which it lowercases (:func:`tokenization`). Lines are tokenized in one
:meth:`Pipeline.batch <bleu_impl.tokenizers.Pipeline.batch>` call per request (the same
tokens as one line at a time). Equal tokens are stored as one ``str`` object, so the memory
is about one pointer per token.
"""

from __future__ import annotations

from collections.abc import Hashable

from ..tokenizers import Pipeline

__all__ = ["LineTokens", "tokenization"]


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


class LineTokens:
    """The tokens of every line seen, per tokenization; ``size`` counts the tokens kept."""

    def __init__(self) -> None:
        self._lines: dict[Hashable, dict[str, list[str]]] = {}
        self._canonical: dict[str, str] = {}
        self.size = 0

    def tokens(self, pipeline: Pipeline, lines: list[str]) -> list[list[str]]:
        """The tokens of each line (new lines tokenized in one batch)."""
        key = tokenization(pipeline)
        known = self._lines.setdefault(key, {})
        new = [line for line in dict.fromkeys(lines) if line not in known]
        if new:
            canonical = self._canonical.setdefault
            batch = [list(map(canonical, toks, toks)) for toks in pipeline.batch(new)]
            known.update(zip(new, batch))
            self.size += sum(map(len, batch)) + len(batch)
        return list(map(known.__getitem__, lines))

    def clear(self) -> None:
        """Forget every line."""
        self._lines.clear()
        self._canonical.clear()
        self.size = 0
