"""What each record of the run log and of the compare log must hold for a report to use
it: per record kind, the shape of every field a reporter reads and the fields it cannot
do without (:mod:`conformance.results.logcheck` checks them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .logcheck import (
    ANY,
    FLAG,
    INTEGER,
    MAPPING,
    NUMBER,
    TEXT,
    Shape,
    check_record,
    list_of,
    one_of,
    optional,
    shown,
)
from .records import OUTCOMES

__all__ = ["COMPARE_RECORDS", "RUN_RECORDS", "checked"]

Spec = tuple[dict[str, Shape], tuple[str, ...]]

_TEXTS = list_of(TEXT)
_CHANGE = Shape("a [knob, a, b] triple", lambda v: isinstance(v, list) and len(v) == 3)

RUN_RECORDS: dict[str, Spec] = {
    "run": (
        {
            "format": TEXT,
            "version": INTEGER,
            "argv": _TEXTS,
            "impls": _TEXTS,
            "cases": INTEGER,
            "fixtures": _TEXTS,
            "reference": TEXT,
        },
        ("format",),
    ),
    "implementation": (
        {
            "name": TEXT,
            "version": TEXT,
            "spec": TEXT,
            "signature": TEXT,
            "expect_key": TEXT,
            "capabilities": MAPPING,
            "startup_error": TEXT,
        },
        ("name", "version", "spec"),
    ),
    "result": (
        {
            "implementation": TEXT,
            "case_id": TEXT,
            "file": TEXT,
            "outcome": one_of(OUTCOMES),
            "reason": TEXT,
            "expect_key": TEXT,
            "mismatches": list_of(MAPPING),
            "expected": MAPPING,
            "got": MAPPING,
            "stderr": TEXT,
            "known_failure": optional(MAPPING),
            "tags": _TEXTS,
            "duration": NUMBER,
        },
        ("implementation", "case_id", "file", "outcome"),
    ),
    "mismatch": (
        {
            "field": TEXT,
            "expected": ANY,
            "got": ANY,
            "delta": optional(NUMBER),
            "tolerance": optional(NUMBER),
            "note": TEXT,
        },
        ("field",),
    ),
    "known_failure": ({"reason": TEXT, "link": TEXT}, ()),
    "baseline": (
        {"implementation": TEXT, "case": TEXT, "what": TEXT, "regression": FLAG, "accepted": FLAG},
        ("implementation", "case", "what"),
    ),
    "problem": (
        {"file": TEXT, "line": INTEGER, "case": TEXT, "rule": TEXT, "message": TEXT},
        (),
    ),
    "end": ({}, ()),
}

COMPARE_RECORDS: dict[str, Spec] = {
    "header": (
        {
            "created": TEXT,
            "implementations_compared": _TEXTS,
            "items": INTEGER,
            "generated": INTEGER,
            "seed": INTEGER,
        },
        (),
    ),
    "implementation": ({"name": TEXT, "version": TEXT, "spec": TEXT}, ("name",)),
    "pair": (
        {
            "item": TEXT,
            "file": TEXT,
            "a": TEXT,
            "b": TEXT,
            "value_a": TEXT,
            "value_b": TEXT,
            "verdict": TEXT,
            "abs_delta": optional(NUMBER),
            "rel_delta": optional(NUMBER),
            "score_a": NUMBER,
            "score_b": NUMBER,
            "failure_a": TEXT,
            "failure_b": TEXT,
            "cause": TEXT,
            "explained": FLAG,
            "changes": list_of(_CHANGE),
            "alternatives": TEXT,
            "stats_diff": _TEXTS,
            "stats_a": optional(MAPPING),
            "stats_b": optional(MAPPING),
            "shrink": MAPPING,
            "minimal": MAPPING,
        },
        ("item", "a", "b", "verdict"),
    ),
    "end": ({}, ()),
}


def checked(table: Mapping[str, Spec], kind: str, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` of ``kind`` checked against ``table`` (ValueError naming the field) and
    made safe to print (:func:`~conformance.results.logcheck.shown`)."""
    shapes, required = table[kind]
    check_record(record, shapes, required)
    return shown(record)
