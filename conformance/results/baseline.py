"""Regression baselines: what each implementation answered on each case, to diff later.

The file is JSON with sorted keys and one case per line-ish block, so it diffs well in
review::

    {"format": "bleu-conformance-baseline", "version": 1,
     "implementations": {"nltk": {"version": "3.10.4", "signature": "...",
                                  "cases": {"case-id": {"outcome": "pass", "score": 0.5}}}}}

:func:`diff` reports what moved: outcomes, scores (beyond a relative 1e-12), failures,
cases that appeared or vanished, and version or signature changes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..contract import finite_number
from ..outputs import write_atomic
from ..protocol import jsonable
from .records import CaseResult, ImplementationInfo

FORMAT = "bleu-conformance-baseline"
VERSION = 1
SCORE_RTOL = 1e-12


def _entry(result: CaseResult) -> dict[str, Any]:
    entry: dict[str, Any] = {"outcome": result.outcome}
    if result.expect_key:
        entry["expect"] = result.expect_key
    got = result.got or {}
    if "score" in got:
        score = got["score"]
        entry["score"] = score if finite_number(score) else str(score)  # "nan" stays visible
    if "failure" in got:
        entry["failure"] = (got["failure"] or {}).get("kind") or "failed"
    return entry


def build(
    implementations: Sequence[ImplementationInfo], results: Iterable[CaseResult]
) -> dict[str, Any]:
    """The baseline document for a run."""
    impls: dict[str, Any] = {
        info.name: {"version": info.version, "signature": info.signature, "cases": {}}
        for info in implementations
    }
    for result in results:
        impl = impls.setdefault(result.implementation, {"version": "", "cases": {}})
        impl["cases"][result.case_id] = _entry(result)
    return {"format": FORMAT, "version": VERSION, "implementations": impls}


def merge(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """``old`` updated with ``new``'s cases (for updating the baseline from a filtered run)."""
    impls = {name: dict(v) for name, v in old.get("implementations", {}).items()}
    for name, now in new.get("implementations", {}).items():
        merged = dict(impls.get(name, {}))
        merged.update({k: v for k, v in now.items() if k != "cases"})
        merged["cases"] = {**merged.get("cases", {}), **now.get("cases", {})}
        impls[name] = merged
    return {"format": FORMAT, "version": VERSION, "implementations": impls}


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(jsonable(document), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write(path: str | Path, document: Mapping[str, Any]) -> None:
    """Write the baseline atomically (OutputError when it cannot be written)."""
    write_atomic(path, dumps(document), "baseline")


def _read_text(path: Path, head: int = 1 << 16) -> str:
    """The file's text; one that does not start as a JSON object stops at its first
    ``head`` bytes (a device such as ``/dev/full`` or ``/dev/zero`` never ends)."""
    with path.open("rb") as stream:
        start = stream.read(head)
        rest = stream.read() if start.lstrip().startswith(b"{") else b""
    return (start + rest).decode("utf-8")


def read(path: str | Path) -> dict[str, Any]:
    """A baseline file, its structure checked (ValueError says what is wrong)."""
    try:
        data = json.loads(_read_text(Path(path)))
    except (OSError, ValueError, RecursionError) as exc:  # ValueError: bad UTF-8, JSON
        raise ValueError(f"{path}: cannot read baseline: {str(exc)[:200]}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(
            f"{path}: not a bleu-conformance baseline (a JSON object with "
            f'"format": "{FORMAT}"; record one with --update-baseline)'
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ValueError(f"{path}: baseline version must be an integer, got {version!r}")
    if version > VERSION:
        raise ValueError(f"{path}: baseline version {version} is newer than this tool")
    _check_implementations(data.get("implementations"), path)
    return data


def _check_implementations(impls: Any, path: str | Path) -> None:
    """``implementations`` maps names to objects whose ``cases`` map ids to objects."""
    if not isinstance(impls, dict):
        raise ValueError(f"{path}: 'implementations' must be an object (name -> entry)")
    for name, entry in impls.items():
        cases = entry.get("cases") if isinstance(entry, dict) else None
        if not isinstance(cases, dict) or not all(isinstance(c, dict) for c in cases.values()):
            raise ValueError(
                f"{path}: implementations.{name}: want an object with 'cases' mapping each "
                "case id to an object (outcome, score...)"
            )


def _score_moved(old: Any, new: Any) -> bool:
    """Beyond a relative 1e-12 for two finite numbers; otherwise any change (a NaN, an
    infinity or a string on either side moves unless both are the same)."""
    if not (finite_number(old) and finite_number(new)):
        return str(old) != str(new)
    return abs(new - old) > SCORE_RTOL * max(1.0, abs(old), abs(new))


def diff(
    old: Mapping[str, Any], new: Mapping[str, Any], *, subset: bool = False
) -> list[dict[str, Any]]:
    """Movements from baseline ``old`` to run ``new``, for implementations present in ``new``.

    Each movement: ``implementation``, ``case`` (or ``""``), ``what``, ``before``/``after``
    and ``regression``. With ``subset`` (a filtered run) absent cases are not "gone".
    """
    moved: list[dict[str, Any]] = []
    old_impls = old.get("implementations", {})
    for name, now in sorted(new.get("implementations", {}).items()):
        then = old_impls.get(name)
        if then is None:
            moved.append(_move(name, "", "new implementation", None, now.get("version")))
            continue
        for field in ("version", "signature"):
            if then.get(field, "") != now.get(field, ""):
                moved.append(_move(name, "", field, then.get(field), now.get(field)))
        before, after = then.get("cases", {}), now.get("cases", {})
        for case in sorted(set(before) | set(after)):
            b, a = before.get(case), after.get(case)
            if a is None and subset:
                continue
            movement = _case_movement(b, a)
            if movement is not None:
                moved.append(_move(name, case, *movement))
    return moved


def _case_movement(before: Any, after: Any) -> tuple[str, Any, Any] | None:
    """(what, before, after) for the first thing that moved in one case, or None."""
    if before is None or after is None:
        return ("new case" if before is None else "case gone"), before, after
    for field in ("outcome", "score", "failure"):
        b, a = before.get(field), after.get(field)
        moved = _score_moved(b, a) if field == "score" else b != a
        if moved:
            return field, b, a
    return None


#: Movements that fail a run (the rest - versions, signatures, added cases - inform).
REGRESSIONS = frozenset({"outcome", "score", "failure"})


def _move(impl: str, case: str, what: str, before: Any, after: Any) -> dict[str, Any]:
    return {
        "implementation": impl,
        "case": case,
        "what": what,
        "before": before,
        "after": after,
        "regression": what in REGRESSIONS,
    }
