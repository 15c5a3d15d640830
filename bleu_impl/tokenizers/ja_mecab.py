"""The ``ja-mecab`` tokenizer: MeCab 0.996 with the IPA dictionary, as sacrebleu 2.x
(``TokenizerJaMecab``; ``pip install 'bleu-conformance[ja]'`` = mecab-python3 + ipadic,
sacrebleu's own ``ja`` extra)."""

from __future__ import annotations

from .mecab import MecabSetup

__all__ = ["JA_MECAB"]

#: sacrebleu asserts ``dictionary_info().size == 392126`` (the IPA dictionary).
JA_MECAB = MecabSetup(
    name="ja-mecab",
    binding="MeCab",
    dictionary="ipadic",
    dictionary_size=392126,
    suffix="IPA",
    extra="ja",
)
