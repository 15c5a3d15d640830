"""Fault injection: hostile fixture files and fixture folders. Each is a problem with its
file, line and rule; one bad file never stops validate, run or compare for the others, and
a run with a problem in its fixtures exits 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.cases import load_fixtures
from conformance.cases.implementations import BUNDLED_ROOT

from ..helpers import MINI
from .common import cli

GOOD_IDS = {"mini.exact", "mini.partial", "mini.empty-hypothesis", "mini.nltk-method1"}
TEXT = MINI.read_text(encoding="utf-8").replace("id: mini.", "id: hostile.")  # ids stay unique
FIRST_TOLERANCE = "tolerance: {abs: 1.0e-12}"


def _laughs() -> str:
    """The 'billion laughs': nine aliases per level, nine levels (10^9 leaves)."""
    text = 'l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
    for level in range(1, 10):
        text += f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * 9)}]\n"
    return text


HOSTILE = {
    "nan-tolerance": (TEXT.replace(FIRST_TOLERANCE, "tolerance: {abs: .nan}", 1), "non-finite"),
    "inf-tolerance": (TEXT.replace(FIRST_TOLERANCE, "tolerance: {abs: .inf}", 1), "non-finite"),
    "overflowing-tolerance": (
        TEXT.replace(FIRST_TOLERANCE, "tolerance: {abs: 1.0e+400}", 1),
        "non-finite",
    ),
    "huge-relative-tolerance": (
        TEXT.replace(FIRST_TOLERANCE, "tolerance: {rel: 1.0e+300}", 1),
        "tolerance-too-wide",
    ),
    "nan-bp": (TEXT.replace("bp: 1.0", "bp: .nan", 1), "non-finite"),
    "inf-ref-len": (TEXT.replace("ref_len: 6", "ref_len: .inf", 1), "non-finite"),
    "400-digit-score": (TEXT.replace("score: 1.0\n", f"score: {'9' * 400}\n", 1), "non-finite"),
    "nul-byte": (TEXT.replace("the cat sat on the mat", "the cat\0 sat", 1), "yaml-syntax"),
    "recursive-alias": (
        TEXT.replace("tags: [exact-match, multi-reference]", "tags: &a [*a]", 1),
        "yaml-alias",
    ),
    "deep-nesting": (
        TEXT.replace("config: {}", "config: " + "[" * 1000 + "]" * 1000, 1),
        "yaml-depth",
    ),
    "billion-laughs": (_laughs(), "yaml-alias"),
    # few nodes, much text: 100 aliases of a 20,000-character string carry 2 MB
    "text-carried-by-aliases": (
        f"big: &b {'x' * 20_000}\nrefs: [{', '.join(['*b'] * 100)}]\n",
        "yaml-alias",
    ),
    "max-order-text": (TEXT.replace("config: {}", "config: {max_order: '4'}", 1), "invalid-knob"),
}


def _library(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "cases"
    folder.mkdir()
    shutil.copy(MINI, folder / "good.yaml")
    (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_is_one_problem_with_its_line_and_the_rest_loads(tmp_path, name):
    text, rule = HOSTILE[name]
    folder = _library(tmp_path, name, text)
    loaded = load_fixtures([folder])
    mine = [p for p in loaded.problems if p.file.endswith(f"{name}.yaml")]
    assert [p.rule for p in mine] == [rule], mine
    assert mine[0].line > 0
    assert not [p for p in loaded.problems if p.file.endswith("good.yaml")]
    assert {c.id for c in loaded.cases if c.file.endswith("good.yaml")} >= GOOD_IDS


@pytest.mark.parametrize("name", ["nul-byte", "billion-laughs", "inf-tolerance"])
def test_validate_run_and_compare_go_on_past_a_hostile_file(capsys, tmp_path, name):
    text, rule = HOSTILE[name]
    folder = _library(tmp_path, name, text)
    status, out, _ = cli(capsys, "validate", str(folder), "--format", "json")
    assert status == 1
    assert rule in json.loads(out)["summary"]["problems_by_rule"]
    status, out, err = cli(
        capsys, "run", "--fixtures", str(folder), "--impl", "bleu_impl", "--format", "json"
    )
    assert status == 2  # the good cases ran, but the fixtures have a problem
    report = json.loads(out)
    assert {r["case_id"] for r in report["results"]} >= GOOD_IDS - {"mini.nltk-method1"}
    assert rule in {p["rule"] for p in report["problems"]} and "fixture problem" in err
    status, out, _ = cli(
        capsys, "compare", "--fixtures", str(folder), "--impl", "bleu_impl", "--impl",
        "bleu_impl:nltk", "--format", "json",
    )  # fmt: skip
    assert status == 2
    assert {p["item"] for p in json.loads(out)["pairs"]} >= GOOD_IDS - {"mini.nltk-method1"}


def test_run_with_a_missing_or_invalid_file_next_to_good_ones_exits_2(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("cases: [\n", encoding="utf-8")
    status, out, err = cli(
        capsys, "run", "--impl", "bleu_impl", "--fixtures", str(MINI), "--fixtures", str(bad),
        "--fixtures", str(tmp_path / "missing.yaml"),
    )  # fmt: skip
    assert status == 2
    assert "FIXTURE PROBLEMS: 2" in out and "100.0%" in out
    assert "missing.yaml" in err and "bad.yaml" in err


@pytest.mark.parametrize("content", ["empty", "no-yaml"])
def test_validate_on_a_folder_without_case_files_is_a_problem(capsys, tmp_path, content):
    folder = tmp_path / "folder"
    folder.mkdir()
    if content == "no-yaml":
        (folder / "notes.txt").write_text("no cases here\n", encoding="utf-8")
    status, out, _ = cli(capsys, "validate", str(folder))
    assert status == 1
    assert "no case files" in out and "OK" not in out


def test_a_dangling_link_is_reported_not_skipped(capsys, tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    shutil.copy(MINI, folder / "good.yaml")
    (folder / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    status, out, _ = cli(capsys, "validate", str(folder))
    assert status == 1 and "gone.yaml" in out and "cannot read" in out


def _root(tmp_path: Path, *, schema: bool = True) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    for name in ("implementations.yaml", "tags.yaml"):
        shutil.copy(BUNDLED_ROOT / name, root / name)
    if schema:
        shutil.copytree(BUNDLED_ROOT / "schema", root / "schema")
    shutil.copy(MINI, root / "cases.yaml")
    return root


def test_a_fixture_folder_without_schema_uses_the_bundled_one(capsys, tmp_path):
    root = _root(tmp_path, schema=False)
    status, out, _ = cli(capsys, "validate", str(root))
    assert status == 0 and "OK: 4 cases" in out


def test_a_non_utf8_registry_is_a_problem(capsys, tmp_path):
    root = _root(tmp_path)
    (root / "implementations.yaml").write_bytes(b"implementations:\n  caf\xe9: {}\n")
    status, out, _ = cli(capsys, "validate", str(root))
    assert status == 1
    assert "implementations.yaml" in out and "cannot read" in out


def test_nul_in_tags_is_a_problem_with_its_line(capsys, tmp_path):
    root = _root(tmp_path)
    (root / "tags.yaml").write_text("tags:\n  ok: fine\n  bad\0: no\n", encoding="utf-8")
    status, out, _ = cli(capsys, "validate", str(root), "--format", "json")
    assert status == 1
    problems = json.loads(out)["problems"]
    nul = [p for p in problems if p["file"].endswith("tags.yaml") and p["rule"] == "yaml-syntax"]
    assert nul and nul[0]["line"] == 3


def test_validate_with_a_missing_root_is_a_problem(capsys, tmp_path):
    status, out, _ = cli(capsys, "validate", "--root", str(tmp_path / "missing"))
    assert status == 1
    assert "no such directory" in out
