"""An independent, plain-Python BLEU written to behave like Moses multi-bleu.perl.

Used as an "unknown" implementation that ``identify`` must recognise. It follows the
script's documented behaviour (notes 2.4): tokens split on ASCII whitespace only, clipping
by the max count over references, closest reference length (ties to the shorter) starting
from the script's (difference 9999, length 9999), so 9999 for a line without reference and
for references 9999+ tokens away, no smoothing (any zero precision gives 0), a 0-100 score,
a crash when no reference was read at all, and a crash on an empty system.
"""

from __future__ import annotations

import math
import re
from collections import Counter

_ASCII_WS = re.compile(r"[ \t\n\r\f\v]+")


def _tokens(text):
    return [t for t in _ASCII_WS.split(text) if t] if isinstance(text, str) else list(text)


def _closest(hyp_len, refs):
    diff, length = 9999, 9999
    for r in refs:
        d = abs(len(r) - hyp_len)
        if d < diff or (d == diff and len(r) < length):
            diff, length = d, len(r)
    return length


def multibleu_like(hypotheses, references):
    references = list(references)
    if not any(r is not None for refs in references for r in refs):
        raise RuntimeError("could not find reference file")
    correct, total = [0] * 4, [0] * 4
    hyp_len = ref_len = 0
    for hyp, refs in zip(hypotheses, references, strict=True):
        h = _tokens(hyp)
        rs = [_tokens(r) for r in refs if r is not None]
        hyp_len += len(h)
        ref_len += _closest(len(h), rs)
        for n in range(1, 5):
            grams = Counter(tuple(h[i : i + n]) for i in range(len(h) - n + 1))
            best: Counter = Counter()
            for r in rs:
                for g, c in Counter(tuple(r[i : i + n]) for i in range(len(r) - n + 1)).items():
                    best[g] = max(best[g], c)
            total[n - 1] += sum(grams.values())
            correct[n - 1] += sum(min(c, best[g]) for g, c in grams.items())
    if ref_len == 0:
        raise RuntimeError("BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, ref_len=0)")
    bp = 1.0 if hyp_len >= ref_len else math.exp(1 - ref_len / hyp_len)  # dies when c = 0
    if any(t == 0 or c == 0 for c, t in zip(correct, total)):
        return 0.0
    return 100 * bp * math.exp(sum(math.log(c / t) for c, t in zip(correct, total)) / 4)
