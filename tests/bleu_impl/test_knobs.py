"""Knob validation: every bad value is rejected with a message listing the valid ones."""

from __future__ import annotations

import pytest

import bleu_impl
from bleu_impl import CHOICES, KNOB_NAMES, KnobError
from bleu_impl.knobs import Config, make_config, normalize_knob


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
        ("weights", []),
        ("weights", [0.5, float("nan")]),
        ("epsilon", 0),
        ("k", -1),
        ("effective_order", "maybe"),
        ("scale", True),
        ("smoothing_value", -0.1),
    ],
)
def test_invalid_numbers_are_rejected(knob: str, value: object) -> None:
    with pytest.raises(KnobError, match=knob):
        normalize_knob(knob, value)


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
