"""Every ``tokenize`` knob value and its :class:`Tokenizer`: the readable reference, and the
fast per-line and per-batch forms the fast path uses (same tokens after any whitespace
split; ``tests/bleu_impl/tokenizers/`` checks them against each other and against sacrebleu).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import BleuError
from ..knobs import Config
from ..spm_models import SPM_MODELS
from .char import tokenize_char
from .codexglue import tokenize_codexglue
from .intl import tokenize_intl, tokenize_mteval_intl, tokenize_t2t
from .mecab import JA_MECAB, KO_MECAB, MecabSetup, mecab_tokenizer
from .parlai import tokenize_parlai
from .spm import spm_tokenizer
from .tok13a import tokenize_13a
from .tok13a_batch import tokenize_13a_batch, tokenize_13a_line
from .zh import tokenize_zh, tokenize_zh_batch, tokenize_zh_line

__all__ = ["TOKENIZERS", "Tokenizer", "load_tokenizer", "tokenizer_signature"]


def _identity(line: str) -> str:
    return line


def _identity_batch(lines: list[str]) -> list[str]:
    return lines


@dataclass(frozen=True)
class Tokenizer:
    """A tokenizer: ``reference`` (a line in, tokens separated by whitespace out), ``line``
    (a faster per-line equivalent) and ``batch`` (a faster equivalent on a list of lines);
    ``signature`` names it with the versions that decide its tokens (sacrebleu's form)."""

    reference: Callable[[str], str]
    line: Callable[[str], str]
    batch: Callable[[list[str]], list[str]] | None
    signature: str


def _fixed(tokenizer: Tokenizer) -> Callable[[Config], Tokenizer]:
    return lambda config: tokenizer


def _mecab(setup: MecabSetup) -> Callable[[Config], Tokenizer]:
    def load(config: Config) -> Tokenizer:
        tagger = mecab_tokenizer(setup)
        return Tokenizer(tagger, tagger, tagger.batch, tagger.signature)

    return load


def _spm(config: Config) -> Tokenizer:
    assert config.spm_model is not None  # make_config requires it for these values
    model = spm_tokenizer(config.spm_model, config.tokenize)
    return Tokenizer(model, model, model.batch, SPM_MODELS[config.tokenize].signature)


#: ``tokenize`` knob value -> how to load its tokenizer for a config (MeCab dictionaries and
#: SentencePiece models are loaded on first use, once per process).
TOKENIZERS: dict[str, Callable[[Config], Tokenizer]] = {
    "none": _fixed(Tokenizer(_identity, _identity, _identity_batch, "none")),
    "13a": _fixed(Tokenizer(tokenize_13a, tokenize_13a_line, tokenize_13a_batch, "13a")),
    "intl": _fixed(Tokenizer(tokenize_intl, tokenize_intl, None, "intl")),
    "t2t": _fixed(Tokenizer(tokenize_t2t, tokenize_t2t, None, "t2t")),
    "mteval-intl": _fixed(
        Tokenizer(tokenize_mteval_intl, tokenize_mteval_intl, None, "mteval-intl")
    ),
    "char": _fixed(Tokenizer(tokenize_char, tokenize_char, None, "char")),
    "zh": _fixed(Tokenizer(tokenize_zh, tokenize_zh_line, tokenize_zh_batch, "zh")),
    "ja-mecab": _mecab(JA_MECAB),
    "ko-mecab": _mecab(KO_MECAB),
    "spm": _spm,
    "flores101": _spm,
    "flores200": _spm,
    "codexglue": _fixed(Tokenizer(tokenize_codexglue, tokenize_codexglue, None, "codexglue")),
    "parlai": _fixed(Tokenizer(tokenize_parlai, tokenize_parlai, None, "parlai")),
}


def load_tokenizer(config: Config) -> Tokenizer:
    """The tokenizer of ``config.tokenize`` (a missing optional dependency raises
    :class:`~bleu_impl.errors.DependencyError` naming the ``pip install`` that provides it)."""
    return TOKENIZERS[config.tokenize](config)


def tokenizer_signature(config: Config) -> str:
    """The tokenizer as sacrebleu's signature names it: with the MeCab version and dictionary
    (``ja-mecab-0.996-IPA``; the plain name if MeCab cannot be loaded here), ``flores101``
    for ``spm``."""
    try:
        return load_tokenizer(config).signature
    except BleuError:
        return config.tokenize
