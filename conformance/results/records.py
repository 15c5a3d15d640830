"""Classified results: what one implementation did on one case, checked against a key.

A :class:`CaseResult` classifies one (implementation, case) pair as one of
:data:`OUTCOMES`; :class:`Mismatch` is one field that differs; :class:`ImplementationInfo`
is what a run records about an implementation. The run log (:mod:`conformance.results.log`)
stores them and every report is rendered from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from ..protocol import jsonable

__all__ = [
    "CHANGED",
    "ERROR",
    "FAIL",
    "FIXED",
    "OUTCOMES",
    "PASS",
    "SKIP",
    "UNEXPECTED",
    "XFAIL",
    "CaseResult",
    "ImplementationInfo",
    "Mismatch",
    "node_id",
]

PASS, FAIL, ERROR, SKIP = "pass", "fail", "error", "skip"
XFAIL, FIXED, CHANGED = "xfail", "fixed", "changed"
#: Every outcome, in report order.
OUTCOMES: tuple[str, ...] = (PASS, FAIL, ERROR, SKIP, XFAIL, FIXED, CHANGED)
#: Outcomes that make a run unsuccessful (exit status 1).
UNEXPECTED: frozenset[str] = frozenset({FAIL, ERROR, FIXED, CHANGED})


def node_id(file: str, case_id: str) -> str:
    """``fixtures/<suite>/<file>.yaml::<case-id>`` (pytest-style id)."""
    return f"{file}::{case_id}" if file else case_id


@dataclass(frozen=True)
class Mismatch:
    """One field that differs: expected vs got, the difference and the tolerance used."""

    field: str
    expected: Any
    got: Any
    delta: float | None = None
    tolerance: float | None = None
    note: str = ""


@dataclass(frozen=True)
class CaseResult:
    """The classified outcome of one case on one implementation."""

    implementation: str
    case_id: str
    file: str
    outcome: str
    reason: str = ""
    expect_key: str = ""
    mismatches: tuple[Mismatch, ...] = ()
    expected: Mapping[str, Any] = field(default_factory=dict)
    got: Mapping[str, Any] = field(default_factory=dict)
    stderr: str = ""
    known_failure: Mapping[str, Any] | None = None
    tags: tuple[str, ...] = ()
    duration: float = 0.0

    @property
    def node_id(self) -> str:
        return node_id(self.file, self.case_id)

    @property
    def unexpected(self) -> bool:
        return self.outcome in UNEXPECTED

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["mismatches"] = [asdict(m) for m in self.mismatches]
        return jsonable(data)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CaseResult:
        values = {k: v for k, v in data.items() if k in _RESULT_FIELDS}
        values["mismatches"] = tuple(Mismatch(**m) for m in values.get("mismatches", ()))
        values["tags"] = tuple(values.get("tags", ()))
        return cls(**values)


_RESULT_FIELDS = frozenset(CaseResult.__dataclass_fields__)


@dataclass(frozen=True)
class ImplementationInfo:
    """What the run log records about one implementation under test."""

    name: str
    version: str
    spec: str
    signature: str = ""
    expect_key: str = ""
    capabilities: Mapping[str, Any] = field(default_factory=dict)
    startup_error: str = ""
