"""The README: it opens with the two commands that matter (CI runs the second verbatim), stays
short, and everything it quotes is what the code says today."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import bleu_impl
from conformance.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _opening_commands() -> list[str]:
    head = README.split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", head, re.S)]


def test_readme_opens_with_the_main_job_and_the_tests() -> None:
    main_job, tests = _opening_commands()
    assert "bleu-conformance compare" in main_job
    assert "pytest" in tests


def test_ci_runs_the_readme_test_command() -> None:
    _, tests = _opening_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines()


def test_readme_is_short() -> None:
    """At most 10,000 characters: the rest is in docs/."""
    assert len(README) <= 10_000


def test_quoted_first_screen_is_what_the_first_command_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, default_compare_log: Path
) -> None:
    """The README's excerpt of `bleu-conformance compare` (at 100 columns) is the start of
    what the command prints today: case counts and differences cannot go stale."""
    (quoted,) = re.findall(r"```text\n(Compared .*?)```", README, re.S)
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["compare", "--replay", str(default_compare_log)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(quoted), f"paste the command's first lines:\n{printed[:1500]}"
    assert quoted.count("\n") >= 10


def test_listed_profiles_are_every_profile() -> None:
    section = README.split("\n## Profiles\n", 1)[1].split("\n## ", 1)[0]
    listed = section.split("reproduces one implementation:", 1)[1].split(". Each", 1)[0]
    assert re.findall(r"`([^`]+)`", listed) == list(bleu_impl.PROFILES)


def test_python_example_runs_and_scores_on_0_to_1() -> None:
    """The README's Python lines run; each expression is a score on 0..1 (or a result)."""
    (example,) = re.findall(r"```python\n(.*?)```", README, re.S)
    namespace: dict[str, object] = {}
    values = []
    for node in ast.parse(example).body:
        if isinstance(node, ast.Expr):
            values.append(eval(compile(ast.Expression(node.value), "README.md", "eval"), namespace))
        else:
            exec(compile(ast.Module([node], []), "README.md", "exec"), namespace)
    lines = [v for v in values if isinstance(v, str)]  # str(result): sacrebleu's line
    scores = [
        v.score if isinstance(v, bleu_impl.BleuResult) else v for v in values if v not in lines
    ]
    assert len(scores) == 2 and all(isinstance(s, float) and 0 <= s <= 1 for s in scores)
    assert len(lines) == 1 and lines[0].startswith("BLEU = ")
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, refs = namespace["hyps"], namespace["refs"]
    assert lines[0] == str(sacrebleu.corpus_bleu(hyps, [list(r) for r in zip(*refs)]))
