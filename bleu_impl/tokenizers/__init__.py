"""Turn a segment into tokens according to the ``tokenize``, ``split``, ``line_prep`` and
``lowercase``/``lowercase_stage`` knobs (:class:`Pipeline`); one module per step or tokenizer."""

from .pipeline import ROLES, TOKENIZERS, Pipeline, make_tokenizer, pipelines

__all__ = ["ROLES", "TOKENIZERS", "Pipeline", "make_tokenizer", "pipelines"]
