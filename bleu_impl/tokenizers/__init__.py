"""Turn a segment into tokens according to the ``tokenize``, ``split``, ``line_prep`` and
``lowercase`` knobs (:class:`Pipeline`); one module per step or tokenizer."""

from .pipeline import TOKENIZERS, Pipeline, make_tokenizer

__all__ = ["TOKENIZERS", "Pipeline", "make_tokenizer"]
