"""What a run checked, and when that is too little to be a verdict.

A case is *checked* when an answer was compared with an expectation (an outcome in
:data:`~.vocab.CHECKED`); a skip, an error and an ``unchecked`` answer (nothing in it to
compare) are not. An implementation checked on no case, or only on a sliver chosen by
default (no expectation names it and nothing says what its BLEU is, so the default
expectation's cases are checked, and they are fewer than half: 6 of the bundled 643), is
no verdict: its run is not green (exit status :data:`EXIT_UNCHECKED`), whatever passed.
``run``, ``compare``, the pytest plugin and ``run --as``/identify all apply this one rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .records import CaseResult, ImplementationInfo, Pair
from .vocab import CHECKED, ERRORED_PAIR, SKIPPED_PAIR

__all__ = [
    "EXIT_UNCHECKED",
    "HOW_TO_NAME",
    "Coverage",
    "compare_shortfalls",
    "coverage",
    "run_shortfalls",
]

#: The exit status of a command that checked too little to be a verdict.
EXIT_UNCHECKED = 4

#: How to say what an implementation's BLEU is (every message of the rule ends with it).
HOW_TO_NAME = (
    "say what its BLEU is: --as PROFILE (e.g. --as sacrebleu; `bleu-conformance identify` "
    "finds one), --expect KEY, or declare bleu_expect"
)


@dataclass(frozen=True)
class Coverage:
    """How many of an implementation's cases were checked, and against what."""

    implementation: str
    cases: int
    checked: int
    outcomes: Counter[str]
    against: str = ""
    by_default: bool = False
    started: bool = True

    @property
    def shortfall(self) -> str | None:
        """Why these results are no verdict, or None: checked on no case, or by default on
        fewer than half (an implementation that could not start is already an error on
        every case)."""
        if not self.started or self.cases == 0:
            return None
        tally = ", ".join(f"{n} {o}" for o, n in sorted(self.outcomes.items()))
        if self.by_default and self.checked * 2 < self.cases:
            return (
                f"{self.implementation}: no expectation names it, so it was checked only "
                f"against the default {self.against} on {self.checked} of {self.cases} "
                f"cases ({tally}); {HOW_TO_NAME}"
            )
        if self.checked == 0:
            against = f" of {self.against}" if self.against else ""
            return (
                f"{self.implementation}: checked on none of its {self.cases} cases ({tally}): "
                f"no answer was compared with an expectation{against}; select cases that "
                "record one, or check every case with --as PROFILE"
            )
        return None

    def describe(self) -> str:
        """``checked 12 of 643 cases against sacrebleu>=2``."""
        against = f" against {self.against}" if self.against else ""
        return f"checked {self.checked} of {self.cases} cases{against}"


def coverage(
    implementation: str,
    outcomes: Iterable[str],
    info: ImplementationInfo | None = None,
) -> Coverage:
    """The coverage of ``implementation`` given the outcomes of its cases (``info`` says
    what it was checked against and whether by default)."""
    tally = Counter(outcomes)
    return Coverage(
        implementation,
        sum(tally.values()),
        sum(n for o, n in tally.items() if o in CHECKED),
        tally,
        against=info.expect_key if info else "",
        by_default=bool(info and info.default_expect),
        started=not (info and info.startup_error),
    )


def run_shortfalls(infos: Sequence[ImplementationInfo], results: Sequence[CaseResult]) -> list[str]:
    """Why a run is no verdict: each implementation's :attr:`Coverage.shortfall`."""
    named = {i.name: i for i in infos}
    names = dict.fromkeys([*named, *(r.implementation for r in results)])
    found = (
        coverage(n, (r.outcome for r in results if r.implementation == n), named.get(n)).shortfall
        for n in names
    )
    return [s for s in found if s is not None]


def compare_shortfalls(names: Sequence[str], pairs: Iterable[Pair]) -> list[str]:
    """Why a comparison is no verdict: fewer than two implementations, or one compared
    with the others on no case (every pair of it skipped or errored)."""
    if len(names) < 2:
        return [f"only {len(names)} implementation: nothing was compared; give two --impl"]
    compared: Counter[str] = Counter()
    for p in pairs:
        if p.verdict not in (SKIPPED_PAIR, ERRORED_PAIR):
            compared.update((p.a, p.b))
    return [
        f"{name}: compared with no other implementation on any case (every pair skipped or errored)"
        for name in names
        if not compared[name]
    ]
