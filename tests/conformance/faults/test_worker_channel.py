"""Fault injection: an implementation that writes on the descriptors of its worker's channel
to the harness (by accident, a library reusing or closing descriptors, or on purpose). Its
replies are read with bounded size, only answer and capability classes are unpickled (a
forged reply could otherwise run code in the harness), and every reply repeats its request's
sequence number (a stray reply would otherwise answer the next request): each is an error
for the case, and the worker is restarted."""

from __future__ import annotations

import pytest

from .common import GOOD, HOSTILE, by_implementation, run_json


@pytest.mark.parametrize(
    ("fake", "says"),
    [
        ("scribbles_on_descriptors", "unreadable reply from the worker: a reply of 4,294,967,280"),
        ("forges_a_reply", "a reply may not hold posix.system"),
        ("replays_a_reply", "a reply out of sequence"),
    ],
)
def test_writing_on_the_workers_channel_is_an_error_never_an_answer(
    capsys, tmp_path, monkeypatch, fake, says
):
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("BLEU_TEST_PID_FILE", str(pid_file))
    spec = f"{HOSTILE}:{fake}"
    status, report = run_json(capsys, "--impl", spec, "--impl", GOOD, "--timeout", "10")
    rows = by_implementation(report)
    answered = [r for r in rows[spec] if r["outcome"] != "skip" or "Answer(" in r["reason"]]
    assert status == 1 and answered
    assert all(r["outcome"] == "error" and says in r["reason"] for r in answered)
    assert {r["outcome"] for r in rows[GOOD]} == {"pass", "skip"}
    assert not (tmp_path / "pids.forged").exists()  # nothing ran in the harness
