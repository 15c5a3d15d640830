"""Each implementation's process has a memory limit (``$BLEU_CONFORMANCE_MEMORY_MB``, by
default half the machine's memory): one that allocates without bound fails alone."""

from __future__ import annotations

from conformance.adapters.processes import MEMORY_ENV

from .common import HOSTILE, run_json


def test_an_implementation_over_its_memory_limit_is_an_error(capsys, monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, "1024")
    argv = ("--impl", f"{HOSTILE}:allocates_4_gib", "--expect", "papineni2002", "-k", "exact")
    status, report = run_json(capsys, *argv)
    [result] = [r for r in report["results"] if r["outcome"] != "skip"]
    assert status == 1 and result["outcome"] == "error"
    assert "MemoryError" in result["reason"]


def test_a_memory_limit_that_is_not_a_number_is_a_startup_error(capsys, monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, "lots")
    status, report = run_json(capsys, "--impl", f"{HOSTILE}:constant", "-k", "exact")
    assert status == 1
    assert (
        "$BLEU_CONFORMANCE_MEMORY_MB='lots': give a whole number" in report["results"][0]["reason"]
    )
