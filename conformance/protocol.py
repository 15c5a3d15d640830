"""What crosses the adapter boundary: :class:`Request` in, :class:`Answer` or an error out.

* :class:`Request` - the question: level, the knobs being set, the input. It is built from
  a case *without* its expectations, so the expected answer is never handed over.
* :class:`Answer` - the reply: a score on the adapter's declared scale with optional
  statistics, or a :class:`Failure` (the implementation rejected the input or died on it,
  which a case may expect).
* :class:`AdapterError` - no answer could be had at all (timeout, crash of a protocol
  process, garbage output, wrong sequence number, import error...).

``docs/protocol.md`` is the wire form of the same messages, ``schemas/protocol.schema.json``
its schema: :func:`read_answer` makes an :class:`Answer` only from data that passes it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .contract import brief, definition, plain, violation

__all__ = [
    "AdapterError",
    "Answer",
    "Failure",
    "Request",
    "SpecError",
    "Text",
    "checked",
    "encodable",
    "jsonable",
    "read_answer",
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
#: The fields of the protocol's answer.
ANSWER_FIELDS = tuple(definition("answer")["properties"])


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


def read_answer(data: Any, stderr: str = "") -> Answer:
    """The answer in ``data`` (the schema's ``answer``: a mapping with a score and statistics,
    numbers of any Python kind, or a failure); AdapterError ``garbage`` naming the field and
    the value when the schema refuses it or counts and totals differ in length."""
    if isinstance(data, Mapping):  # unknown fields are ignored, never read
        data = {name: data[name] for name in ANSWER_FIELDS if name in data}
    data = plain(data)
    problem = violation(data, "answer")
    if problem is None:
        counts, totals = data.get("counts"), data.get("totals")
        if counts is not None and totals is not None and len(counts) != len(totals):
            problem = "counts and totals differ in length"
    if problem is not None:
        raise AdapterError("garbage", problem, stderr)
    failure = data.get("failure")
    if failure is not None:
        kind, message = failure.get("kind"), failure.get("message", "")
        return Answer(failure=Failure(kind, message, stderr), stderr=stderr)
    values = {name: data.get(name) for name in ("score", *STATISTICS)}
    for name in ("counts", "totals", "hyp_len"):  # whole numbers: 6.0 is the count 6
        value = values[name]
        if value is not None:
            values[name] = int(value) if name == "hyp_len" else tuple(int(v) for v in value)
    return Answer(**values, stderr=stderr)


def checked(answer: Any) -> Answer:
    """``answer`` (an adapter's, a worker's reply: its fields may hold anything) read again
    by :func:`read_answer`: a well-typed answer, or AdapterError ``garbage``."""
    if not isinstance(answer, Answer):
        raise AdapterError("garbage", f"the answer is {brief(answer)}, not an Answer")
    failure = answer.failure
    texts = {"stderr": answer.stderr, "failure.stderr": getattr(failure, "stderr", "")}
    for name, text in texts.items():
        if not isinstance(text, str):
            raise AdapterError("garbage", f"{name}: {brief(text)} is not text")
    data: dict[str, Any] = {name: getattr(answer, name) for name in ("score", *STATISTICS)}
    if failure is not None:
        data["failure"] = vars(failure) if isinstance(failure, Failure) else failure
    read = read_answer(data, answer.stderr)
    if read.failure is not None and isinstance(failure, Failure):
        read = replace(read, failure=replace(read.failure, stderr=failure.stderr))
    return read


def jsonable(value: Any) -> Any:
    """``value`` as JSON data: records (dataclasses) as objects of every field, tuples as
    lists, non-finite floats as the strings ``nan``/``inf``/``-inf``, text with lone
    surrogates escaped, anything else unknown as ``str``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
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
