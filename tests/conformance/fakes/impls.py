"""Fake BLEU functions that misbehave in every way the runner must classify."""

from __future__ import annotations

import time
from typing import Any

from bleu_impl import corpus_bleu


def good(hypotheses: list, references: list, **config: Any) -> float:
    return corpus_bleu(hypotheses, references, **config).score


def good_dict(hypotheses: list, references: list, **config: Any) -> dict:
    r = corpus_bleu(hypotheses, references, **config)
    return {
        "score": r.score,
        "counts": list(r.counts),
        "totals": list(r.totals),
        "bp": r.bp,
        "hyp_len": r.hyp_len,
        "ref_len": r.ref_len,
    }


def no_config(hypotheses: list, references: list) -> float:
    return corpus_bleu(hypotheses, references).score


def crash(hypotheses: list, references: list, **config: Any) -> float:
    raise RuntimeError("boom: the implementation crashed")


def hang(hypotheses: list, references: list, **config: Any) -> float:
    time.sleep(1.5)
    return 0.0


def garbage(hypotheses: list, references: list, **config: Any) -> Any:
    return "BLEU is great"


def wrong_scale(hypotheses: list, references: list, **config: Any) -> float:
    return 100 * good(hypotheses, references, **config)


def swap_references(hypotheses: list, references: list, **config: Any) -> float:
    """Pairs each hypothesis with the next segment's references."""
    rotated = references[1:] + references[:1]
    return good(hypotheses, rotated, **config)


def percent(hypotheses: list, references: list, **config: Any) -> float:
    return round(100 * good(hypotheses, references, **config), 2)


percent.bleu_scale = 100  # type: ignore[attr-defined]
percent.bleu_precision = 2  # type: ignore[attr-defined]
percent.bleu_expect = "multi-bleu"  # type: ignore[attr-defined]

not_callable = 42


def crash_too(hypotheses: list, references: list, **config: Any) -> float:
    raise ValueError("another implementation that always fails")


def exits(hypotheses: list, references: list, **config: Any) -> float:
    raise SystemExit(0)


def nan(hypotheses: list, references: list, **config: Any) -> float:
    return float("nan")


def chatty(hypotheses: list, references: list, **config: Any) -> float:
    """Prints to stdout (as some libraries do) and answers a constant."""
    print("spent more than five minutes working to shrink your example")
    return 0.5


def kills_parent(hypotheses: list, references: list, **config: Any) -> float:
    """Answers the adapter's warm-up request ("the cat sat down"); on any other input kills
    the process that started its worker (under ``compare --jobs``: a pool worker), as the
    system's out-of-memory killer would."""
    import os
    import signal

    if list(hypotheses) != ["the cat sat down"]:
        os.kill(os.getppid(), signal.SIGKILL)
        time.sleep(5)
    return corpus_bleu(hypotheses, references).score


def fragile_bleu(hypotheses: list, references: list) -> float:
    """sacrebleu-like BLEU that raises on any hypothesis containing ``BOOM`` (a user's
    implementation that fails on some inputs: the corpus report's error cells)."""
    for line, hyp in enumerate(hypotheses, 1):
        if "BOOM" in hyp:
            raise ValueError(f"cannot score line {line}: BOOM")
    return corpus_bleu(hypotheses, references, profile="sacrebleu").score
