"""Pipeline.line and Pipeline.batch (the fast tokenizers) equal Pipeline.segment."""

from __future__ import annotations

import itertools

import pytest

from bleu_impl import Pipeline
from bleu_impl.knobs import CHOICES, make_config

from ..randomcorpus import random_corpus


@pytest.mark.parametrize("config_knobs", [{}, {"tokenize": "13a", "lowercase": "unicode"}])
def test_batch_and_line_equal_segment(config_knobs) -> None:
    hyps, _ = random_corpus(21, segments=200)
    for split, line_prep in itertools.product(CHOICES["split"], CHOICES["line_prep"]):
        config = make_config({**config_knobs, "split": split, "line_prep": line_prep})
        reference = [list(Pipeline(config).segment(h)) for h in hyps]
        assert Pipeline(config).batch(hyps) == reference
        assert [Pipeline(config).line(h) for h in hyps] == reference
