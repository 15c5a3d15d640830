"""The README opens with the two commands that matter, and CI runs the second verbatim."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _opening_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    head = text.split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", head, re.S)]


def test_readme_opens_with_the_main_job_and_the_tests() -> None:
    main_job, tests = _opening_commands()
    assert "bleu-conformance compare" in main_job
    assert "pytest" in tests


def test_ci_runs_the_readme_test_command() -> None:
    _, tests = _opening_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines()
