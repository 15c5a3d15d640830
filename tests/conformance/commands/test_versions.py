"""``versions``: releases run live in their cached environments, grouped into behaviour
classes named by the profile that reproduces them.

Two small releases (NLTK 3.2.5 and 3.10.4, shared with tests/conformance/adapters/
test_releases.py through the release cache) on a few fixture cases: the documented change
between them (3.2.2-3.2.5 truncate a zero-match order away, 3.3+ put float-min there) must
come out as two classes, nltk-3.2.2 and nltk, separated by a case with both numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

from conformance.cli import main
from conformance.results.log import read_log


def test_two_releases_are_two_classes_named_by_their_profiles(capsys, tmp_path):
    log = tmp_path / "v.jsonl"
    argv = ["versions", "nltk", "--release", "3.2.5", "--release", "3.10.4", "-k", "edge.exact"]
    status = main([*argv, "--generate", "0", "--quiet", "--format", "json", "--output", str(log)])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert [r["release"] for r in out["releases"]] == ["3.2.5", "3.10.4"]
    assert out["releases"][0]["version"].startswith("3.2.5 (shims: ")
    old, new = out["behaviours"]
    assert (old["releases"], old["profile"]) == (["3.2.5"], "nltk-3.2.2")
    assert (new["releases"], new["profile"]) == (["3.10.4"], "nltk")
    assert old["agreed"] == old["compared"] > 0 and new["agreed"] == new["compared"] > 0
    # a short exact match: 3.2.5 drops the missing orders (1.0); 3.10.4 multiplies in float-min
    assert new["case"] and new["before"]["score"] == 1.0 and new["after"]["score"] < 1e-70
    report = read_log(log)
    assert [b.releases for b in report.behaviours] == [("3.2.5",), ("3.10.4",)]
    assert set(report.releases[0].answers) == set(report.releases[1].answers)


def test_a_release_that_cannot_install_is_a_class_with_the_reason(capsys):
    argv = ["versions", "nltk", "--release", "0.0.999", "-k", "edge.exact", "--format", "json"]
    status = main([*argv, "--generate", "0", "--quiet"])
    (only,) = json.loads(capsys.readouterr().out)["behaviours"]
    assert status == 0
    assert only["error"].startswith("cannot install nltk==0.0.999: ")
    assert "unsatisfiable" in only["error"]  # the installer's own words


def test_the_range_must_hold_a_release(capsys):
    argv = ["versions", "nltk", "--release", "3.2.5", "--from", "3.3", "--quiet"]
    assert main(argv) == 2
    assert "no release of nltk in that range" in capsys.readouterr().err


def test_a_release_that_cannot_run_does_not_split_a_class():
    """NLTK 3.9 cannot import without a downloaded corpus; 3.8.1 and 3.9.1 answer alike."""
    from conformance.engine.versions import behaviour_classes
    from conformance.results.records import Release, Side

    same = {"c": Side("answered", score=0.5)}
    records = [
        Release("nltk", "3.8.1", answers=same),
        Release("nltk", "3.9", error="LookupError: Resource wordnet not found."),
        Release("nltk", "3.9.1", answers=same),
    ]
    classes = behaviour_classes(records, [], {})
    assert [c.releases for c in classes] == [("3.8.1", "3.9.1"), ("3.9",)]


def test_release_numbers_compare_as_pip_does():
    from conformance.adapters.libraries import release_key

    assert release_key("3.3.0") == release_key("3.3")
    assert release_key("3.10.4") > release_key("3.9.4") > release_key("3.9")


def test_a_segment_without_reference_scores_alike_in_sacrebleu_and_its_profile():
    """sacrebleu 2.6 scores an empty hypothesis without any reference with ``ref_len = -1``
    (score 0 alone); the profile answers the same."""
    from conformance.adapters import make_adapter
    from conformance.cases import load_fixtures
    from conformance.engine.asking import ask, build_request
    from conformance.engine.compare.pairs import side_of
    from conformance.engine.versions import behaviour_classes
    from conformance.results.records import Release

    fixtures = Path(__file__).parents[3] / "fixtures"
    loaded = load_fixtures([fixtures / "multi-bleu" / "perl-corpora.yaml"])
    (case,) = [c for c in loaded.cases if c.id == "multibleu.gen.12-0106"]
    reply = ask(make_adapter("sacrebleu"), build_request(case))
    live = side_of(reply, reply.outcome(100))
    assert (live.failure, live.score, reply.answer.ref_len) == (None, 0.0, -1)
    (only,) = behaviour_classes(
        [Release("sacrebleu", "2.6.0", answers={case.id: live})], [case], {}
    )
    assert (only.profile, only.agreed, only.compared) == ("sacrebleu", 1, 1)
