"""An answer is bounded: no more orders of counts than the request's max_order, a failure
kind of at most 100 characters and a message of at most 10,000; anything larger is the
implementation's garbage error and costs the log a few kB, not hundreds of MB."""

from __future__ import annotations

from ..helpers import MINI
from .common import HOSTILE, cli


def test_counts_beyond_max_order_are_garbage(capsys):
    status, out, _ = cli(
        capsys, "run", "--fixtures", str(MINI), "--impl", f"{HOSTILE}:counts_beyond_order",
        "--expect", "papineni2002", "-k", "mini.exact",
    )  # fmt: skip
    assert status == 1
    assert "garbage: counts: 6 orders, but the request's max_order is 4" in out


def test_a_30_mb_failure_is_garbage_and_the_log_stays_small(capsys, tmp_path):
    log = tmp_path / "run.jsonl"
    status, out, _ = cli(
        capsys, "run", "--fixtures", str(MINI), "--impl", f"{HOSTILE}:failure_of_30_mb",
        "--expect", "papineni2002", "-k", "mini.exact", "--output", str(log),
    )  # fmt: skip
    assert status == 1 and "garbage: failure.kind" in out
    assert log.stat().st_size < 100_000 and len(out) < 100_000
