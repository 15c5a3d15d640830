"""Every Markdown document of the repository renders its tables as tables (GFM, parsed by
markdown-it-py): no table line outside a table, no row with a stray ``|``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conformance.reporters import gfm

ROOT = Path(__file__).resolve().parents[1]


def documents() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    found = [ROOT / name for name in listed] or sorted(ROOT.glob("**/*.md"))
    return [p for p in found if ".venv" not in p.parts and p.is_file()]


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_tables_render(path: Path) -> None:
    gfm.check(path.read_text(encoding="utf-8"))


def test_the_documents_are_found() -> None:
    names = {str(p.relative_to(ROOT)) for p in documents()}
    assert {"README.md", "docs/disagreements.md"} <= names
