"""An ``--output`` that is a pipe (a named pipe, ``>(gzip > run.jsonl.gz)``, ``/dev/fd/N``)
cannot be read back: the run used to wait forever reading its own log from it."""

from __future__ import annotations

import json
import os
import subprocess
import threading

from ..helpers import MINI, PYTHON


def _run(output: str, **popen: object) -> subprocess.CompletedProcess[str]:
    argv = [PYTHON, "-m", "conformance.cli", "run", "--impl", "bleu_impl", "-q"]
    return subprocess.run(
        [*argv, "--fixtures", str(MINI), "--output", output],
        capture_output=True, text=True, timeout=120, check=False, **popen,  # type: ignore[arg-type]
    )  # fmt: skip


def test_a_named_pipe_gets_the_whole_log(tmp_path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.extend(fifo.read_text().splitlines()))
    reader.start()
    done = _run(str(fifo))
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line)["record"] for line in got]
    assert records[0] == "header" and records[-1] == "end" and "result" in records
    assert "papineni2002" in done.stdout  # bleu_impl:papineni2002, its cell may wrap


def test_a_dev_fd_pipe_gets_the_whole_log():
    read, write = os.pipe()
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(os.fdopen(read, "rb").read()))
    reader.start()
    done = _run(f"/dev/fd/{write}", pass_fds=(write,))
    os.close(write)
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    lines = got[0].decode().splitlines()
    assert json.loads(lines[0])["record"] == "header" and json.loads(lines[-1])["record"] == "end"
