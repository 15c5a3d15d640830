"""The runner: skip before sending, never hand over the expected answer, classification."""

from __future__ import annotations

import json

from conformance.adapters.base import Adapter, Capabilities
from conformance.engine import build_request, candidate_keys
from conformance.protocol import AdapterError, Answer, Failure, Request
from conformance.results.known_failures import KnownFailure

from ..helpers import mini, run


class Spy(Adapter):
    """Answers a fixed score and records every request it receives."""

    def __init__(self, score: float | None = 1.0, failure: Failure | None = None, **caps):
        self.capabilities = Capabilities(name="spy", expect=("papineni2002",), **caps)
        self.requests: list[Request] = []
        self.score, self.failure = score, failure

    def run(self, request: Request) -> Answer:
        self.requests.append(request)
        return Answer(score=self.score, failure=self.failure)


def test_request_never_carries_the_expected_answer():
    loaded = mini()
    for case in loaded.cases:
        for key, exp in case.expected.items():
            request = build_request(case, loaded.keys.get(key))
            text = json.dumps(request.to_json())
            assert case.id not in text
            if exp.score not in (None, 0.0, 1.0, 100.0):
                assert repr(exp.score) not in text
                assert f"{exp.score:.6f}"[:-1] not in text
            assert "expected" not in text


def test_request_carries_the_full_semantics_of_the_key_but_sends_only_set_knobs():
    loaded = mini()
    case = next(c for c in loaded.cases if c.id == "mini.exact")
    key = loaded.keys["multi-bleu"]
    request = build_request(case, key)
    assert request.semantics["split"] == "perl-bytes"
    assert request.semantics["missing_refs"] == "len-9999"
    assert dict(request.config) == {**key.knobs, **case.config}
    assert "semantics" not in request.to_json({})
    assert request.to_json(None)["config"]["split"] == "perl-bytes"  # "send every knob"
    # without a key (compare, identify) the same knobs are sent: a key without knobs of its
    # own changes nothing an implementation receives
    assert not key.knobs
    assert build_request(case).config == build_request(case, key).config


def test_skip_is_decided_before_anything_is_sent():
    spy = Spy(levels=frozenset({"corpus"}))
    results = run(spy, expect=("nltk>=3.3",))
    assert results["mini.nltk-method1"].outcome == "skip"
    assert "sentence-level" in results["mini.nltk-method1"].reason
    assert spy.requests == []


def test_unsupported_knob_is_skipped_with_the_reason():
    spy = Spy(knobs={"max_order": None}, native="papineni2002")
    results = run(spy, expect=("nltk>=3.3",))
    result = results["mini.nltk-method1"]
    assert result.outcome == "skip"
    assert "smoothing" in result.reason
    assert spy.requests == []


def test_fail_error_and_expected_error():
    results = run(Spy(score=0.5))
    assert results["mini.exact"].outcome == "fail"
    assert results["mini.empty-hypothesis"].outcome == "fail"  # expected 0.0

    failing = Spy(score=None, failure=Failure(kind="empty-hypothesis", message="dies"))
    results = run(failing, expect=("multi-bleu",))
    assert results["mini.empty-hypothesis"].outcome == "pass"
    assert results["mini.exact"].outcome == "error"  # a score was expected

    wrong_kind = Spy(score=None, failure=Failure(kind="empty-reference", message="dies"))
    results = run(wrong_kind, expect=("multi-bleu",))
    assert results["mini.empty-hypothesis"].outcome == "fail"
    assert results["mini.empty-hypothesis"].mismatches[0].field == "error"

    scored = run(Spy(score=0.0), expect=("multi-bleu",))
    assert scored["mini.empty-hypothesis"].outcome == "fail"


def test_tolerance_is_the_wider_of_case_and_printed_precision():
    # mini.partial: 0.4305867649816835 with abs 1e-12; a 4-decimal adapter may print 0.4306
    assert run(Spy(score=0.4306))["mini.partial"].outcome == "fail"
    assert run(Spy(score=0.4306, precision=4))["mini.partial"].outcome == "pass"
    assert run(Spy(score=0.4307, precision=4))["mini.partial"].outcome == "fail"
    result = run(Spy(score=0.4307, precision=4))["mini.partial"]
    assert result.mismatches[0].tolerance == 5e-05


