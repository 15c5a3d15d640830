"""Typed records of everything a command found: one family for run, compare, the corpus
report and identify, written to one JSON Lines log (:mod:`.log`) and read back into a
:class:`~.report.Report` that every reporter renders.

Every record is a frozen dataclass whose fields are JSON-like (:mod:`.codec` writes, reads
and derives the log's JSON Schema from them). Scores in records are on 0..1 except where a
field says 0–100 (the corpus report's, as people print BLEU).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..cases.model import node_id
from .vocab import (
    ANSWERED,
    SKIPPED,
    UNEXPECTED,
    Command,
    Match,
    Outcome,
    Policy,
    Status,
    Verdict,
)

__all__ = [
    "RECORDS",
    "Behaviour",
    "Candidate",
    "CaseResult",
    "Cause",
    "Cell",
    "Change",
    "CorpusSummary",
    "Decomposition",
    "End",
    "Flip",
    "Header",
    "Identification",
    "ImplementationInfo",
    "Interval",
    "Minimal",
    "Mismatch",
    "Movement",
    "Pair",
    "Problem",
    "Release",
    "Reproduced",
    "SegmentRow",
    "Segments",
    "ShrinkSummary",
    "Shrinking",
    "Side",
    "Significance",
    "Spread",
    "Statistics",
    "Step",
    "System",
    "show_value",
]


def show_value(value: Any) -> str:
    """A knob value as reports write it (and ``--knob`` reads it): on/off, default, weights
    as ``(0.25,0.25)``, others as ``str``."""
    if value is False:
        return "off"
    if value is True:
        return "on"
    if value is None:
        return "default"
    if isinstance(value, tuple | list):
        return "(" + ",".join(f"{v:g}" for v in value) + ")"
    return str(value)


# --- every command ----------------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """The first record: which command wrote the log, how it was called, when, by which
    version of the tool, under which policy; ``params`` holds the command's own settings."""

    KIND: ClassVar[str] = "header"
    FORMAT: ClassVar[str] = "bleu-conformance-log"
    VERSION: ClassVar[int] = 3

    command: Command
    argv: tuple[str, ...] = ()
    created: str = ""
    tool: str = ""
    policy: Policy = field(default_factory=Policy)
    params: Mapping[str, Any] = field(default_factory=dict)
    format: str = FORMAT
    version: int = VERSION


@dataclass(frozen=True)
class ImplementationInfo:
    """One implementation under test: its name, version, ``--impl`` spec, bleu_impl
    signature, what it is checked against (``default_expect``: by default, as no
    expectation names it), its declared capabilities, and why it could not start (empty
    when it started)."""

    KIND: ClassVar[str] = "implementation"

    name: str
    version: str
    spec: str
    signature: str = ""
    expect_key: str = ""
    capabilities: Mapping[str, Any] = field(default_factory=dict)
    startup_error: str = ""
    default_expect: bool = False


@dataclass(frozen=True)
class Problem:
    """A fixture problem: the cases it concerns were not checked, so the run is no verdict."""

    KIND: ClassVar[str] = "problem"

    file: str = ""
    line: int = 0
    case: str = ""
    rule: str = ""
    message: str = ""


@dataclass(frozen=True)
class ShrinkSummary:
    """What shrinking generated disagreements cost: how many, candidate inputs tried, and
    how many ran out of their budget (their minimal inputs may shrink further)."""

    disagreements: int
    steps: int
    budget_spent: int


@dataclass(frozen=True)
class End:
    """The last record: its absence means the command was interrupted. ``status`` is an exit
    status the command decided itself (a baseline update); ``problems`` counts fixture
    problems."""

    KIND: ClassVar[str] = "end"

    status: int | None = None
    problems: int = 0
    shrink: ShrinkSummary | None = None


# --- run ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    """One field that differs: expected vs got, the difference and the tolerance used."""

    field: str
    expected: Any = None
    got: Any = None
    delta: float | None = None
    tolerance: float | None = None
    note: str = ""


