"""docs/disagreements.md is committed and must be exactly what the command regenerates."""

from __future__ import annotations

import pytest

from conformance.commands.disagreements import DEFAULT, build


def _environment_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Python "))


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
