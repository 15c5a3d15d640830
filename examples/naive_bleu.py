"""A small BLEU written the way many projects write it, to show `bleu-conformance run`.

It has one classic bug: the brevity penalty uses the *shortest* reference instead of the
closest one (as tensorflow/nmt and HuggingFace evaluate do). Verify it with

    bleu-conformance run --impl examples.naive_bleu:bleu
"""

from __future__ import annotations

import math
from collections import Counter


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def bleu(hypotheses, references, max_order=4, **config):
    """Corpus BLEU on whitespace tokens; returns a dict with the statistics."""
    matches, totals = [0] * max_order, [0] * max_order
    hyp_len = ref_len = 0
    for hyp, refs in zip(hypotheses, references):
        hyp = hyp.split() if isinstance(hyp, str) else list(hyp)
        refs = [r.split() if isinstance(r, str) else list(r) for r in refs if r is not None]
        hyp_len += len(hyp)
        ref_len += min(len(r) for r in refs)  # the bug: should be the closest length
        for n in range(1, max_order + 1):
            counts = _ngrams(hyp, n)
            best: Counter = Counter()
            for ref in refs:
                best |= _ngrams(ref, n)
            matches[n - 1] += sum(min(c, best[g]) for g, c in counts.items())
            totals[n - 1] += max(0, len(hyp) - n + 1)
    if min(matches) == 0:
        score, bp = 0.0, 1.0
    else:
        bp = 1.0 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
        score = bp * math.exp(sum(math.log(m / t) for m, t in zip(matches, totals)) / max_order)
    return {
        "score": score,
        "counts": matches,
        "totals": totals,
        "bp": bp,
        "hyp_len": hyp_len,
        "ref_len": ref_len,
    }