@dataclass(frozen=True)
class CaseResult:
    """The classified outcome of one case on one implementation."""

    KIND: ClassVar[str] = "result"

    implementation: str
    case_id: str
    file: str
    outcome: Outcome
    reason: str = ""
    expect_key: str = ""
    mismatches: tuple[Mismatch, ...] = ()
    expected: Mapping[str, Any] = field(default_factory=dict)
    got: Mapping[str, Any] = field(default_factory=dict)
    stderr: str = ""
    known_failure: Mapping[str, str] | None = None
    tags: tuple[str, ...] = ()
    duration: float = 0.0

    @property
    def node_id(self) -> str:
        return node_id(self.file, self.case_id)

    @property
    def unexpected(self) -> bool:
        return self.outcome in UNEXPECTED


@dataclass(frozen=True)
class Movement:
    """What moved since the regression baseline (``case`` empty for the implementation)."""

    KIND: ClassVar[str] = "baseline"

    implementation: str
    case: str
    what: str
    before: Any = None
    after: Any = None
    regression: bool = False
    accepted: bool = False


# --- compare (fixture cases) -----------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """What one implementation gave on a case: a score (0..1) or the kind of failure it
    reported (``unknown`` when it raised without saying), or no answer (skipped, errored)
    with ``message`` saying why (for a failure: what it said)."""

    status: Status
    score: float | None = None
    failure: str | None = None
    message: str = ""

    @property
    def text(self) -> str:
        """As reports show it: ``0.4312``, ``error:kind``, ``skip: why``, ``error: why``."""
        if self.status != ANSWERED:
            return f"{'skip' if self.status == SKIPPED else 'error'}: {self.message}"[:80]
        if self.failure is None:
            return repr(self.score)
        shown = f"error:{self.failure}"
        return f"{shown} ({self.message})"[:80] if self.message else shown


@dataclass(frozen=True)
class Change:
    """One knob whose value differs: ``a`` on the first side, ``b`` on the second."""

    knob: str
    a: Any = None
    b: Any = None


@dataclass(frozen=True)
class Cause:
    """Why two answers differ: the smallest knob changes turning one side's setting into the
    other's (``explained`` False when none does), and the equally minimal alternatives."""

    cause: str
    explained: bool
    changes: tuple[Change, ...] = ()
    alternatives: str = ""


@dataclass(frozen=True)
class Statistics:
    """What one side counted (per-order matches and totals, lengths, brevity penalty) and
    where the numbers come from: ``reported`` or ``bleu_impl:<profile>``."""

    source: str
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    hyp_len: float | None = None
    ref_len: float | None = None
    bp: float | None = None


@dataclass(frozen=True)
class Shrinking:
    """What shrinking one disagreement cost: candidate inputs tried, its budget, whether the
    budget ran out."""

    steps: int
    budget: int
    exhausted: bool = False
    note: str = ""


@dataclass(frozen=True)
class Minimal:
    """The smallest input found on which the two still differ."""

    hypotheses: tuple[Any, ...]
    references: tuple[Any, ...]


@dataclass(frozen=True)
class Pair:
    """Two implementations on one case: each side, the verdict, the difference of two
    scores (0..1), and for a difference its cause, both sides' statistics and what differs
    between them, and the minimal input; ``tags``: the case's (its provenance)."""

    KIND: ClassVar[str] = "pair"

    item: str
    file: str
    a: str
    b: str
    side_a: Side
    side_b: Side
    verdict: Verdict
    abs_delta: float | None = None
    rel_delta: float | None = None
    cause: Cause | None = None
    stats_a: Statistics | None = None
    stats_b: Statistics | None = None
    stats_diff: tuple[str, ...] = ()
    shrink: Shrinking | None = None
    minimal: Minimal | None = None
    tags: tuple[str, ...] = ()


# --- the corpus report ------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One implementation on one system: a score (0–100) or why there is none (``failed``:
    the implementation reported a failure)."""

    KIND: ClassVar[str] = "cell"

    implementation: str
    system: str
    status: str  # answered / failed / errored / skipped
    score: float | None = None
    reason: str = ""


@dataclass(frozen=True)
class System:
    """A system of a corpus report; ``error``: why its file was not compared (naming the
    file and line)."""

    name: str
    file: str
    error: str = ""


@dataclass(frozen=True)
class Reproduced:
    """The bleu_impl setting that reproduces an implementation's scores (None: no setting
    does), as a label and as knobs, how its p-values were computed and how it was given the
    text (``fed``: raw, or pre-tokenized by the corpus tokenizer it cannot set itself)."""

    implementation: str
    native: str | None = None
    reproduced_by: str | None = None
    setting: Mapping[str, Any] | None = None
    significance: str = ""
    fed: str = ""


@dataclass(frozen=True)
class Spread:
    """One system's highest and lowest score (0–100) and who gave them."""

    max: float
    min: float
    spread: float
    max_impl: str
    min_impl: str


