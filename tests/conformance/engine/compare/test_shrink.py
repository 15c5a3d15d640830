"""Shrinking generated disagreements: on a budget, deterministic, and quiet on stdout."""

from __future__ import annotations

import json

from conformance.cases import generate_cases
from conformance.cli import main
from conformance.engine import compare_cases
from conformance.engine.compare.batch import shrink_allowance

FAKE = "tests.conformance.fakes.impls"


def _json(capsys, *args: str) -> dict:
    assert main(["compare", "--format", "json", "-k", "no-such-case", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_shrunk_inputs_are_smaller_and_keep_the_cause(capsys) -> None:
    pairs = _json(capsys, "--generate", "10", "--seed", "2")["pairs"]
    shrunk = [p for p in pairs if p.get("minimal")]
    assert shrunk
    for pair in shrunk:
        assert 0 < pair["shrink"]["steps"] <= pair["shrink"]["budget"]
        assert not pair["shrink"].get("exhausted")
    cases = {c.id: c for c in generate_cases(10, 2)}
    for pair in shrunk:  # the minimal input, compared alone, gives the same cause
        size = sum(len(h.split()) for h in pair["minimal"]["hypotheses"])
        original = cases[pair["item"]]
        assert size <= sum(len(h.split()) for h in original.hypotheses)
        minimal = original.with_texts(pair["minimal"]["hypotheses"], pair["minimal"]["references"])
        (records,) = compare_cases(["bleu_impl", "nltk"], [minimal], {})
        assert records[0]["cause"] == pair["cause"]


def test_a_spent_budget_is_reported_in_the_pair_record() -> None:
    cases = generate_cases(12, 2)
    assert shrink_allowance(cases, 2, 30) == 2  # 30 candidate inputs shared by 12 cases
    records = [
        r
        for rs in compare_cases(["bleu_impl", "nltk"], cases, {}, shrink=True, shrink_budget=30)
        for r in rs
    ]
    spent = [r["shrink"] for r in records if "shrink" in r]
    assert spent and all(s["budget"] == 2 and s["steps"] <= 2 for s in spent)
    assert any(s.get("exhausted") for s in spent)


def test_jobs_do_not_change_shrunk_results(capsys) -> None:
    one = _json(capsys, "--generate", "8", "--seed", "5")
    two = _json(capsys, "--generate", "8", "--seed", "5", "--jobs", "2")
    assert any(p.get("minimal") for p in one["pairs"])
    assert one["pairs"] == two["pairs"]


def test_what_an_implementation_prints_never_reaches_the_report(capsys) -> None:
    """stdout carries the JSON report only, even when the implementation prints (a constant
    answer: most disagreements are unexplained, and shrinking them still ends)."""
    data = _json(capsys, "--impl", f"{FAKE}:chatty", "--impl", "bleu_impl", "--generate", "3")
    differing = [p for p in data["pairs"] if p["verdict"] == "differing"]
    assert any(p["cause"].startswith("unexplained") for p in differing)
    assert differing and all("shrink" in p for p in differing)


def test_the_command_notes_a_spent_budget_on_stderr(capsys) -> None:
    args = ["compare", "--format", "json", "-k", "no-such-case", "--generate", "12"]
    assert main([*args, "--seed", "2", "--shrink-budget", "30"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["pairs"]
    assert "shrinking stopped at its budget (2 candidate inputs)" in captured.err
