"""The tokenizing pipeline: a segment's tokens under the ``lowercase``, ``line_prep``,
``tokenize`` and ``split`` knobs.

A ``str`` goes through four steps, in this order: lowercase (before tokenizing, as every
implementation but torchmetrics' ``SacreBLEUScore`` does), ``line_prep`` (sacrebleu
``rstrip``-s each line), tokenize (the tokenizer inserts spaces), split on whitespace. A
token sequence is taken as given; only ``lowercase`` applies, token by token.

:class:`Pipeline` holds the steps of one :class:`~bleu_impl.knobs.Config` and runs them on
one segment with the readable reference tokenizers (:meth:`Pipeline.segment`), or with the
fast equivalents on one line (:meth:`Pipeline.line`) or a batch of lines
(:meth:`Pipeline.batch`): same tokens, checked by ``tests/bleu_impl/tokenizers/``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import InputError
from ..knobs import Config
from .casing import LOWERCASERS
from .registry import TOKENIZERS, load_tokenizer
from .whitespace import SPLITTERS

__all__ = ["TOKENIZERS", "Pipeline", "make_tokenizer"]


class Pipeline:
    """lowercase → line_prep → tokenize → split, for one config."""

    def __init__(self, config: Config) -> None:
        self.config = config
        lowercase = config.lowercase
        self._lower = LOWERCASERS.get(lowercase) if lowercase else None
        self._rstrip = config.line_prep == "rstrip"
        tokenizer = load_tokenizer(config)
        self._tokenize = tokenizer.reference
        self._tokenize_line = tokenizer.line
        self._tokenize_batch = tokenizer.batch or self._tokenize_lines
        # str.split is split_python without a Python frame per line.
        self._split: Callable[[str], list[str]] = (
            str.split if config.split == "python" else SPLITTERS[config.split]
        )

    def _prepare(self, line: str) -> str:
        """The steps before tokenizing: lowercase, then ``line_prep``."""
        if self._lower is not None:
            line = self._lower(line)
        return line.rstrip() if self._rstrip else line

    def segment(self, segment: str | Sequence[str]) -> tuple[str, ...]:
        """The tokens of a raw ``str`` (reference tokenizers) or of a given token sequence
        (checked to hold only ``str`` tokens, then lowercased if configured)."""
        if isinstance(segment, str):
            return tuple(self._split(self._tokenize(self._prepare(segment))))
        if isinstance(segment, bytes):
            raise InputError("segments must be str or token sequences, not bytes")
        tokens = tuple(segment)
        if not all(isinstance(t, str) for t in tokens):
            raise InputError("a token sequence must contain only str tokens")
        if " " in "".join(tokens):  # no split of any text makes such a token
            spaced = next(t for t in tokens if " " in t)
            raise InputError(
                f"a token contains a space: {spaced[:60]!r}; a token sequence is used as given "
                "(is a reference list nested one level too deep? references[i] is the list "
                "of segment i's references, each a string or a list of tokens)"
            )
        return tuple(map(self._lower, tokens)) if self._lower else tokens

    def line(self, line: str) -> list[str]:
        """The tokens of one raw line, equal to ``segment(line)`` (the fast tokenizers)."""
        return self._split(self._tokenize_line(self._prepare(line)))

    def batch(self, lines: list[str]) -> list[list[str]]:
        """The tokens of every raw line, equal to ``[segment(x) for x in lines]`` as lists."""
        if self._lower is not None or self._rstrip:
            lines = [self._prepare(line) for line in lines]
        return list(map(self._split, self._tokenize_batch(lines)))

    def _tokenize_lines(self, lines: list[str]) -> list[str]:
        return [self._tokenize_line(line) for line in lines]


def make_tokenizer(config: Config) -> Callable[[str | Sequence[str]], tuple[str, ...]]:
    """``Pipeline(config).segment``: a raw string or a token sequence to tokens."""
    return Pipeline(config).segment
