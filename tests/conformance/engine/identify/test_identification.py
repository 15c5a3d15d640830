"""``identify`` names the right profile for live NLTK, live sacrebleu and a multi-bleu clone."""

from __future__ import annotations

import json

import pytest

from conformance.cli import main


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "profile"),
    [
        ("nltk", "nltk"),
        ("sacrebleu", "sacrebleu"),
        ("tests.conformance.fakes.multibleu_like:multibleu_like", "multi-bleu"),
    ],
)
def test_identify_names_the_profile(spec: str, profile: str, capsys) -> None:
    assert main(["identify", "--impl", spec, "--format", "json", "--generate", "40"]) == 0
    data = json.loads(capsys.readouterr().out)
    best = data["candidates"][0]
    assert best["profile"] == profile and best["overrides"] == {}
    assert best["share"] == 1.0
    runner_up = data["candidates"][1]
    assert runner_up["share"] < 1.0
    assert data["evidence"], "the evidence lists inputs separating the candidates"


def test_errors_and_failures_are_never_evidence(capsys) -> None:
    """An implementation that always raises matches no profile (it used to match one 100%)."""
    spec = "tests.conformance.fakes.impls:crash"
    assert main(["identify", "--impl", spec, "-k", "paper", "--generate", "5"]) == 0
    out = capsys.readouterr().out
    assert "no profile matches" in out
    assert main(["identify", "--impl", spec, "-k", "paper", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["candidates"] == []


def test_identify_selects_cases_like_run(capsys) -> None:
    assert main(["identify", "--impl", "nltk", "-k", "seed003", "--generate", "0"]) == 0
    out = capsys.readouterr().out
    assert "answers" in out
    assert main(["identify", "--impl", "nltk", "-k", "no-such-case", "--generate", "0"]) == 2


@pytest.mark.slow
def test_candidates_are_settings_their_tool_can_have(capsys) -> None:
    """A refinement only ever changes an option of the profile's tool."""
    from bleu_impl import get_profile

    spec = "tests.conformance.fakes.impls:swap_references"
    assert main(["identify", "--impl", spec, "--format", "json", "--generate", "20"]) == 0
    candidates = json.loads(capsys.readouterr().out)["candidates"]
    assert candidates
    for candidate in candidates:
        options = get_profile(candidate["profile"]).options
        if options is not None:
            assert set(candidate["overrides"]) <= set(options), candidate


def test_a_match_names_the_answers_run_as_does_not_check(capsys) -> None:
    """texar's copy of tensorflow/nmt's BLEU passes ``run --as google-nmt`` on every fixture
    case but answers 0 for an empty system where google-nmt divides by zero: a generated
    input shows it, and the verdict's findings say so with the input."""
    spec = "tests.conformance.fakes.nmt_like:nmt_like"
    assert main(["identify", "--impl", spec, "--format", "json", "-q"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "match" and data["candidates"][0]["profile"] == "google-nmt"
    [finding] = [f for f in data["findings"] if "does not check" in f]
    assert "generated" in finding and "0.0 where google-nmt gives error:empty-hypothesis" in finding
