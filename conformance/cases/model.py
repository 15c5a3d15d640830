"""The one case model: frozen dataclasses for cases, inputs, expectations and tolerances.

A fixture case, a generated corpus and a user's corpus are all a :class:`Case`; a case
without expectations is one that implementations are only compared on.

The YAML contract these mirror is ``fixtures/README.md`` and
``fixtures/schema/case-file.schema.json``. Conventions:

* ``Segment.references`` is the list of references of that one hypothesis (NLTK's
  orientation); ``None`` inside it is a *missing* reference, ``""`` an empty one.
* ``Input.format`` is ``raw`` (strings, tokenized by the implementation) or ``tokenized``
  (token lists, used as given).
* ``Expectation.score`` is on the expectation's ``scale`` (1 or 100, the implementation
  key's scale unless overridden) and matches when
  ``|actual - score| <= max(tolerance.abs, tolerance.rel * |score|)``; ``printed`` is the
  tool's printed text, matched within half a unit of its last printed digit.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Literal

from ..results.records import node_id

__all__ = [
    "Case",
    "Expectation",
    "ExpectationKey",
    "Input",
    "InputFormat",
    "Level",
    "LoadResult",
    "Problem",
    "Segment",
    "Text",
    "Tolerance",
    "iter_expectations",
    "printed_half_unit",
]

Level = Literal["sentence", "corpus"]
InputFormat = Literal["raw", "tokenized"]
Text = str | tuple[str, ...]


def _reduce(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """Pickle support for frozen dataclasses holding read-only mappings (worker processes)."""
    values = (getattr(obj, f.name) for f in fields(obj))
    return type(obj), tuple(dict(v) if isinstance(v, MappingProxyType) else v for v in values)


@dataclass(frozen=True)
class Tolerance:
    """How far two scores may be apart and still agree.

    Against a recorded value, ``actual`` is accepted when
    ``|actual - expected| <= max(abs, rel * |expected|)``; between two implementations,
    ``a`` and ``b`` agree when ``|a - b| <= max(abs, rel * max(|a|, |b|))`` (symmetric).
    The relative part keeps a tiny positive score (NLTK's float-min) from equalling 0; the
    absolute part is half a unit of the last digit an implementation prints.
    """

    abs: float = 0.0
    rel: float = 0.0

    def bound(self, expected: float) -> float:
        return max(self.abs, self.rel * abs(expected))

    def accepts(self, actual: float, expected: float) -> bool:
        return abs(actual - expected) <= self.bound(expected)

    def agree(self, a: float, b: float) -> bool:
        return a == b or abs(a - b) <= max(self.abs, self.rel * max(abs(a), abs(b)))

    def widened(self, other: Tolerance) -> Tolerance:
        """The wider of the two in each part."""
        return Tolerance(max(self.abs, other.abs), max(self.rel, other.rel))


def printed_half_unit(printed: str) -> float:
    """Half a unit of the last printed digit: ``"0.5046"`` -> 5e-05, ``"50"`` -> 0.5."""
    exponent = Decimal(printed.strip()).as_tuple().exponent
    assert isinstance(exponent, int)
    return 0.5 * 10.0**exponent


@dataclass(frozen=True)
class Segment:
    """One hypothesis and its references (raw strings or token tuples)."""

    hypothesis: Text
    references: tuple[Text | None, ...]


@dataclass(frozen=True)
class Input:
    """The case input: ``format`` says whether texts are raw strings or token lists."""

    format: InputFormat
    segments: tuple[Segment, ...]

    @property
    def hypotheses(self) -> list[Text]:
        return [s.hypothesis for s in self.segments]

    @property
    def references(self) -> list[list[Text | None]]:
        """Per-segment reference lists (NLTK orientation), ``None`` = missing."""
        return [list(s.references) for s in self.segments]


@dataclass(frozen=True)
class Expectation:
    """What implementation ``key`` returned on a case (or the error it raised).

    Exactly one of ``error`` or the numeric fields is meaningful: an expectation with
    ``error`` set says the implementation must reject the input with that kind.
    """

    key: str
    scale: int = 1
    score: float | None = None
    printed: str | None = None
    tolerance: Tolerance = field(default_factory=Tolerance)
    precisions: tuple[float, ...] | None = None
    counts: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None
    bp: float | None = None
    hyp_len: int | None = None
    ref_len: float | None = None
    error: str | None = None
    source: str | None = None
    note: str = ""
    line: int = 0

    @property
    def is_error(self) -> bool:
        return self.error is not None

    @property
    def printed_tolerance(self) -> Tolerance | None:
        """Half a unit of the last printed digit, or None when nothing printed is recorded."""
        if self.printed is None:
            return None
        return Tolerance(abs=printed_half_unit(self.printed))

    def score_matches(self, actual_on_scale: float) -> bool:
        """True when ``actual_on_scale`` meets ``score`` and ``printed`` (those present)."""
        ok = self.score is None or self.tolerance.accepts(actual_on_scale, self.score)
        pt = self.printed_tolerance
        if pt is not None and self.printed is not None:
            ok = ok and pt.accepts(actual_on_scale, float(self.printed))
        return ok


@dataclass(frozen=True)
class Case:
    """One fixture case: input, knobs, and expected outputs keyed by implementation key."""

    id: str
    description: str
    source: str
    tags: tuple[str, ...]
    level: Level
    config: Mapping[str, Any]
    input: Input
    expected: Mapping[str, Expectation]
    file: str = ""
    line: int = 0
    suite: str = ""
    notes: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "config", MappingProxyType(dict(self.config)))
        object.__setattr__(self, "expected", MappingProxyType(dict(self.expected)))

    __reduce__ = _reduce

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def node_id(self) -> str:
        return node_id(self.file, self.id)

    @property
    def hypotheses(self) -> tuple[Text, ...]:
        return tuple(s.hypothesis for s in self.input.segments)

    @property
    def references(self) -> tuple[tuple[Text | None, ...], ...]:
        """Per-segment reference lists (NLTK orientation), ``None`` = missing."""
        return tuple(s.references for s in self.input.segments)

    @classmethod
    def from_texts(
        cls,
        case_id: str,
        hypotheses: Sequence[str | Sequence[str]],
        references: Sequence[Sequence[str | Sequence[str] | None]],
        *,
        level: Level = "corpus",
        config: Mapping[str, Any] | None = None,
        tags: Sequence[str] = (),
        file: str = "",
        source: str = "",
        description: str = "",
    ) -> Case:
        """A case without expectations on these texts (raw when the hypotheses are
        strings, else token lists); ``references[i]`` are the references of hypothesis i."""
        raw = all(isinstance(h, str) for h in hypotheses)
        return cls(
            id=case_id,
            description=description,
            source=source,
            tags=tuple(tags),
            level=level,
            config=dict(config or {}),
            input=Input("raw" if raw else "tokenized", _segments(hypotheses, references)),
            expected={},
            file=file,
        )

    def with_texts(
        self,
        hypotheses: Sequence[str | Sequence[str]],
        references: Sequence[Sequence[str | Sequence[str] | None]],
    ) -> Case:
        """The same case on other texts (a shrunk input); expectations are dropped."""
        segments = _segments(hypotheses, references)
        return replace(self, input=Input(self.input.format, segments), expected={})


def _text(value: str | Sequence[str]) -> Text:
    return value if isinstance(value, str) else tuple(value)


def _segments(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str] | None]],
) -> tuple[Segment, ...]:
    return tuple(
        Segment(_text(h), tuple(None if r is None else _text(r) for r in refs))
        for h, refs in zip(hypotheses, references, strict=True)
    )


@dataclass(frozen=True)
class ExpectationKey:
    """An expectation key of ``fixtures/implementations.yaml``: the real tool it names and
    the bleu_impl profile + knob overrides meant to reproduce it."""

    key: str
    tool: str
    version: str
    invocation: str
    scale: int
    printed_decimals: int | None
    profile: str | None
    knobs: Mapping[str, Any]
    description: str = ""
    line: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "knobs", MappingProxyType(dict(self.knobs)))

    __reduce__ = _reduce


@dataclass(frozen=True)
class Problem:
    """One problem found while loading fixtures (the loader never stops at the first)."""

    file: str
    line: int
    case_id: str
    rule: str
    message: str

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True)
class LoadResult:
    """Every case that loaded cleanly, every problem found, and the implementation keys."""

    cases: tuple[Case, ...]
    problems: tuple[Problem, ...]
    keys: Mapping[str, ExpectationKey] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def iter_expectations(cases: Sequence[Case]) -> Iterator[tuple[Case, Expectation]]:
    """Every (case, expectation) pair, in file order then key order."""
    for case in cases:
        for expectation in case.expected.values():
            yield case, expectation
