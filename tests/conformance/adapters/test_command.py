"""One-shot command templates (multi-bleu.perl style), with a Python stand-in script."""

from __future__ import annotations

import pytest

from conformance.adapters import make_adapter
from conformance.adapters.command import MULTI_BLEU_REGEX, CommandAdapter
from conformance.protocol import AdapterError

from ..helpers import FAKES, PYTHON, run

ROOT = FAKES.parents[2]


def adapter(*extra: str, **options) -> CommandAdapter:
    template = f"{PYTHON} {FAKES / 'multibleu_command.py'} {' '.join(extra)} {{flags}} {{ref_stem}}"
    defaults = dict(
        name="fake-multi-bleu",
        scale=100,
        precision=2,
        regex=MULTI_BLEU_REGEX,
        stdin="hyp",
        native="multi-bleu",
        flags={"lowercase=ascii": "-lc"},
        expect=["multi-bleu"],
        cwd=str(ROOT),
    )
    defaults.update(options)
    return CommandAdapter(template, **defaults)


def test_scores_parse_and_expected_death_passes():
    results = run(adapter())
    assert results["mini.exact"].outcome == "pass"
    assert results["mini.exact"].got["hyp_len"] == 6
    # segment 1 has one reference, segment 2 two: file ref1 would need a gap
    assert results["mini.partial"].outcome == "skip"
    assert "cannot skip a line" in results["mini.partial"].reason
    died = results["mini.empty-hypothesis"]
    assert died.outcome == "pass"  # multi-bleu is expected to die on an empty system


def test_unexpected_death_is_error_with_stderr():
    results = run(adapter(), expect=("papineni2002",))
    died = results["mini.empty-hypothesis"]
    assert died.outcome in ("error", "skip")
    if died.outcome == "error":
        assert "Illegal division by zero" in died.stderr


def test_garbage_output_is_error():
    result = run(adapter("--garbage"))["mini.exact"]
    assert result.outcome == "error"
    assert result.reason.startswith("garbage")


def test_hang_is_killed_at_the_timeout():
    result = run(adapter("--hang", timeout=0.5))["mini.exact"]
    assert result.outcome == "error"
    assert result.reason.startswith("timeout")


def test_knob_without_flag_is_skipped_before_running():
    results = run(adapter(), expect=("nltk>=3.3",))
    assert results["mini.nltk-method1"].outcome == "skip"


def test_adapter_file(tmp_path):
    path = tmp_path / "multi-bleu.yaml"
    path.write_text(
        "kind: command\n"
        f'template: "{PYTHON} {FAKES / "multibleu_command.py"} {{flags}} {{ref_stem}}"\n'
        "stdin: hyp\nregex: multi-bleu\nscale: 100\nprecision: 2\nnative: multi-bleu\n"
        "flags: {'lowercase=ascii': '-lc'}\nexpect: [multi-bleu]\n"
        f"cwd: {ROOT}\n"
    )
    results = run(make_adapter(str(path)))
    assert results["mini.exact"].outcome == "pass"


def test_regex_must_name_the_score():
    with pytest.raises(AdapterError):
        CommandAdapter("true", regex=r"(\d+)")


def test_reference_files_are_shorter_only_at_the_end():
    from conformance.protocol import Request

    a = adapter()
    tail = Request(level="corpus", config={}, hypotheses=("a b", "c d"), references=(("a b",), ()))
    assert a.check(tail) is None
    answer = a.run(tail)
    assert answer.ref_len == 10001  # multi-bleu's 9999 sentinel for the line without reference
    middle = Request(
        level="corpus", config={}, hypotheses=("a", "b", "c"), references=(("a",), (), ("c",))
    )
    assert "cannot skip a line" in a.check(middle)
