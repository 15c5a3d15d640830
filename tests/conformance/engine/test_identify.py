"""``identify`` names the right profile for live NLTK, live sacrebleu and a multi-bleu clone."""

from __future__ import annotations

import json

import pytest

from conformance.cli import main


@pytest.mark.parametrize(
    ("spec", "profile"),
    [
        ("nltk", "nltk"),
        ("sacrebleu", "sacrebleu"),
        ("tests.conformance.engine.multibleu_like:multibleu_like", "multi-bleu"),
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
