"""Safe YAML reading with line numbers and duplicate-key detection."""

from __future__ import annotations

from conformance.cases.yamlnodes import read_yaml


def test_lines_of_nested_paths() -> None:
    doc = read_yaml("a: 1\nb:\n  - x: 1\n    y: [1, 2]\n  - z: 3\n")
    assert doc.errors == []
    assert doc.data == {"a": 1, "b": [{"x": 1, "y": [1, 2]}, {"z": 3}]}
    assert doc.line_of(("b", 0)) == 3
    assert doc.line_of(("b", 0, "y")) == 4
    assert doc.line_of(("b", 1, "z")) == 5
    assert doc.line_of(("b", 1, "missing")) == 5


def test_duplicate_key_and_syntax_error() -> None:
    assert read_yaml("a: 1\na: 2\n").errors == [
        (2, "yaml-duplicate-key", "duplicate key 'a' (first on line 1)")
    ]
    doc = read_yaml("a: [1,\n")
    assert doc.data is None
    assert doc.errors[0][1] == "yaml-syntax"


def test_unsafe_tags_are_rejected() -> None:
    doc = read_yaml("a: !!python/object/apply:os.system ['echo hi']\n")
    assert doc.data is None
    assert doc.errors and doc.errors[0][1] == "yaml-syntax"
