"""Evaluator: the remembered scores equal scoring each config from scratch."""

from __future__ import annotations

from bleu_impl import CHOICES, BleuError, get_profile, make_config
from conformance.cases import load_fixtures
from conformance.engine.evaluate import Evaluator


def _configs(level: str):
    base = get_profile("papineni2002").resolve({}, level)
    values = base.as_dict()
    for knob, choices in CHOICES.items():
        for value in choices:
            try:
                yield make_config({**values, knob: value, "weights": None})
            except BleuError:
                continue


def test_score_and_outcome_equal_a_fresh_evaluation() -> None:
    cases = [c for c in load_fixtures().cases if not c.config][:25]
    assert cases
    for case in cases:
        shared = Evaluator(case)
        for config in _configs(case.level):
            for profile in ("papineni2002", "nltk"):
                fresh = Evaluator(case).outcome(config, profile)
                assert shared.score(config, profile) == fresh[0], (case.id, config)
                assert shared.outcome(config, profile) == fresh
