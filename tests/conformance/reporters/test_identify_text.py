"""identify's screen: the verdict first, candidates numbered, evidence columns by number."""

from __future__ import annotations

from conformance.reporters import View, render
from conformance.results.records import Candidate, End, Header, Identification
from conformance.results.report import Report

NEAREST = Candidate("sacrebleu", (("effective_order", False),), 224, 258)
GENERIC = Candidate(
    "papineni2002",
    (("smoothing", "exp"), ("tokenize", "13a")),
    224,
    258,
    based_on="papineni2002",
    changes=(("smoothing", "exp"), ("tokenize", "13a")),
)
BEYOND = Candidate(
    "papineni2002",
    (("lowercase", True), ("tokenize", "13a")),
    200,
    258,
    based_on="sacrebleu",
    changes=(("lowercase", True),),
)


def _screen() -> list[str]:
    found = Identification(
        "mine",
        "1.0",
        (NEAREST, GENERIC, BEYOND),
        answered=258,
        skipped=0,
        errored=0,
        evidence=(
            {"item": "case-1", "observed": "0.41", NEAREST.label: "0.33", GENERIC.label: "0.33"},
        ),
        run_as="--as sacrebleu --knob effective_order=false",
        checked={"fail": 56, "pass": 379},
    )
    report = Report(Header("identify"), identification=found, end=End())
    return render(report, "table", View(width=80)).splitlines()


def test_the_screen_opens_with_the_verdict():
    assert _screen()[0].startswith("no profile matches mine. Nearest: sacrebleu + effective")


def test_candidates_are_numbered_and_the_evidence_names_them_by_number():
    lines = _screen()
    assert any(line.startswith("#1  sacrebleu + effective_order=off") for line in lines)
    evidence = lines[next(i for i, line in enumerate(lines) if line.startswith("inputs")) :]
    assert "#1" in "\n".join(evidence) and "#2" in "\n".join(evidence)
    assert NEAREST.label not in "\n".join(evidence)


def test_a_generic_label_names_the_setting_it_started_from_and_the_knobs_that_give_it():
    assert GENERIC.label == "papineni2002 + smoothing=exp, tokenize=13a"
    assert BEYOND.label == (
        "sacrebleu + lowercase=on (no option of its tool: papineni2002 + lowercase=on, "
        "tokenize=13a)"
    )
