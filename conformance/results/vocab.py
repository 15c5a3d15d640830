"""The words results are told in, and the one policy that turns numbers into findings.

Outcomes classify a run's (implementation, case); verdicts classify a comparison's (case,
pair of implementations); statuses say what asking an implementation gave. Reporters and the
engine both take them from here. :class:`Policy` holds every threshold a report applies
(materiality, significance) and the resampling settings; a log records it in its header, so a
report re-rendered later applies the same policy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "ANSWERED",
    "BOTH_FAILED",
    "CHANGED",
    "CHECKED",
    "DIFFERING",
    "ERROR",
    "ERRORED",
    "ERRORED_PAIR",
    "FAIL",
    "FIXED",
    "IDENTICAL",
    "NO_ORIGIN",
    "ORIGINS",
    "OUTCOMES",
    "PASS",
    "SKIP",
    "SKIPPED",
    "SKIPPED_PAIR",
    "UNCHECKED",
    "UNEXPECTED",
    "VERDICTS",
    "WITHIN",
    "XFAIL",
    "Command",
    "Match",
    "Outcome",
    "Policy",
    "Status",
    "Verdict",
    "origin",
    "origin_entries",
]

#: What one case did on one implementation in a run. ``unchecked``: the implementation
#: answered, but its answer holds none of the fields the expectation records (a bare score
#: against an expectation of counts), so nothing was compared: never a pass.
Outcome = Literal["pass", "fail", "error", "unchecked", "skip", "xfail", "fixed", "changed"]
PASS: Final = "pass"
FAIL: Final = "fail"
ERROR: Final = "error"
UNCHECKED: Final = "unchecked"
SKIP: Final = "skip"
XFAIL: Final = "xfail"
FIXED: Final = "fixed"
CHANGED: Final = "changed"
#: Every outcome, in report order.
OUTCOMES: tuple[Outcome, ...] = (PASS, FAIL, ERROR, UNCHECKED, SKIP, XFAIL, FIXED, CHANGED)
#: Outcomes that make a run unsuccessful (exit status 1).
UNEXPECTED: frozenset[Outcome] = frozenset({FAIL, ERROR, FIXED, CHANGED})
#: Outcomes of a case on which an answer was compared with an expectation (a check).
CHECKED: frozenset[Outcome] = frozenset({PASS, FAIL, XFAIL, FIXED, CHANGED})

#: What asking an implementation gave: an answer (a score or a failure it reports), a skip
#: (it cannot express the request) or an error (no usable answer).
Status = Literal["answered", "skipped", "errored"]
ANSWERED: Final = "answered"
SKIPPED: Final = "skipped"
ERRORED: Final = "errored"

#: How two implementations compare on one case.
Verdict = Literal["identical", "within", "both-failed", "differing", "errored", "skipped"]
IDENTICAL: Final = "identical"
WITHIN: Final = "within"
BOTH_FAILED: Final = "both-failed"
DIFFERING: Final = "differing"
ERRORED_PAIR: Final = "errored"
SKIPPED_PAIR: Final = "skipped"
VERDICTS: tuple[Verdict, ...] = (
    IDENTICAL,
    WITHIN,
    BOTH_FAILED,
    DIFFERING,
    ERRORED_PAIR,
    SKIPPED_PAIR,
)

#: What kind of case it is, read off its provenance tags (``fixtures/tags.yaml``): the first
#: class whose tags it carries, so an edge input the Perl scripts scored is an edge case.
#: Each class: its name, the tags that make it, what it means (one line on screen).
ORIGINS: tuple[tuple[str, frozenset[str], str], ...] = (
    (
        "published examples",
        frozenset({"paper", "seed", "doctest", "test-suite"}),
        "from the paper, a library's docs or tests, a seed document",
    ),
    (
        "synthetic edge cases",
        frozenset(
            {"empty-hypothesis", "empty-reference", "missing-reference", "short-hypothesis"}
            | {"no-overlap", "zero-precision", "absent-order", "ragged-references"}
            | {"ref-length-tie", "whitespace", "error", "token-whitespace", "observe-only"}
        ),
        "inputs built to be empty, too short, unmatched or ragged",
    ),
    (
        "script outputs",
        frozenset({"perl-groundtruth", "perl-generated"}),
        "the Moses Perl scripts' printed scores on ordinary corpora",
    ),
    (
        "live-library recordings",
        frozenset({"live-nltk", "live-sacrebleu", "live-zoo"}),
        "ordinary inputs scored by NLTK, sacrebleu, ... run live",
    ),
    ("generated corpora", frozenset({"generated"}), "random corpora of --generate"),
)
#: The class of a case without any of those tags (a user's case file, an old log).
NO_ORIGIN = "cases without a provenance tag"


def origin(tags: tuple[str, ...]) -> str:
    """The :data:`ORIGINS` class of a case with ``tags``."""
    return next((name for name, marks, _ in ORIGINS if marks.intersection(tags)), NO_ORIGIN)


def origin_entries(counts: Iterable[tuple[str, int, int]], found: str) -> list[tuple[str, str]]:
    """Screen lines for (class, cases, findings) counts: the cases, then the class, what it
    means and how many ``found`` (material differences, failures) it holds."""
    meanings = {name: meaning for name, _, meaning in ORIGINS}
    meanings[NO_ORIGIN] = "no provenance tag of fixtures/tags.yaml (a case file of yours?)"
    return [(str(n), f"{kind} ({k} {found}): {meanings[kind]}") for kind, n, k in counts]


#: Identify's answer: ``run --as`` passes the best candidate, or no profile matches.
Match = Literal["match", "no-match"]

#: The command a log records.
Command = Literal["run", "compare", "corpus", "identify", "versions"]

#: Float noise allowed at the materiality threshold: deltas are differences of float64
#: scores on 0..1 (error ~1e-16) scaled by 100; 1e-9 is far above that and far below a digit.
_NOISE = 1e-9


@dataclass(frozen=True)
class Policy:
    """What a report calls material and significant, and how it resamples.

    ``decimals``: the precision people print BLEU at on 0–100; a difference of at least half
    a unit of that decimal (0.005 for two) is material: from that size on two scores can
    print differently. ``alpha``: a p-value below it is significant. ``resamples``,
    ``trials``, ``seed``: paired bootstrap and approximate randomization as sacrebleu runs
    them (``--paired-bs-n`` 1000, ``--paired-ar-n`` 10000, ``SACREBLEU_SEED`` 12345).
    """

    decimals: int = 2
    alpha: float = 0.05
    resamples: int = 1000
    trials: int = 10000
    seed: int = 12345

    @property
    def threshold(self) -> float:
        """The smallest material difference in BLEU points on 0–100."""
        return 0.5 * 10.0**-self.decimals

    def material(self, size: float) -> bool:
        """Is a difference of ``size`` BLEU points (0–100) visible at ``decimals``?"""
        return size >= self.threshold - _NOISE

    def significant(self, p: float | None, delta: float) -> bool | None:
        """``p`` < alpha; a tie (``delta`` 0) is never significant (sacrebleu's
        p = 1/(n+1) when every resample ties too); None when there is no p-value."""
        return None if p is None else p < self.alpha and delta != 0
