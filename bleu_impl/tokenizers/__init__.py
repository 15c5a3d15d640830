"""Turn a segment into tokens according to the ``tokenize``, ``split`` and ``lowercase`` knobs."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import InputError
from ..knobs import Config
from .casing import LOWERCASERS
from .char import tokenize_char
from .intl import tokenize_intl
from .tok13a import tokenize_13a
from .whitespace import SPLITTERS

TOKENIZERS: dict[str, Callable[[str], str]] = {
    "none": lambda line: line,
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "char": tokenize_char,
}


def make_tokenizer(config: Config) -> Callable[[str | Sequence[str]], tuple[str, ...]]:
    """Return a function mapping a raw string (or a given token sequence) to tokens.

    A string is lowercased (before tokenizing, as every implementation but torchmetrics'
    SacreBLEUScore does), tokenized and split. A token sequence is taken as given; only
    ``lowercase`` applies to each token.
    """
    lower = LOWERCASERS.get(config.lowercase) if config.lowercase else None
    tokenize = TOKENIZERS[config.tokenize]
    split = SPLITTERS[config.split]
    rstrip = config.line_prep == "rstrip"

    def tokens(segment: str | Sequence[str]) -> tuple[str, ...]:
        if isinstance(segment, str):
            text = lower(segment) if lower else segment
            if rstrip:
                text = text.rstrip()
            return tuple(split(tokenize(text)))
        if isinstance(segment, bytes):
            raise InputError("segments must be str or token sequences, not bytes")
        toks = tuple(segment)
        if not all(isinstance(t, str) for t in toks):
            raise InputError("a token sequence must contain only str tokens")
        return tuple(lower(t) for t in toks) if lower else toks

    return tokens
