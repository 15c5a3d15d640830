"""Case selection by keyword, glob and tag; the registry root above fixture files."""

from __future__ import annotations

from conformance.cases import select_cases

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


def test_registry_root_is_found_above_the_fixture_files(tmp_path):
    from conformance.cases.load import registry_root

    (tmp_path / "implementations.yaml").write_text("implementations: {}\n")
    (tmp_path / "suite").mkdir()
    assert registry_root(tmp_path / "suite") == tmp_path.resolve()
    assert registry_root(tmp_path / "suite" / "cases.yaml") == tmp_path.resolve()
