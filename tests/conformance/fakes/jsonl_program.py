"""A protocol program (docs/protocol.md) whose misbehaviour is chosen by argv[1]."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from bleu_impl import BleuError, corpus_bleu

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
STATE = sys.argv[2] if len(sys.argv) > 2 else ""  # a file counting starts (for restarts)
# "hello-with:{json}" / "answer-with:{json}": fields merged into the hello / every answer
# "answer-raw:TEXT": TEXT (with {seq} filled in) is every answer line, as written
MODE, _, EXTRA = MODE.partition(":")
PATCH = json.loads(EXTRA) if EXTRA and MODE != "answer-raw" else {}


def note_pid(pid: int) -> None:
    path = os.environ.get("BLEU_TEST_PID_FILE")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{pid}\n")


def misbehave(seq: int) -> bool:
    """Hangs, floods and raw lines; True when the answer has been written."""
    if MODE == "grandchild-hang":  # a child of its own, then a hang: both must be killed
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        note_pid(child.pid)
        note_pid(os.getpid())
        time.sleep(300)
    if MODE == "busy":  # spins: only a kill stops it
        note_pid(os.getpid())
        while True:
            pass
    if MODE == "answer-raw":  # EXTRA verbatim, {seq} filled in: numbers JSON allows
        sys.stdout.write(EXTRA.replace("{seq}", str(seq)) + "\n")
        sys.stdout.flush()
        return True
    if MODE == "many-counts":  # 500,000 orders in a line of 2 MB
        counts = ", ".join(["1"] * 500_000)
        sys.stdout.write(
            f'{{"seq": {seq}, "score": 0.5, "counts": [{counts}], "totals": [{counts}]}}\n'
        )
        sys.stdout.flush()
        return True
    if MODE == "endless-line":  # 17 MiB without a newline, then silence
        sys.stdout.write("x" * (17 * 2**20))
        sys.stdout.flush()
        time.sleep(30)
    if MODE == "stderr-flood":  # "stderr-flood:N": N MB (3 by default) on stderr without a
        for _ in range(PATCH or 3):  # newline, written 1 MB at a time; then a correct answer
            sys.stderr.write("y" * 1_000_000)
        sys.stderr.write("END-OF-FLOOD")
        sys.stderr.flush()
    return False


def answer(message: dict, n: int) -> dict | None:
    request = message["request"]
    seq = message["seq"]
    if MODE == "crash-first" and n == 1:
        print("about to crash", file=sys.stderr, flush=True)
        sys.exit(3)
    if MODE == "hang-first" and n == 1:
        time.sleep(30)
    if MODE == "garbage-first" and n == 1:
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
        return None
    if MODE == "wrong-seq":
        seq += 100
    if misbehave(seq):
        return None
    if MODE != "stderr-flood":
        print(f"scoring seq {message['seq']}", file=sys.stderr, flush=True)
    try:
        r = corpus_bleu(request["hypotheses"], request["references"], **request["config"])
    except BleuError as exc:
        return {"seq": seq, "failure": {"kind": getattr(exc, "kind", None), "message": str(exc)}}
    reply = {"seq": seq, "score": r.score, "counts": list(r.counts), "totals": list(r.totals)}
    return {**reply, **PATCH} if MODE == "answer-with" else reply


#: Modes that print one line instead of a hello, then exit: another protocol version, and
#: a score before the hello was answered.
ONLY_LINE = {"bad-hello": {"protocol": 99}, "answers-first": {"seq": 1, "score": 0.5}}


def write(reply: dict) -> None:
    print(json.dumps(reply), flush=True)
    if MODE == "answers-ahead" and "seq" in reply:  # also "answers" the next request
        print(json.dumps({**reply, "seq": reply["seq"] + 1}), flush=True)


def main() -> None:
    if MODE in ONLY_LINE:
        print(json.dumps(ONLY_LINE[MODE]), flush=True)
        return
    starts = 0
    if STATE:
        try:
            with open(STATE) as f:
                starts = int(f.read() or 0)
        except FileNotFoundError:
            starts = 0
        with open(STATE, "w") as f:
            f.write(str(starts + 1))
    n = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "hello":
            implementation = {
                "name": f"fake-{MODE}",
                "version": "0.0.1",
                "knobs": None,
                "expect": ["papineni2002"],
            }
            if MODE == "hello-with":
                implementation.update(PATCH)
            reply = {"protocol": 1, "implementation": implementation}
        elif message["cmd"] == "score":
            n += 1
            # misbehave only in the first process, so a restart recovers
            reply = answer(message, n if starts == 0 else n + 1000)
            if reply is None:
                continue
        else:
            return
        write(reply)
        if MODE == "stops-reading":  # never reads a request: a big one fills the pipe
            time.sleep(20)


if __name__ == "__main__":
    main()
