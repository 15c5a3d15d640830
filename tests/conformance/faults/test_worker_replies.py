"""Whatever an implementation does to the worker it runs in, what crosses back is checked:
a reply of the wrong shape or types is that implementation's error (``garbage``), never exit
3; a killed ``score --jobs`` worker is a clear exit 2 naming why."""

from __future__ import annotations

import os
import signal

import pytest

import bleu_impl.parallel

from ..helpers import MINI
from .common import GOOD, by_implementation, cli, run_json

PATCHES = "tests.conformance.fakes.patches_worker"
MODES = [
    "error_kind_number",
    "error_stderr_number",
    "error_short",
    "status_unknown",
    "failure_text",
    "failure_kind_seven",
    "stderr_number",
]


@pytest.mark.parametrize("mode", MODES)
def test_a_patched_worker_reply_is_the_implementations_error(capsys, mode):
    spec = f"{PATCHES}:{mode}"
    status, report = run_json(capsys, "--impl", spec, "--impl", GOOD)
    rows = by_implementation(report)
    assert status == 1
    later = [r for r in rows[spec][1:] if r["outcome"] != "skip"]  # the first call patches
    assert later and all(r["outcome"] == "error" for r in later)
    assert all(r["reason"].startswith("garbage: ") for r in later), later[0]["reason"]
    assert {r["outcome"] for r in rows[GOOD]} == {"pass", "skip"}


@pytest.mark.parametrize("mode", ["error_stderr_number", "error_short", "failure_text"])
def test_compare_takes_a_patched_reply_for_an_error(capsys, mode):
    argv = ["--impl", f"{PATCHES}:{mode}", "--impl", "bleu_impl", "--fixtures", str(MINI)]
    status, out, err = cli(capsys, "compare", *argv)
    assert status in (0, 4) and "Traceback" not in err and "errored" in out


def _killed(start, hyps, refss, config):  # a pool worker killed as the OOM killer does
    if os.getpid() != _PARENT[0]:
        os.kill(os.getpid(), signal.SIGKILL)
    return _CHUNK_SUM(start, hyps, refss, config)


_PARENT = [os.getpid()]
_CHUNK_SUM = bleu_impl.parallel.chunk_sum


def test_score_with_a_killed_pool_worker_exits_2_with_the_reason(capsys, monkeypatch, tmp_path):
    _PARENT[0] = os.getpid()
    monkeypatch.setattr(bleu_impl.parallel, "chunk_sum", _killed)
    text = "the cat sat on the mat\n" * (2 * bleu_impl.parallel.TASK_SENTENCES + 10)
    (tmp_path / "hyp.txt").write_text(text)
    (tmp_path / "ref.txt").write_text(text)
    argv = ["score", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt")]
    status, _, err = cli(capsys, *argv, "--jobs", "2")
    assert status == 2 and "Traceback" not in err
    assert "ended without its result" in err and "out-of-memory" in err


@pytest.mark.parametrize("mode", ["scale_zero_unchecked", "precision_word_unchecked"])
def test_a_declaration_past_a_patched_checker_is_refused_by_the_harness(capsys, mode):
    """An implementation that replaces the declaration checker in its own process still
    meets the harness's check: its error (naming the field), never exit 3."""
    spec = f"{PATCHES}:{mode}"
    status, out, err = cli(capsys, "run", "--impl", spec, "--fixtures", str(MINI))
    assert status in (1, 2), (status, out, err)
    assert "Traceback" not in err and "bug in bleu-conformance" not in out + err
    field = "scale: 0" if "scale" in mode else "precision: 'two'"
    assert f"its capabilities: {field}" in out + err  # the harness's own check
