"""Pairs of systems under every implementation, and what their differences and p-values say
together: a tie, a rank difference within noise, a significant difference, or a flip (two
implementations ordering the pair differently), each told apart in words.

Two sets of pairs are reported: every pair that some implementations order one way and
others the other (the ranking flips), and every system against the first ``-i`` (the table
of sacrebleu's ``--paired-bs``/``--paired-ar``, which take the first system as baseline).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

from ...results.records import Flip
from ...results.vocab import Policy

__all__ = ["PValue", "against_first", "flips", "verdict"]

#: The p-value of systems a, b (their indices, a < b) under an implementation, or None.
PValue = Callable[[str, int, int], "float | None"]


def _pair(
    a: str, b: str, deltas: Mapping[str, float], p: Mapping[str, float | None], policy: Policy
) -> Flip:
    significant = {  # a difference too small to print is not one a reader can act on
        i: policy.significant(v, deltas[i]) and policy.material(abs(deltas[i]))
        if v is not None
        else None
        for i, v in p.items()
    }
    return Flip(
        systems=(a, b),
        a_better=tuple(sorted(i for i, d in deltas.items() if d > 0)),
        b_better=tuple(sorted(i for i, d in deltas.items() if d < 0)),
        tied=tuple(sorted(i for i, d in deltas.items() if d == 0)),
        delta=dict(deltas),
        p_value=dict(p),
        significant=significant,
        verdict=verdict(a, b, deltas, significant, policy),
    )


def _deltas(scores: Mapping[str, Mapping[str, float]], a: str, b: str) -> dict[str, float]:
    return {i: s[a] - s[b] for i, s in scores.items() if a in s and b in s}


def flips(
    scores: Mapping[str, Mapping[str, float]],
    p_value: PValue,
    names: Sequence[str],
    policy: Policy,
) -> list[Flip]:
    """Every pair of systems that one implementation orders one way and another the other,
    the largest difference first."""
    out: list[Flip] = []
    for (j, a), (k, b) in combinations(enumerate(names), 2):
        deltas = _deltas(scores, a, b)
        if any(d > 0 for d in deltas.values()) and any(d < 0 for d in deltas.values()):
            out.append(_pair(a, b, deltas, {i: p_value(i, j, k) for i in deltas}, policy))
    out.sort(key=lambda f: -max(abs(d) for d in f.delta.values()))
    return out


def against_first(
    scores: Mapping[str, Mapping[str, float]],
    p_value: PValue,
    names: Sequence[str],
    policy: Policy,
) -> list[Flip]:
    """Every other system against the first (``delta``: the system minus the first)."""
    out = []
    for k, b in enumerate(names[1:], 1):
        deltas = _deltas(scores, b, names[0])
        if deltas:
            out.append(_pair(b, names[0], deltas, {i: p_value(i, 0, k) for i in deltas}, policy))
    return out


def _who(names: Sequence[str]) -> str:
    return f"{len(names)} implementation" + ("s" if len(names) != 1 else "")


def verdict(
    a: str,
    b: str,
    delta: Mapping[str, float],
    significant: Mapping[str, bool | None],
    policy: Policy,
) -> str:
    """What the implementations' differences (``a`` − ``b``) and significance say together.
    A difference too small to print (NLTK's 1e-76 between two near-zero scores) counts as
    a tie here, whatever its p-value: no reader can see which system it favours."""
    shown = {i: d for i, d in delta.items() if policy.material(abs(d))}
    above = [i for i, d in shown.items() if d > 0]
    below = [i for i, d in shown.items() if d < 0]
    tied = [i for i in delta if i not in shown]
    if not above and not below:
        if any(delta.values()):
            return (
                f"tie: {a} and {b} score the same at {policy.decimals} decimals under every "
                "implementation"
            )
        return f"tie: {a} and {b} score the same under every implementation"
    sig_above = [i for i in above if significant.get(i)]
    sig_below = [i for i in below if significant.get(i)]
    alpha = policy.alpha
    noise = f"within noise (p ≥ {alpha})"
    if above and below:
        if sig_above and sig_below:
            return (
                f"flip, significant both ways: {_who(sig_above)} put {a} first and "
                f"{_who(sig_below)} put {b} first with p < {alpha}; which system is better "
                "depends on the implementation"
            )
        if sig_above or sig_below:
            first, second = (a, b) if sig_above else (b, a)
            strong, weak = (sig_above, below) if sig_above else (sig_below, above)
            return (
                f"flip: {first} is significantly better under {_who(strong)}; the "
                f"{_who(weak)} that put {second} first do so {noise}"
            )
        return (
            f"flip {noise} under every implementation: they order {a} and {b} differently, "
            "but none tells them apart"
        )
    first, second, group, sig = (a, b, above, sig_above) if above else (b, a, below, sig_below)
    noisy = [i for i in group if significant.get(i) is False]
    ties = f"; equal at {policy.decimals} decimals under {_who(tied)}" if tied else ""
    unknown = len(group) - len(sig) - len(noisy)
    if not noisy and not unknown:
        return f"{first} is significantly better than {second} under every implementation{ties}"
    if not sig and not unknown:
        return (
            f"{first} ranks above {second} under every implementation that orders them, "
            f"{noise} under all: a rank difference, not a reliable one{ties}"
        )
    without = f", no p-value under {unknown}" if unknown else ""
    return (
        f"{first} ranks above {second} under every implementation that orders them; "
        f"significant under {len(sig)}, {noise} under {len(noisy)}{without}{ties}"
    )
