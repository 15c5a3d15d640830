"""The one adapter interface every implementation under test is driven through.

An adapter declares its :class:`Capabilities` (levels, knobs and their values, input form,
scale, printed precision) and answers :class:`~conformance.protocol.Request` objects. Whether
a case can be expressed at all is decided by :meth:`Adapter.check` *before* anything is sent,
so a case the implementation cannot express is a skip with a reason, never a failure.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bleu_impl import KnobError, get_profile, normalize_knob

from ..protocol import Answer, Request

__all__ = [
    "DEFAULT_EXPECT",
    "DEFAULT_TIMEOUT",
    "Adapter",
    "Capabilities",
    "canonical",
    "distinct_name",
    "profile_arithmetic",
    "profile_knobs",
    "settable",
    "unexpressible",
]

DEFAULT_TIMEOUT = 30.0
#: What a user's implementation is checked against unless it or ``--expect`` says otherwise.
DEFAULT_EXPECT: tuple[str, ...] = ("papineni2002",)


@dataclass(frozen=True)
class Capabilities:
    """What an implementation can be asked, and how its answers read.

    * ``knobs``: knob -> allowed values (``None`` = any value) the adapter can *set*;
      ``knobs=None`` means every knob is passed through (a user's function decides).
    * ``native``: the bleu_impl profile describing the implementation's fixed behaviour
      (with ``native_knobs`` on top, e.g. an expectation key's knobs); a knob it cannot set
      is still expressible when the case asks for the native value.
    * ``inputs``: accepted input forms, ``raw`` strings and/or ``tokenized`` token lists.
    * ``scale``: the score scale of answers (1 or 100); ``precision``: decimals it prints
      (``None`` = full float), which widens the tolerance to half a unit of the last digit.
    * ``arithmetic``: ``float64``, or ``float32`` for an implementation that computes in
      single precision (torch/keras tensors, a GPU), which widens the tolerance to 1e-6
      relative.
    """

    name: str
    version: str = "unknown"
    levels: frozenset[str] = frozenset({"sentence", "corpus"})
    knobs: Mapping[str, tuple[Any, ...] | None] | None = field(default_factory=dict)
    native: str | None = None
    native_knobs: Mapping[str, Any] = field(default_factory=dict)
    inputs: frozenset[str] = frozenset({"raw", "tokenized"})
    scale: int = 1
    precision: int | None = None
    signature: str = ""
    expect: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    arithmetic: str = "float64"

    @property
    def half_unit(self) -> float:
        """Half a unit of the last printed digit on the adapter's scale (0 = full float)."""
        return 0.0 if self.precision is None else 0.5 * 10.0**-self.precision

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "levels": sorted(self.levels),
            "knobs": None
            if self.knobs is None
            else {k: None if v is None else list(v) for k, v in sorted(self.knobs.items())},
            "native": self.native,
            "native_knobs": dict(self.native_knobs),
            "inputs": sorted(self.inputs),
            "scale": self.scale,
            "precision": self.precision,
            "signature": self.signature,
            "expect": list(self.expect),
            "timeout": self.timeout,
            "arithmetic": self.arithmetic,
        }


def profile_arithmetic(profile: str, knobs: Mapping[str, Any] | None = None) -> str:
    """``float32`` when ``profile`` (with ``knobs``) computes or rounds in single precision,
    else ``float64``: what a live adapter of that tool declares."""
    try:
        config = get_profile(profile).resolve(dict(knobs or {}))
    except KnobError:
        return "float64"
    single = config.arithmetic == "float32" or config.result_float == "float32"
    return "float32" if single else "float64"


def distinct_name(name: str, spec: str, taken: set[str]) -> str:
    """``name``, or, when an implementation already took it, ``name [spec]`` (then
    ``name #2``...), so two implementations are never merged into one row of a report."""
    candidates = [name, f"{name} [{spec}]"] if spec != name else [name]
    candidates += [f"{name} #{n}" for n in range(2, len(taken) + 3)]
    return next(c for c in candidates if c not in taken)


def profile_knobs(profile: str) -> dict[str, tuple[Any, ...] | None] | None:
    """What a tool emulated by ``profile`` can set: its options (``None``: every knob)."""
    options = get_profile(profile).options
    if options is None:
        return None
    return {knob: option.values for knob, option in options.items()}


def canonical(name: str, value: Any) -> Any:
    try:
        return normalize_knob(name, value)
    except KnobError:
        return value


def unexpressible(caps: Capabilities, request: Request) -> str | None:
    """Why ``caps`` cannot express ``request`` (level, input form or a knob), or None.

    ``request.complete`` is the complete semantics being checked (the expectation key's
    profile resolved with the knobs being set). An adapter with a ``native`` profile must
    either set each knob to that value or already behave that way; an adapter without one
    claims the key's semantics and need only set the knobs the case itself sets.
    """
    if request.level not in caps.levels:
        return f"{caps.name} has no {request.level}-level scoring"
    if request.input_format not in caps.inputs:
        return f"{caps.name} does not take {request.input_format} input"
    if caps.knobs is None:
        return None
    semantics = request.complete
    # the case's own knobs first: the reason then names what the case is about
    names = sorted(request.case_knobs)
    if caps.native:
        names += sorted(set(semantics) - request.case_knobs)
    default = _native_default(caps, request.level)
    for name in names:
        reason = _unsettable(caps, name, canonical(name, semantics.get(name)), default)
        if reason is not None:
            return reason
    return None if caps.native is None else _native_reason(caps, request, names)


def _unsettable(caps: Capabilities, name: str, value: Any, default: Any) -> str | None:
    """Why the adapter cannot set ``name`` to ``value`` (None when it can, or when the
    native profile decides)."""
    assert caps.knobs is not None
    if name not in caps.knobs:
        if caps.native is None:
            return f"{caps.name} cannot express {name}={value!r} (knob not supported)"
        return None
    allowed = caps.knobs[name]
    if getattr(default, name, object()) == value:
        return None  # what it does anyway
    if allowed is not None and value not in [canonical(name, a) for a in allowed]:
        return f"{caps.name} cannot express {name}={value!r} (supports: {_shown(allowed)})"
    return None


def _native_reason(caps: Capabilities, request: Request, names: list[str]) -> str | None:
    """Why the native profile, with the knobs the adapter can set, misses a knob value."""
    assert caps.native is not None
    semantics = request.complete
    try:
        have = get_profile(caps.native).resolve(
            {**caps.native_knobs, **settable(caps, semantics)}, request.level
        )
    except KnobError as exc:
        return f"{caps.name} cannot express these knobs: {exc}"
    for name in names:
        want = canonical(name, semantics.get(name))
        if getattr(have, name, want) != want:
            return (
                f"{caps.name} cannot express {name}={want!r} "
                f"(it always uses {getattr(have, name)!r})"
            )
    return None


def _native_default(caps: Capabilities, level: str) -> Any:
    """What the implementation does with no knob set (its native profile), or None."""
    if not caps.native:
        return None
    try:
        return get_profile(caps.native).resolve(dict(caps.native_knobs), level)
    except KnobError:
        return None


def _shown(values: tuple[Any, ...]) -> str:
    return ", ".join(str(v) for v in values)


def settable(caps: Capabilities, config: Mapping[str, Any]) -> dict[str, Any]:
    """The knobs of ``config`` that the adapter sets (the rest equal its native values)."""
    if caps.knobs is None:
        return dict(config)
    return {k: canonical(k, v) for k, v in config.items() if k in caps.knobs}


class Adapter(ABC):
    """Drive one implementation: declare capabilities, answer requests, clean up."""

    capabilities: Capabilities
    #: Whether the work happens in another process (a worker, a program): such adapters
    #: may be asked from a thread while this process computes something else.
    separate_process: ClassVar[bool] = False

    def check(self, request: Request) -> str | None:
        """The reason this request cannot be expressed (a skip), or None."""
        return unexpressible(self.capabilities, request)

    @abstractmethod
    def run(self, request: Request) -> Answer:
        """Answer ``request``; raise :class:`AdapterError` when no answer can be had."""

    def close(self) -> None:
        """Release processes or other resources (idempotent)."""
        return None

    def warm_up(self) -> None:
        """Pay one-time costs (a library's first import, its first call) before the first
        case, outside the per-case clock; the engine calls :meth:`ensure_warm` once."""
        return None

    def ensure_warm(self) -> None:
        """Run :meth:`warm_up` the first time only (a failing warm-up is not retried: the
        cases then report the problem)."""
        if getattr(self, "_warmed", False):
            return
        self._warmed = True
        self.warm_up()

    def __enter__(self) -> Adapter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
