"""docs/disagreements.md is committed and must be exactly what the command regenerates."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.commands.disagreements import build

DEFAULT = Path(__file__).resolve().parents[3] / "docs" / "disagreements.md"


def _environment_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Python "))


@pytest.mark.slow
def test_committed_report_is_up_to_date() -> None:
    committed = DEFAULT.read_text(encoding="utf-8")
    regenerated, _missing = build()
    if _environment_line(committed) != _environment_line(regenerated):
        pytest.skip(
            "docs/disagreements.md was generated with "
            f"'{_environment_line(committed)}' but this environment has "
            f"'{_environment_line(regenerated)}' (CI installs the pinned versions)"
        )
    assert committed == regenerated, "stale: run `bleu-conformance disagreements`"


def test_report_has_matrix_and_explained_causes() -> None:
    text = DEFAULT.read_text(encoding="utf-8")
    assert "## Conformance matrix" in text and "### Causes" in text
    assert "bleu_impl as nltk>=3.3" in text
    assert "unexplained" not in text


def test_check_leaves_out_what_is_not_installed_and_says_so(tmp_path, monkeypatch, capsys) -> None:
    """Where a library is missing, --check compares every line that does not name it."""
    from conformance.cli import main
    from conformance.commands import disagreements

    text = "# doc\nPython 3.x; libraries: nltk 1\n| nltk | 1 |\n| torchmetrics | 2 |\n"
    regenerated = "# doc\nPython 3.y; libraries: nltk 1\n| nltk | 1 |\n| torchmetrics | - |\n"
    monkeypatch.setattr(disagreements, "build", lambda: (regenerated, ["torchmetrics"]))
    doc = tmp_path / "doc.md"
    doc.write_text(text, encoding="utf-8")
    assert main(["disagreements", "--check", "--output", str(doc)]) == 0
    assert "not checked (not installed here): torchmetrics" in capsys.readouterr().out
    doc.write_text(text.replace("| nltk | 1 |", "| nltk | 9 |"), encoding="utf-8")
    assert main(["disagreements", "--check", "--output", str(doc)]) == 1
