"""Evaluator: the remembered scores equal scoring each config from scratch."""

from __future__ import annotations

from bleu_impl import CHOICES, BleuError, get_profile, make_config
from conformance.cases import load_fixtures
from conformance.engine.evaluator import Evaluator


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


def _settings(level: str):
    """Each profile as it is and with each of its tool's options moved (what identify's
    search scores), plus the generic profile with every knob moved."""
    from bleu_impl import PROFILES

    for name in sorted(PROFILES):
        prof = get_profile(name)
        options = prof.options or {k: None for k in CHOICES}
        yield name, prof.resolve({}, level)
        for knob, option in options.items():
            values = getattr(option, "values", None) or CHOICES.get(knob, ())
            for value in values:
                try:
                    yield name, prof.resolve({knob: value}, level)
                except BleuError:
                    continue


def test_predict_equals_a_fresh_outcome_under_every_profile() -> None:
    """One pool of scorers shared by every case, configs of every profile: each
    prediction is the outcome a fresh evaluation gives."""
    from conformance.cases import generate_cases
    from conformance.engine.evaluator import scorer_pool

    cases = [c for c in load_fixtures().cases if not c.config][:25] + generate_cases(6, 3)
    pool = scorer_pool()
    for case in cases:
        shared = Evaluator(case, pool)
        for profile, config in _settings(case.level):
            fresh = Evaluator(case).outcome(config, profile)[0]
            assert shared.predict(config) == fresh, (case.id, profile, config)
            assert shared.predict(config) == fresh  # remembered


def test_the_corpus_denominator_floor_is_scored() -> None:
    """``denominator_floor="corpus"`` (pytorch-ignite's max(1, l) on the sums) leaves the
    statistics as they are and changes the score: a remembered score of the same
    statistics without it must not be reused."""
    cases = [c for c in load_fixtures().cases if not c.config and c.id == "edge.short-2tok"]
    assert cases
    prof = get_profile("papineni2002")
    for case in cases:
        shared = Evaluator(case)
        for floor in ("none", "corpus", "none"):
            config = prof.resolve({"smoothing": "floor", "denominator_floor": floor}, case.level)
            assert shared.score(config) == Evaluator(case).outcome(config)[0], floor