def test_scale_conversion():
    # an adapter on the 0-100 scale checked against a 0-1 expectation
    assert run(Spy(score=100.0, scale=100))["mini.exact"].outcome == "pass"


def test_known_failures_xfail_fixed_changed():
    def kf(case: str, outcome: str | None = None) -> KnownFailure:
        return KnownFailure(implementation="sp*", case=case, reason="tracked", outcome=outcome)

    results = run(Spy(score=0.5), known=[kf("mini.part*")])
    assert results["mini.partial"].outcome == "xfail"
    assert results["mini.partial"].known_failure["reason"] == "tracked"
    assert results["mini.exact"].outcome == "fail"

    fixed = run(Spy(score=1.0), known=[kf("mini.exact")])
    assert fixed["mini.exact"].outcome == "fixed"

    changed = run(Spy(score=0.5), known=[kf("mini.exact", outcome="error")])
    assert changed["mini.exact"].outcome == "changed"

    by_node_id = run(Spy(score=0.5), known=[kf("*mini.yaml::mini.exact")])
    assert by_node_id["mini.exact"].outcome == "xfail"


class Buggy(Spy):
    def run(self, request: Request) -> Answer:
        raise KeyError("oops")


def test_a_buggy_adapter_errors_without_stopping_the_run():
    results = run(Buggy())
    assert results["mini.exact"].outcome == "error"
    assert "adapter bug: KeyError" in results["mini.exact"].reason
    assert results["mini.partial"].outcome == "error"


class TimesOutWhenAsked(Spy):
    """A worker that does not answer even whether it can express a case (--timeout 1e-9)."""

    def check(self, request: Request) -> str | None:
        raise AdapterError("timeout", "no answer within 1e-09s (the worker was killed)", "tail")


def test_an_adapter_error_while_checking_is_that_error_not_an_adapter_bug():
    results = run(TimesOutWhenAsked())
    result = results["mini.exact"]
    assert result.outcome == "error"
    assert result.reason == "timeout: no answer within 1e-09s (the worker was killed)"
    assert result.stderr == "tail"


def test_version_range_keys_follow_the_live_version():
    impls = {"nltk>=3.3": 0, "nltk>=3.6.6": 0, "nltk-3.2.2": 0}
    new = Capabilities(name="nltk", version="3.10.4", expect=("nltk",))
    assert candidate_keys(new, impls) == ["nltk>=3.6.6", "nltk>=3.3", "nltk"]
    old = Capabilities(name="nltk", version="3.5", expect=("nltk",))
    assert candidate_keys(old, impls) == ["nltk>=3.3", "nltk"]
    assert candidate_keys(new, impls, ["nltk-3.2.2"]) == ["nltk-3.2.2"]


def test_recorded_precisions_are_compared_with_the_answers_counts_over_totals():
    """NLTK 3.1's doctests record only p_n (2/7 for 'the' x7 against 'the cat is on the mat'):
    an answer with counts and totals is checked on their ratio, never passed unchecked."""
    from conformance.cases import Expectation
    from conformance.engine.verify import classify_answer

    exp = Expectation(key="nltk-3.1", precisions=(0.2857142857142857,))
    caps = Capabilities(name="spy")
    assert classify_answer(exp, Answer(counts=(2,), totals=(7,)), caps)[0] == "pass"
    outcome, why, mismatches = classify_answer(exp, Answer(counts=(3,), totals=(7,)), caps)
    assert outcome == "fail" and mismatches[0].field == "precisions", why
    assert classify_answer(exp, Answer(counts=(2, 1), totals=(7, 6)), caps)[0] == "fail"
    assert classify_answer(exp, Answer(score=0.2857142857142857), caps)[0] == "unchecked"
