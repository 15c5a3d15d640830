"""A stand-in for multi-bleu.perl: ``fake [-lc] STEM < hyp``, scored by bleu_impl.

``--garbage`` prints nonsense, ``--hang`` sleeps; an empty system dies like the script.
"""

from __future__ import annotations

import glob
import sys
import time
from pathlib import Path

from bleu_impl import EmulatedFailure, corpus_bleu


def main(argv: list[str]) -> int:
    if "--hang" in argv:
        time.sleep(30)
    if "--garbage" in argv:
        print("Use of uninitialized value; no score today")
        return 0
    lowercase = "ascii" if argv[0] == "-lc" else False
    stem = argv[-1]
    paths = sorted(glob.glob(stem + "*"))
    streams = [Path(p).read_text(encoding="utf-8").splitlines() for p in paths]
    hyps = sys.stdin.read().splitlines()
    refs = [[s[i] for s in streams if i < len(s)] for i in range(len(hyps))]
    try:
        r = corpus_bleu(hyps, refs, profile="multi-bleu", lowercase=lowercase)
    except EmulatedFailure as exc:
        print(f"Illegal division by zero at multi-bleu.perl line 154 ({exc.kind})", file=sys.stderr)
        return 255
    p = "/".join(f"{100 * m / t:.1f}" if t else "0.0" for m, t in zip(r.counts, r.totals))
    print(
        f"BLEU = {100 * r.score:.2f}, {p} (BP={r.bp:.3f}, ratio={r.ratio:.3f}, "
        f"hyp_len={r.hyp_len}, ref_len={r.ref_len})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
