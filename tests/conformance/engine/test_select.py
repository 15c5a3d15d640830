"""Case selection and expectation-key choice."""

from __future__ import annotations

from conformance.adapters.base import Capabilities
from conformance.cases import select_cases
from conformance.engine import candidate_keys

from ..helpers import mini


def test_keyword_and_tag_selection():
    cases = mini().cases
    assert [c.id for c in select_cases(cases, ["PARTIAL"])] == ["mini.partial"]
    assert [c.id for c in select_cases(cases, ["mini.e*"])] == [
        "mini.exact",
        "mini.empty-hypothesis",
    ]
    assert [c.id for c in select_cases(cases, tags=["smoothing"])] == ["mini.nltk-method1"]
    assert len(select_cases(cases)) == 4


def test_version_range_keys_follow_the_live_version():
    impls = {"nltk>=3.3": 0, "nltk>=3.6.6": 0, "nltk-3.2.2": 0}
    new = Capabilities(name="nltk", version="3.10.4", expect=("nltk",))
    assert candidate_keys(new, impls) == ["nltk>=3.6.6", "nltk>=3.3", "nltk"]
    old = Capabilities(name="nltk", version="3.5", expect=("nltk",))
    assert candidate_keys(old, impls) == ["nltk>=3.3", "nltk"]
    assert candidate_keys(new, impls, ["nltk-3.2.2"]) == ["nltk-3.2.2"]


def test_registry_root_is_found_above_the_fixture_files(tmp_path):
    from conformance.cases.load import registry_root

    (tmp_path / "implementations.yaml").write_text("implementations: {}\n")
    (tmp_path / "suite").mkdir()
    assert registry_root(tmp_path / "suite") == tmp_path.resolve()
    assert registry_root(tmp_path / "suite" / "cases.yaml") == tmp_path.resolve()