@dataclass(frozen=True)
class Interval:
    """A bootstrap estimate of one system's score (0–100): the resamples' mean, the 95%
    bounds, half their distance (sacrebleu prints ``mean +- half``), how many resamples."""

    mean: float
    low: float
    high: float
    half: float
    samples: int


@dataclass(frozen=True)
class Step:
    """One step of a knob path: the knobs it changes, from and to, and the BLEU change it
    makes on each system (0–100; None where it cannot be scored), with their mean."""

    knobs: tuple[str, ...]
    change: str
    before: tuple[Any, ...]
    after: tuple[Any, ...]
    delta: Mapping[str, float | None]
    mean: float | None = None


@dataclass(frozen=True)
class Decomposition:
    """An implementation's difference from the baseline per system (0–100), the knob path
    that explains it step by step, and what is left unexplained."""

    total: Mapping[str, float]
    steps: tuple[Step, ...] = ()
    order: tuple[str, ...] = ()
    explained: bool = False
    unexplained: Mapping[str, float] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class Flip:
    """A pair of systems under every implementation (a ranking flip, or a system against
    the first one): who puts each first, the differences (first minus second, 0–100),
    p-values, their significance, and what they say together in words (``verdict``: a tie,
    a difference within noise, a significant one, a flip)."""

    systems: tuple[str, str]
    a_better: tuple[str, ...]
    b_better: tuple[str, ...]
    tied: tuple[str, ...]
    delta: Mapping[str, float]
    p_value: Mapping[str, float | None]
    significant: Mapping[str, bool | None]
    verdict: str = ""


@dataclass(frozen=True)
class Significance:
    """How p-values and intervals were computed (``note``: why there are none)."""

    test: str
    resamples: int
    trials: int
    seed: int
    alpha: float
    note: str = ""


@dataclass(frozen=True)
class SegmentRow:
    """One segment's contribution to the difference of two implementations (0–100), with
    what each counted on it and how each tokenized the hypothesis (``tokens_*``) and the
    first reference (``ref_tokens_*``)."""

    line: int
    delta: float
    hypothesis: str
    references: tuple[str, ...]
    counts_a: Mapping[str, Any]
    counts_b: Mapping[str, Any]
    tokens_a: tuple[str, ...]
    tokens_b: tuple[str, ...]
    ref_tokens_a: tuple[str, ...] = ()
    ref_tokens_b: tuple[str, ...] = ()


