"""Logs of earlier releases, read as today's records.

* The run log (``{"record": "run", "format": "bleu-conformance-run", "version": 1}`` header):
  its records are today's but for the header.
* The compare log (``{"kind": "bleu-conformance-compare", "version": 1 | 2}`` header, a
  ``kind`` key on every line; version 1 had no end record): each side of a pair was a string
  such as ``skip: <reason>`` or ``error:<kind> (<message>)``, read back into a :class:`Side`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["COMPARE_V1", "legacy_format", "upgrade"]

RUN_V1 = "run-v1"
COMPARE_V1 = "compare-v1"
COMPARE_V2 = "compare-v2"


def legacy_format(first: Mapping[str, Any]) -> str | None:
    """Which earlier log format a log whose first line is ``first`` has (None: today's)."""
    if first.get("record") == "run":
        if first.get("format") != "bleu-conformance-run":
            raise ValueError("not a bleu-conformance run log")
        if not isinstance(first.get("version"), int) or first["version"] > 1:
            raise ValueError(f"run log version {first.get('version')!r} is not known")
        return RUN_V1
    if "record" not in first and first.get("kind") == "bleu-conformance-compare":
        if first.get("version") not in (1, 2):
            raise ValueError("unsupported compare log version")
        return COMPARE_V1 if first["version"] == 1 else COMPARE_V2
    return None


def upgrade(legacy: str, data: dict[str, Any]) -> dict[str, Any]:
    """One line of a log in ``legacy`` format as today's record."""
    if legacy == RUN_V1:
        if data.get("record") != "run":
            return data
        params = {k: v for k, v in data.items() if k not in ("record", "format", "version")}
        argv = params.pop("argv", [])
        return {"record": "header", "command": "run", "argv": argv, "params": params}
    kind = data.get("kind")
    if kind == "bleu-conformance-compare":
        if "record" in data:
            raise ValueError("a second header (two logs written into one file?)")
        params = {k: v for k, v in data.items() if k not in ("kind", "version", "created")}
        created = data.get("created", "")
        return {"record": "header", "command": "compare", "created": created, "params": params}
    if kind == "implementation":
        return {"record": "implementation", "version": "", "spec": "", **_without(data, "kind")}
    if kind == "pair":
        return _pair(data)
    if kind == "end":
        problems, shrink = data.get("fixture_problems", 0), data.get("shrink")
        return {"record": "end", "problems": problems, "shrink": shrink}
    if data.get("record") == "run":
        raise ValueError("a run log line in a compare log")
    raise ValueError(f"unknown record kind {kind!r}")


def _without(data: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


_FAILED = re.compile(r"error:(\S+)(?: \((.*)\))?", re.S)


def _side(value: Any, score: Any, failure: Any) -> dict[str, Any]:
    """A side from its ``value`` string and its ``score``/``failure`` field."""
    text = str(value or "")
    for prefix, status in (("skip: ", "skipped"), ("error: ", "errored")):
        if text.startswith(prefix):
            return {"status": status, "message": text.removeprefix(prefix)}
    if failure is not None:
        match = _FAILED.fullmatch(text)
        message = match.group(2) or "" if match else ""
        return {"status": "answered", "failure": failure, "message": message}
    if score is None:  # a number, or how the log writes a non-finite one
        try:
            score = text if text in ("nan", "inf", "-inf") else float(text)
        except ValueError:
            return {"status": "errored", "message": text}
    return {"status": "answered", "score": score}


def _pair(data: Mapping[str, Any]) -> dict[str, Any]:
    record = {
        "record": "pair",
        **{k: data[k] for k in ("item", "a", "b", "verdict") if k in data},
        "file": data.get("file", ""),
        "side_a": _side(data.get("value_a"), data.get("score_a"), data.get("failure_a")),
        "side_b": _side(data.get("value_b"), data.get("score_b"), data.get("failure_b")),
        "abs_delta": data.get("abs_delta"),
        "rel_delta": data.get("rel_delta"),
        "stats_diff": data.get("stats_diff", []),
    }
    for key in ("stats_a", "stats_b", "shrink", "minimal"):
        if data.get(key) is not None:
            record[key] = data[key]
    if "cause" in data:
        changes = data.get("changes") or []
        if not isinstance(changes, list) or not all(
            isinstance(c, list) and len(c) == 3 for c in changes
        ):
            raise ValueError(f"'changes' must be a list of [knob, a, b], got {changes!r:.60}")
        record["cause"] = {
            "cause": data["cause"],
            "explained": data.get("explained", False),
            "changes": [{"knob": k, "a": a, "b": b} for k, a, b in changes],
            "alternatives": data.get("alternatives", ""),
        }
    return record
