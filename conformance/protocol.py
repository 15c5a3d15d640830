"""What crosses the adapter boundary: :class:`Request` in, :class:`Answer` or an error out.

* :class:`Request` - the question: level, the knobs being set, the input. It is built from
  a case *without* its expectations, so the expected answer is never handed over.
* :class:`Answer` - the reply: a score on the adapter's declared scale with optional
  statistics, or a :class:`Failure` (the implementation rejected the input or died on it,
  which a case may expect).
* :class:`AdapterError` - no answer could be had at all (timeout, crash of a protocol
  process, garbage output, wrong sequence number, import error...).

``docs/protocol.md`` is the wire form of the same messages.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "AdapterError",
    "Answer",
    "Failure",
    "Request",
    "SpecError",
    "Text",
    "encodable",
    "finite_number",
    "jsonable",
]

Text = str | Sequence[str]


@dataclass(frozen=True)
class Request:
    """One question to an implementation. Never carries an expected value.

    ``config`` holds the knobs being set: the case's own plus those of the expectation key
    it is checked against; this is what an implementation receives. ``case_knobs`` names
    the case's own (an adapter must be able to set those). ``semantics`` is the complete
    setting being checked (the key's bleu_impl profile resolved with ``config``, every knob
    present); it decides whether an adapter with a native profile can express the request
    and is never sent. Without an expectation key it is empty and ``config`` is all there is.
    """

    level: str
    config: Mapping[str, Any]
    hypotheses: tuple[Text, ...]
    references: tuple[tuple[Text | None, ...], ...]
    input_format: str = "raw"
    case_knobs: frozenset[str] = frozenset()
    semantics: Mapping[str, Any] = field(default_factory=dict)

    @property
    def complete(self) -> Mapping[str, Any]:
        """``semantics`` when known, else the knobs being set."""
        return self.semantics or self.config

    def config_for(self, knobs: Mapping[str, Any] | None) -> dict[str, Any]:
        """What an implementation that can set ``knobs`` receives: every knob of the
        complete semantics when it takes any knob (``None``: it decides), else the knobs
        being set that it names."""
        if knobs is None:
            return dict(self.complete)
        return {k: v for k, v in self.config.items() if k in knobs}

    def to_json(self, knobs: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The wire form (``docs/protocol.md``) for an implementation that sets ``knobs``."""

        def plain(t: Text | None) -> Any:
            return t if t is None or isinstance(t, str) else list(t)

        return {
            "level": self.level,
            "config": jsonable(self.config_for(knobs)),
            "input_format": self.input_format,
            "hypotheses": [plain(h) for h in self.hypotheses],
            "references": [[plain(r) for r in refs] for refs in self.references],
        }


@dataclass(frozen=True)
class Failure:
    """The implementation rejected the input or died on it.

    ``kind`` uses the fixtures' error vocabulary when the adapter knows it (bleu_impl's
    EmulatedFailure kinds, or what a protocol adapter reports); ``None`` when it cannot
    tell (an exception type or exit status is then in ``message``).
    """

    kind: str | None
    message: str
    stderr: str = ""


#: Statistics an answer may carry besides the score, in report order.
STATISTICS = ("counts", "totals", "bp", "hyp_len", "ref_len")


@dataclass(frozen=True)
class Answer:
    """An implementation's reply: a score on the adapter's scale, or a failure."""

    score: float | None = None
    counts: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None
    bp: float | None = None
    hyp_len: int | None = None
    ref_len: float | None = None
    failure: Failure | None = None
    stderr: str = ""

    def reported(self) -> dict[str, Any]:
        """The fields the implementation reported (JSON-friendly)."""
        if self.failure is not None:
            return {"failure": asdict(self.failure)}
        out: dict[str, Any] = {}
        for name in ("score", *STATISTICS):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def problems(self) -> list[str]:
        """Why this answer is unusable (empty when it is fine): a failure, or a finite
        real score and well-typed, finite statistics."""
        if self.failure is not None:
            return []
        found = []
        if not finite_number(self.score):
            found.append(f"score is {_shown(self.score)}, not a finite number")
        elif (
            self.score is not None and self.score < 0
        ):  # BLEU is a geometric mean times a penalty: never negative
            found.append(f"score is {self.score!r}, not a number >= 0")
        for name in ("counts", "totals"):
            value = getattr(self, name)
            if value is not None and not all(_count(v) for v in value):
                found.append(f"{name} {_shown(list(value))} are not non-negative integers")
        if (
            self.counts is not None
            and self.totals is not None
            and len(self.counts) != len(self.totals)
        ):
            found.append("counts and totals differ in length")
        for name in ("bp", "ref_len"):
            value = getattr(self, name)
            if value is not None and not (finite_number(value) and value >= 0):
                found.append(f"{name} is {_shown(value)}, not a finite number >= 0")
        if self.hyp_len is not None and not _count(self.hyp_len):
            found.append(f"hyp_len is {_shown(self.hyp_len)}, not an integer >= 0")
        return found


def finite_number(value: Any) -> bool:
    """A finite int or float, not a bool (an integer too large for a float is not)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _count(value: Any) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value >= 0
        and finite_number(value)
    )


def _shown(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters (a 400-digit number stays readable)."""
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


class AdapterError(Exception):
    """No usable answer: timeout, crash, garbage, protocol violation, bad configuration."""

    def __init__(self, kind: str, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.stderr = stderr


class SpecError(AdapterError):
    """An implementation spec that names nothing usable (an unknown name or profile, a bad
    adapter file, a library not installed): a usage error, unlike an implementation that
    exists but fails while starting."""

    def __init__(self, message: str) -> None:
        super().__init__("config", message)


def jsonable(value: Any) -> Any:
    """Tuples to lists, non-finite floats to strings, anything else unknown to ``str``."""
    if isinstance(value, Mapping):
        return {encodable(str(k)): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, float) and value != value:  # NaN is not JSON
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, str):
        return encodable(value)
    if value is None or isinstance(value, int | float | bool):
        return value
    return encodable(str(value))


def encodable(text: str) -> str:
    """``text`` with lone surrogates (which UTF-8 cannot encode: an implementation's
    ``os.fsdecode`` of bad bytes) written as ``\\udcff``, so no log or report fails on them."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text
