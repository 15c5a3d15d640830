"""A protocol program (docs/protocol.md) whose misbehaviour is chosen by argv[1]."""

from __future__ import annotations

import json
import sys
import time

from bleu_impl import BleuError, corpus_bleu

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
STATE = sys.argv[2] if len(sys.argv) > 2 else ""  # a file counting starts (for restarts)


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
    print(f"scoring seq {message['seq']}", file=sys.stderr, flush=True)
    try:
        r = corpus_bleu(request["hypotheses"], request["references"], **request["config"])
    except BleuError as exc:
        return {"seq": seq, "failure": {"kind": getattr(exc, "kind", None), "message": str(exc)}}
    return {"seq": seq, "score": r.score, "counts": list(r.counts), "totals": list(r.totals)}


def main() -> None:
    if MODE == "bad-hello":
        print(json.dumps({"protocol": 99}), flush=True)
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
            reply = {
                "protocol": 1,
                "implementation": {
                    "name": f"fake-{MODE}",
                    "version": "0.0.1",
                    "knobs": None,
                    "expect": ["papineni2002"],
                },
            }
        elif message["cmd"] == "score":
            n += 1
            # misbehave only in the first process, so a restart recovers
            reply = answer(message, n if starts == 0 else n + 1000)
            if reply is None:
                continue
        else:
            return
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
