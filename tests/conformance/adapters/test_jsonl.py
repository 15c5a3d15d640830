"""The JSON Lines protocol, tested against real subprocesses."""

from __future__ import annotations

import shutil
import time

import pytest

from conformance.adapters.jsonl import JsonlAdapter
from conformance.protocol import AdapterError, Answer, Request

from ..helpers import FAKES, PYTHON, run

ROOT = FAKES.parents[2]


def program(mode: str, tmp_path=None) -> list[str]:
    argv = [PYTHON, str(FAKES / "jsonl_program.py"), mode]
    if tmp_path is not None:
        argv.append(str(tmp_path / "starts"))
    return argv


def test_good_program_passes_and_reports_capabilities():
    with JsonlAdapter(program("good"), cwd=str(ROOT)) as adapter:
        assert adapter.capabilities.name == "fake-good"
        results = run(adapter)
    assert results["mini.exact"].outcome == "pass"
    assert results["mini.partial"].outcome == "pass"


def test_expected_failure_kind_is_a_pass():
    with JsonlAdapter(program("good"), cwd=str(ROOT)) as adapter:
        results = run(adapter, expect=("multi-bleu",))
    # the fake answers the request's config: multi-bleu semantics, so it dies on c = 0
    assert results["mini.empty-hypothesis"].outcome == "pass"


@pytest.mark.parametrize(
    ("mode", "kind"),
    [("crash-first", "crash"), ("garbage-first", "garbage"), ("hang-first", "timeout")],
)
def test_misbehaviour_is_an_error_then_the_process_is_restarted(tmp_path, mode, kind):
    with JsonlAdapter(program(mode, tmp_path), cwd=str(ROOT), timeout=1.0) as adapter:
        results = run(adapter)
    first = results["mini.exact"]
    assert first.outcome == "error"
    assert first.reason.startswith(kind)
    if mode == "crash-first":
        assert "about to crash" in first.stderr
        assert "exit status 3" in first.reason
    assert results["mini.partial"].outcome == "pass"  # restarted, the run went on
    assert (tmp_path / "starts").read_text() == "2"


def test_wrong_sequence_number_is_a_protocol_error():
    with JsonlAdapter(program("wrong-seq"), cwd=str(ROOT)) as adapter:
        results = run(adapter)
    assert results["mini.exact"].outcome == "error"
    assert results["mini.exact"].reason.startswith("protocol")
    assert "scoring seq 1" in results["mini.exact"].stderr


def test_an_answer_written_before_its_request_is_a_protocol_error():
    """The program answers request 1, then writes a line with seq 2 (request 1's numbers):
    read after request 2 is sent, it was taken for request 2's answer (a fail). Caught when
    the line has arrived before the next request is sent, as it has after the harness's
    work between two cases (here a pause of 0.3 s)."""

    class Pausing(JsonlAdapter):
        def run(self, request: Request) -> Answer:
            time.sleep(0.3)
            return super().run(request)

    with Pausing(program("answers-ahead"), cwd=str(ROOT)) as adapter:
        results = run(adapter)
    assert results["mini.exact"].outcome == "pass"
    second = results["mini.partial"]
    assert second.outcome == "error"
    assert second.reason.startswith("protocol: a line written before request seq 2 was sent")


def test_bad_hello_is_refused():
    with pytest.raises(AdapterError) as info:
        JsonlAdapter(program("bad-hello"), cwd=str(ROOT))
    assert "protocol 99" in str(info.value)


def test_missing_program_is_an_error():
    with pytest.raises(AdapterError):
        JsonlAdapter(["/nonexistent/program"])


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_example_adapter():
    argv = ["node", str(ROOT / "examples" / "node-bleu" / "adapter.js")]
    with JsonlAdapter(argv) as adapter:
        assert adapter.capabilities.name == "node-bleu"
        results = run(adapter)
    assert results["mini.exact"].outcome == "pass"
    assert results["mini.partial"].outcome == "pass"
    assert results["mini.nltk-method1"].outcome == "skip"
