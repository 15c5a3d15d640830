"""Case files parsed once are read back from the cache: the same cases and problems, no
YAML parsed again; files with YAML or schema problems are never kept, and a damaged cache
entry is ignored. Within a process a file's checked cases are kept by its text: an edited
file is loaded afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cases import load, load_fixtures, parse_cache
from conformance.cases.implementations import BUNDLED_ROOT

BAD = Path(__file__).parent / "bad"
CLEAN = BUNDLED_ROOT / "papineni2002"


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(parse_cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(load, "_LOADED", {})  # what this process loaded before: forgotten
    return tmp_path / "parsed"


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(load, "read_yaml", refuse)


def test_a_clean_file_is_parsed_once(_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_fixtures([CLEAN])
    assert first.cases and not first.problems
    assert len(list(_cache.iterdir())) == len(list(CLEAN.glob("*.yaml")))
    _no_parsing(monkeypatch)
    assert load_fixtures([CLEAN]) == first


def test_problems_are_found_again_and_files_with_parse_problems_never_kept(_cache: Path) -> None:
    first = load_fixtures([BAD])
    assert load_fixtures([BAD]) == first
    kept = {p.name for p in _cache.iterdir()}
    parse_problems = {p.file for p in first.problems if p.rule in ("yaml-syntax", "schema")}
    assert parse_problems and len(kept) < len(list(BAD.glob("*.yaml")))
    for name in parse_problems:
        text = (BAD / Path(name).name).read_text(encoding="utf-8")
        assert parse_cache.recall(text, load.load_schema()) is None


def test_a_damaged_entry_is_ignored(_cache: Path) -> None:
    first = load_fixtures([CLEAN])
    for entry in _cache.iterdir():
        entry.write_bytes(b"\x00not marshal")
    assert load_fixtures([CLEAN]) == first


def test_an_edited_file_is_loaded_afresh(tmp_path: Path) -> None:
    (source,) = CLEAN.glob("*.yaml")
    copy = tmp_path / "cases" / source.name
    copy.parent.mkdir()
    copy.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    first = load_fixtures([copy], root=BUNDLED_ROOT)
    assert load_fixtures([copy], root=BUNDLED_ROOT) == first
    edited = source.read_text(encoding="utf-8").replace("paper.ex1.c1", "paper.ex1.edited", 1)
    copy.write_text(edited, encoding="utf-8")
    ids = {c.id for c in load_fixtures([copy], root=BUNDLED_ROOT).cases}
    assert "paper.ex1.edited.modified-precision" in ids
    assert "paper.ex1.c1.modified-precision" not in ids
