"""Small compare logs built record by record (the shape conformance.engine.compare.differ.row_record
writes), for the compare reporters' tests."""

from __future__ import annotations

from typing import Any

from conformance.results.log import CompareLog

IMPLS = [
    {"name": "ours", "version": "1", "spec": "bleu_impl"},
    {"name": "lib", "version": "2", "spec": "lib"},
    {"name": "tool|x", "version": "3", "spec": "tool"},
]


def pair(item: str, a: str, b: str, sa: float | None, sb: float | None, **extra: Any) -> dict:
    """A pair record; ``None`` scores are failures; differing when the scores differ."""
    record: dict[str, Any] = {"kind": "pair", "item": item, "file": "f.yaml", "a": a, "b": b}
    record["value_a"] = repr(sa) if sa is not None else "error:crash"
    record["value_b"] = repr(sb) if sb is not None else "error:crash"
    if sa is not None:
        record["score_a"] = sa
    else:
        record["failure_a"] = "crash"
    if sb is not None:
        record["score_b"] = sb
    else:
        record["failure_b"] = "crash"
    if sa is not None and sb is not None:
        delta = abs(sa - sb)
        record["abs_delta"] = delta
        record["rel_delta"] = delta / max(abs(sa), abs(sb)) if delta else 0.0
        record["verdict"] = "differing" if delta else "identical"
    else:
        record["abs_delta"] = record["rel_delta"] = None
        record["verdict"] = "differing"
    if record["verdict"] == "differing":
        record.update(cause="smoothing: none vs floor", explained=True, alternatives="")
        record.update(changes=[["smoothing", "none", "floor"]], stats_diff=["p4 0/3 vs 0/3"])
        record.update(stats_a=None, stats_b=None)
    record.update(extra)
    return record


def three_way() -> CompareLog:
    """Three implementations: a material, a negligible, a failure and a boundary case."""
    float_min = {
        "cause": "zero_match: zero vs float-min",
        "changes": [["zero_match", "zero", "float-min"]],
    }
    pairs = [
        pair(
            "big",
            "ours",
            "lib",
            0.30,
            0.2405,
            cause="denominator_floor: none vs per-segment",
            changes=[["denominator_floor", "none", "per-segment"]],
        ),
        pair("tiny", "ours", "lib", 0.0, 1e-77, **float_min),
        pair("tiny", "ours", "tool|x", 0.0, 0.0),
        pair("tiny", "lib", "tool|x", 1e-77, 0.0, **float_min),
        # exactly half a unit of the second decimal on 0–100: material
        pair("edge", "ours", "tool|x", 0.5, 0.50005),
        # just below it: negligible
        pair("near", "ours", "tool|x", 0.5, 0.5000499),
        pair("boom", "lib", "tool|x", 0.4, None, cause="unexplained", explained=False),
        {
            "kind": "pair",
            "item": "skipme",
            "file": "f.yaml",
            "a": "ours",
            "b": "lib",
            "value_a": "skip: ours cannot express smoothing='x'",
            "value_b": "0.1",
            "verdict": "skipped",
            "abs_delta": None,
            "rel_delta": None,
        },
    ]
    return CompareLog(
        header={"version": 2, "items": 6},
        implementations=IMPLS,
        pairs=pairs,
        end={"pairs": "complete"},
    )
