"""The SentencePiece models behind sacrebleu 2.x's ``spm``, ``flores101`` and ``flores200``
tokenizers (``SPM_MODELS`` in sacrebleu/tokenizers/tokenizer_spm.py).

sacrebleu downloads the model on first use to ``$SACREBLEU/models/<file>`` (default
``~/.sacrebleu/models``); bleu_impl never downloads: the ``spm_model`` knob names the file.
``spm`` is sacrebleu's deprecated alias of ``flores101`` (same model, signature
``flores101``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["SPM_MODELS", "SpmModel", "sacrebleu_model_path"]


@dataclass(frozen=True)
class SpmModel:
    """A ``tokenize`` value's model: its name in sacrebleu's signature, its download URL and
    the file name sacrebleu stores it under."""

    signature: str
    url: str

    @property
    def file_name(self) -> str:
        return self.url.rsplit("/", 1)[-1]


_FLORES101 = SpmModel(
    "flores101",
    "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
)

#: ``tokenize`` value -> its model, as in sacrebleu 2.6.0.
SPM_MODELS: dict[str, SpmModel] = {
    "spm": _FLORES101,
    "flores101": _FLORES101,
    "flores200": SpmModel("flores200", "https://tinyurl.com/flores200sacrebleuspm"),
}


def sacrebleu_model_path(tokenize: str) -> str:
    """Where sacrebleu reads (and first downloads) the model of ``tokenize``."""
    home = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))
    return os.path.join(home, "models", SPM_MODELS[tokenize].file_name)
