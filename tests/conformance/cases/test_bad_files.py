"""Each broken example under bad/ is reported with the right file, line, case id and rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cases import load_fixtures
from conformance.cases.implementations import BUNDLED_ROOT

BAD = Path(__file__).parent / "bad"

#: file -> every (line, case id, rule) the loader must report, and nothing else.
EXPECTED: dict[str, set[tuple[int, str, str]]] = {
    "yaml_syntax.yaml": {(19, "", "yaml-syntax")},
    "yaml_duplicate_key.yaml": {(9, "bad.yaml-duplicate-key", "yaml-duplicate-key")},
    "schema_not_a_mapping.yaml": {(2, "", "schema")},
    "schema_unknown_key.yaml": {(4, "bad.schema-unknown-key", "schema")},
    "schema_bad_level.yaml": {(8, "bad.schema-bad-level", "schema")},
    "schema_expectation_key.yaml": {(16, "bad.schema-expectation-key", "schema")},
    "duplicate_id.yaml": {(19, "bad.duplicate-id", "duplicate-id")},
    "unknown_tag.yaml": {(7, "bad.unknown-tag", "unknown-tag")},
    "unknown_knob.yaml": {(9, "bad.unknown-knob", "unknown-knob")},
    "invalid_knob.yaml": {(9, "bad.invalid-knob", "invalid-knob")},
    "invalid_weights.yaml": {(9, "bad.invalid-weights", "invalid-knob")},
    "invalid_config.yaml": {(9, "bad.invalid-config", "invalid-config")},
    "unknown_implementation.yaml": {(16, "bad.unknown-implementation", "unknown-implementation")},
    "input_empty.yaml": {(12, "bad.input-empty", "input-empty")},
    "input_format.yaml": {(13, "bad.input-format", "input-format")},
    "input_level.yaml": {(12, "bad.input-level", "input-level")},
    "input_no_references.yaml": {(13, "bad.input-no-references", "input-no-references")},
    "input_missing_reference.yaml": {
        (13, "bad.input-missing-reference", "input-missing-reference")
    },
    "input_ragged.yaml": {(12, "bad.input-ragged", "input-ragged")},
    "input_empty_text.yaml": {(13, "bad.input-empty-text", "input-empty-text")},
    "input_token_whitespace.yaml": {(13, "bad.input-token-whitespace", "input-token-whitespace")},
    "expected_empty.yaml": {(4, "bad.expected-empty", "expected-empty")},
    "expected_observe_only.yaml": {(7, "bad.expected-observe-only", "expected-observe-only")},
    "expectation_conflict.yaml": {(16, "bad.expectation-conflict", "expectation-conflict")},
    "expectation_empty.yaml": {(16, "bad.expectation-empty", "expectation-empty")},
    "tolerance_missing.yaml": {(16, "bad.tolerance-missing", "tolerance-missing")},
    "score_range.yaml": {(16, "bad.score-range", "score-range")},
    "printed_format.yaml": {(19, "bad.printed-format", "printed-format")},
    "printed_inconsistent.yaml": {(19, "bad.printed-inconsistent", "printed-inconsistent")},
    "config_conflict.yaml": {(16, "bad.config-conflict", "config-conflict")},
    "counts_shape.yaml": {(19, "bad.counts-shape", "counts-shape")},
    "bp_inconsistent.yaml": {(19, "bad.bp-inconsistent", "bp-inconsistent")},
    "score_inconsistent.yaml": {(19, "bad.score-inconsistent", "score-inconsistent")},
    "provenance.yaml": {(19, "bad.provenance", "provenance")},
    "precisions_inconsistent.yaml": {
        (19, "bad.precisions-inconsistent", "precisions-inconsistent")
    },
    "multiple_problems.yaml": {
        (7, "bad.multiple-problems", "unknown-tag"),
        (9, "bad.multiple-problems", "unknown-knob"),
        (22, "bad.multiple-problems-2", "unknown-tag"),
        (24, "bad.multiple-problems-2", "unknown-knob"),
        (31, "bad.multiple-problems-2", "unknown-implementation"),
    },
}


def test_every_bad_file_is_listed() -> None:
    assert {p.name for p in BAD.glob("*.yaml")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_file_reports_rule_file_and_line(name: str) -> None:
    result = load_fixtures([BAD / name])
    assert not result.ok
    found = {(p.line, p.case_id, p.rule) for p in result.problems}
    assert found == EXPECTED[name]
    for problem in result.problems:
        assert Path(problem.file).name == name
        assert problem.message
        assert problem.location.endswith(f"{name}:{problem.line}")


def test_whole_bad_directory_reports_every_file_without_stopping() -> None:
    result = load_fixtures([BAD])
    files = {Path(p.file).name for p in result.problems}
    assert files == set(EXPECTED)
    assert len(result.problems) >= sum(len(v) for v in EXPECTED.values())


def test_messages_are_precise() -> None:
    by_file = {Path(p.file).name: p for p in load_fixtures([BAD]).problems}
    assert "'shiny'" in by_file["unknown_tag.yaml"].message
    assert "'smoothness'" in by_file["unknown_knob.yaml"].message
    assert "bleu-9000" in by_file["unknown_implementation.yaml"].message
    assert "first on line 8" in by_file["yaml_duplicate_key.yaml"].message
    assert "line 13" in by_file["yaml_syntax.yaml"].message
    assert "already used at" in by_file["duplicate_id.yaml"].message
    assert "55.0" in by_file["score_inconsistent.yaml"].message
    assert "'50.47'" in by_file["printed_inconsistent.yaml"].message
    assert "lowercase" in by_file["config_conflict.yaml"].message


def _root_copy(tmp_path: Path) -> Path:
    """A registry root with the bundled schema and tags (implementations.yaml left to write)."""
    root = tmp_path / "root"
    (root / "schema").mkdir(parents=True)
    for name in ("tags.yaml", "schema/case-file.schema.json"):
        (root / name).write_bytes((BUNDLED_ROOT / name).read_bytes())
    return root


def test_broken_registry_entries_are_reported(tmp_path: Path) -> None:
    root = _root_copy(tmp_path)
    (root / "implementations.yaml").write_text(
        "implementations:\n"
        "  good:\n"
        "    {tool: t, version: v, invocation: i, scale: 1, printed_decimals: null,\n"
        "     profile: papineni2002, knobs: {}}\n"
        "  no-such-profile:\n"
        "    {tool: t, version: v, invocation: i, scale: 1, printed_decimals: 4,\n"
        "     profile: nope, knobs: {}}\n"
        "  missing-fields:\n"
        "    {tool: t}\n",
        encoding="utf-8",
    )
    result = load_fixtures([tmp_path / "none"], root=root)
    found = {(p.line, p.case_id, p.rule) for p in result.problems}
    assert (5, "no-such-profile", "unknown-profile") in found
    assert (8, "missing-fields", "registry") in found
    assert set(result.keys) == {"good", "no-such-profile"}


def test_unreadable_case_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("suite: caf\xe9\n".encode("latin-1"))
    result = load_fixtures([path])
    assert [(p.rule, Path(p.file).name) for p in result.problems] == [("file", "latin1.yaml")]