@dataclass(frozen=True)
class Segments:
    """The segments behind the difference of implementations ``a`` and ``b`` on ``system``:
    the difference, its part from counting and from scoring, the largest contributions
    (``note``: why there are none)."""

    a: str = ""
    b: str = ""
    system: str = ""
    difference: float | None = None
    counting: float | None = None
    scoring: float | None = None
    sum_of_contributions: float | None = None
    rows: tuple[SegmentRow, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class CorpusSummary:
    """Everything the corpus report derives from the cells: ranks, spread, the settings that
    reproduce each implementation, bootstrap intervals, the knob paths from the baseline,
    the ranking flips, the segments behind the largest difference and every system tested
    against the first."""

    KIND: ClassVar[str] = "corpus"

    references: tuple[str, ...]
    segment_count: int
    knobs: Mapping[str, Any]
    baseline: str
    systems: tuple[System, ...]
    notes: tuple[str, ...] = ()
    reproduced: tuple[Reproduced, ...] = ()
    ranks: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    spread: Mapping[str, Spread] = field(default_factory=dict)
    intervals: Mapping[str, Mapping[str, Interval]] = field(default_factory=dict)
    significance: Significance | None = None
    decomposition: Mapping[str, Decomposition] = field(default_factory=dict)
    flips: tuple[Flip, ...] = ()
    segments: Segments = field(default_factory=Segments)
    #: every other system against the first (sacrebleu --paired-bs / --paired-ar's table)
    versus: tuple[Flip, ...] = ()
    #: system files left out (unreadable, invalid UTF-8, another line count), with why
    unread: tuple[System, ...] = ()


# --- identify ---------------------------------------------------------------------------

Knobs = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Candidate:
    """A profile plus knob overrides, and how many answers it reproduces.

    A setting no tool has is the generic profile with ``overrides`` (every knob that differs
    from its defaults); ``based_on`` then names the setting it started from and ``changes``
    the knobs changed on top of it (its label: that setting + the changes, then the generic
    profile's knobs that give it, unless it started from the generic profile).
    """

    profile: str
    overrides: Knobs = ()
    agreed: int = 0
    compared: int = 0
    scale: float = 1
    based_on: str | None = None
    changes: Knobs = ()

    @property
    def share(self) -> float:
        return self.agreed / self.compared if self.compared else 0.0

    @property
    def generic(self) -> bool:
        return self.based_on is not None

    @property
    def label(self) -> str:
        knobs = ", ".join(f"{k}={show_value(v)}" for k, v in self.overrides)
        if self.generic and self.based_on != self.profile:
            changes = ", ".join(f"{k}={show_value(v)}" for k, v in self.changes)
            return f"{self.based_on} + {changes} (no option of its tool: {self.profile} + {knobs})"
        return self.profile + (f" + {knobs}" if knobs else "")


@dataclass(frozen=True)
class Identification:
    """Which profile an implementation matches: the ranked candidates, the verdict (a match
    only when ``run --as`` passes the best candidate), the candidates no input separates
    from the best (ties), and the separating evidence. Cases skipped, errored or failed
    without a known kind are counted, never evidence."""

    KIND: ClassVar[str] = "identification"

    implementation: str
    version: str
    candidates: tuple[Candidate, ...]
    answered: int
    skipped: int
    errored: int
    evidence: tuple[Mapping[str, Any], ...] = ()
    verdict: Match = "no-match"
    ties: tuple[Candidate, ...] = ()
    separating: int = 0
    knob_free_only: bool = False
    failed: int = 0
    run_as: str = ""  # the run options that check the best candidate (--as P --knob k=v)
    checked: Mapping[str, int] = field(default_factory=dict)  # run --as outcomes, by outcome
    failing: tuple[Mapping[str, Any], ...] = ()  # its smallest failing cases
    findings: tuple[str, ...] = ()  # precision and scale, read off the answers


# --- versions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Release:
    """One release of a library run on every case (``--impl LIBRARY==RELEASE``): its
    version as it reported it (with the shims it needed), why it could not be installed or
    started (``error``), and its answer per case id."""

    KIND: ClassVar[str] = "release"

    library: str
    release: str
    version: str = ""
    error: str = ""
    answers: Mapping[str, Side] = field(default_factory=dict)


@dataclass(frozen=True)
class Behaviour:
    """Consecutive releases whose answers are all the same: the profile that reproduces
    every answer it can express (``profile``, None: no profile matches; ``agreed`` of
    ``compared``, for the nearest otherwise; ``failed``: answers that are failures of no
    known kind, never compared), and the case that separates it from the previous class
    with both answers (``case``, ``before``, ``after``; ``differing`` cases in all);
    ``notes``: the release notes' words on the change (``release: "words" (source)``);
    ``why``: for a class no profile matches, what in the releases' code no knob models."""

    KIND: ClassVar[str] = "behaviour"

    library: str
    releases: tuple[str, ...]
    error: str = ""
    profile: str | None = None
    nearest: str = ""
    agreed: int = 0
    compared: int = 0
    differing: int = 0
    failed: int = 0
    case: str = ""
    before: Side | None = None
    after: Side | None = None
    notes: tuple[str, ...] = ()
    why: str = ""


#: Every record kind a log holds, by the name in its ``record`` field.
RECORDS: Mapping[str, type] = {
    cls.KIND: cls
    for cls in (
        Header,
        ImplementationInfo,
        Problem,
        CaseResult,
        Movement,
        Pair,
        Cell,
        CorpusSummary,
        Identification,
        Release,
        Behaviour,
        End,
    )
}
