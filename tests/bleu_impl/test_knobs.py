"""Knob validation: every bad value is rejected with a message listing the valid ones."""

from __future__ import annotations

import dataclasses

import pytest

import bleu_impl
from bleu_impl import CHOICES, KnobError
from bleu_impl.api import iter_segment_stats
from bleu_impl.knobs import KNOB_NAMES, STATS_KNOBS, Config, make_config, normalize_knob

from .randomcorpus import random_corpus


@pytest.mark.parametrize("knob", sorted(CHOICES))
def test_enumerated_knob_rejects_unknown_value_and_lists_valid(knob: str) -> None:
    with pytest.raises(KnobError) as err:
        normalize_knob(knob, "no-such-value")
    for valid in CHOICES[knob]:
        if isinstance(valid, str):
            assert valid in str(err.value)


def test_unknown_knob_lists_all_knobs() -> None:
    with pytest.raises(KnobError) as err:
        bleu_impl.corpus_bleu(["a"], [["a"]], smoothin="exp")
    assert "unknown knob 'smoothin'" in str(err.value)
    assert all(name in str(err.value) for name in KNOB_NAMES)


@pytest.mark.parametrize(
    ("knob", "value"),
    [
        ("max_order", 0),
        ("max_order", 2.5),
        ("max_order", True),
        ("max_order", 1_000_000_000),  # a typo: one column of statistics per order
        ("max_order", 10**26),
        ("max_order", "9" * 30),
        ("weights", []),
        ("weights", [0.01] * 101),
        ("weights", [0.5, float("nan")]),
        ("epsilon", 0),
        ("k", -1),
        ("effective_order", "maybe"),
        ("scale", True),
        ("smoothing_value", -0.1),
        ("weights", "abc"),  # a string is comma-separated numbers (--knob weights=...)
        ("weights", "0.5,,0.5"),
    ],
)
def test_invalid_numbers_are_rejected(knob: str, value: object) -> None:
    with pytest.raises(KnobError, match=knob) as err:
        normalize_knob(knob, value)
    assert len(str(err.value)) < 200  # a huge value is shown clipped


def test_lowercase_true_means_unicode() -> None:
    assert make_config({"lowercase": True}).lowercase == "unicode"
    assert make_config({"lowercase": False}).lowercase is False


def test_weights_set_max_order_and_conflicts_are_errors() -> None:
    assert make_config({"weights": (0.5, 0.5)}).max_order == 2
    with pytest.raises(KnobError, match="disagree"):
        make_config({"weights": (0.5, 0.5), "max_order": 4})


def test_effective_order_and_absent_order_are_one_setting() -> None:
    assert make_config({"effective_order": True}).absent_order == "drop"
    assert make_config({"absent_order": "drop"}).effective_order is True
    with pytest.raises(KnobError):
        make_config({"effective_order": True, "absent_order": "zero"})


def test_default_config_is_the_paper() -> None:
    config = bleu_impl.get_profile("papineni2002").resolve({})
    assert config == Config(tokenize="none", ref_length="closest", smoothing="none")
    assert config.order_weights == (0.25, 0.25, 0.25, 0.25)


#: Values of the knobs outside STATS_KNOBS to try; each must leave the statistics alone.
SCORING_VALUES = {
    **{knob: values for knob, values in CHOICES.items() if knob not in STATS_KNOBS},
    "weights": [None, (0.1, 0.2, 0.3, 0.4), (1.0, 0.0, 0.0, 0.0)],
    "smoothing_value": [None, 0.0, 0.5],
    "epsilon": [0.1, 1.0],
    "alpha": [5.0, 0.5],
    "k": [5.0, 1.0],
    "add_k_from": [2, 1, 3],
    "effective_order": [False, True],
    "auto_reweigh": [False, True],
}


def test_stats_knobs_are_the_knobs_the_statistics_depend_on() -> None:
    assert set(SCORING_VALUES) == set(KNOB_NAMES) - set(STATS_KNOBS)
    hyps, refs = random_corpus(7)
    bases = [
        make_config({"tokenize": "13a"}),
        bleu_impl.get_profile("nltk").resolve({"smoothing": "nltk-method5"}),
    ]
    for base in bases:
        expected = bleu_impl.corpus_stats(hyps, refs, base)
        for knob, values in SCORING_VALUES.items():
            for value in values:
                config = dataclasses.replace(base, **{knob: value})
                assert bleu_impl.corpus_stats(hyps, refs, config) == expected, (knob, value)
                assert list(iter_segment_stats(hyps, refs, config)) == list(
                    iter_segment_stats(hyps, refs, base)
                ), (knob, value)
