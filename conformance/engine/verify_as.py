"""``run --as NAME``: check an implementation on every case against one named reference.

NAME is a bleu_impl profile (``sacrebleu``, ``nltk``...) or an expectation key of
``fixtures/implementations.yaml``. For each case the expected value is, in this order:

1. the **recorded** output of the real tool, when the case has one under a key NAME stands
   for (the key itself; for a profile, every key that profile reproduces without extra
   knobs, newest version range first);
2. otherwise the value **computed** by bleu_impl under that profile (and the key's knobs),
   whose agreement with the real tool is what the profile's tests establish.

Every result names its source (``expected.source``), so a reader sees which numbers come from
the tool itself and which from its emulation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import bleu_impl
from bleu_impl import BleuError, get_profile

from ..adapters import Adapter, make_adapter
from ..cases import Case, Expectation, ExpectationKey, Tolerance
from ..protocol import Answer
from ..results import known_failures
from ..results.records import SKIP, CaseResult
from .asking import ANSWERED, SKIPPED, ask, build_request
from .verify import check_expectation, choose_key

__all__ = ["COMPUTED_TOLERANCE", "Reference", "make_reference", "verify_as"]

#: Relative tolerance against a computed value: bleu_impl is exact up to the final float64
#: log/exp, so this only absorbs another implementation's float64 rounding (as ``compare``).
COMPUTED_TOLERANCE = Tolerance(rel=1e-9)


@dataclass
class Reference:
    """What ``--as NAME`` checks against: the recorded keys, and bleu_impl's emulation."""

    name: str
    key: ExpectationKey  # the profile and knobs of the emulation (NAME's own key, if a key)
    recorded: tuple[str, ...]  # expectation keys whose recorded outputs come first
    emulation: Adapter  # bleu_impl under the profile, which computes the rest
    keys: Mapping[str, ExpectationKey]  # the library's keys

    def describe(self) -> str:
        """One line for reports: what is recorded, what is computed."""
        profile = get_profile(self.key.profile or "papineni2002")
        recorded = ", ".join(self.recorded) or "(none)"
        return (
            f"checked as {self.name}: recorded outputs of {recorded} where a case has them, "
            f"else bleu_impl {bleu_impl.__version__} under profile {profile.name} "
            f"(reproduces {profile.source})"
        )

    def expectation(self, case: Case) -> tuple[Expectation | None, ExpectationKey, str]:
        """(expected value, key to ask with, why there is none) for ``case``."""
        recorded = choose_key(case, self.recorded)
        if recorded is not None:
            key = self.keys[recorded]
            exp = case.expected[recorded]
            source = f"recorded output of {key.tool} {key.version}"
            source += f" ({exp.source})" if exp.source else ""
            return replace(exp, source=source), key, ""
        try:
            request = build_request(case, self.key)
        except BleuError as exc:
            return None, self.key, f"{self.name} cannot express the case's knobs: {exc}"
        reply = ask(self.emulation, request)
        if reply.status == SKIPPED:
            return None, self.key, f"no recorded {self.name} output, and {reply.reason}"
        if reply.status != ANSWERED or reply.answer is None:
            return None, self.key, f"bleu_impl could not compute the reference: {reply.reason}"
        return self._computed(reply.answer), self.key, ""

    def _computed(self, answer: Answer) -> Expectation:
        profile = self.key.profile
        source = (
            f"computed by bleu_impl {bleu_impl.__version__} under profile {profile}"
            + (f" with {dict(self.key.knobs)}" if self.key.knobs else "")
            + " (no recorded output of the tool for this case)"
        )
        label = f"bleu_impl:{self.name}"
        if answer.failure is not None:
            kind = answer.failure.kind or "error"
            return Expectation(key=label, error=kind, source=source)
        return Expectation(
            key=label,
            scale=1,
            score=answer.score,
            tolerance=COMPUTED_TOLERANCE,
            counts=answer.counts,
            totals=answer.totals,
            bp=answer.bp,
            hyp_len=answer.hyp_len,
            ref_len=answer.ref_len,
            source=source,
        )


def make_reference(name: str, keys: Mapping[str, ExpectationKey]) -> Reference:
    """The reference ``--as NAME`` means; ValueError names the valid choices."""
    profiles = bleu_impl.PROFILES
    key = keys.get(name)
    if key is None and name in profiles:
        scale = get_profile(name).resolve({}, "corpus").scale
        key = ExpectationKey(
            key=name,
            tool=f"bleu_impl profile {name}",
            version=bleu_impl.__version__,
            invocation="",
            scale=scale,
            printed_decimals=None,
            profile=name,
            knobs={},
        )
    if key is None or not key.profile:
        with_profile = sorted(k for k, v in keys.items() if v.profile)
        raise ValueError(
            f"--as {name}: not a profile ({', '.join(profiles)}) nor an expectation key with "
            f"a profile ({', '.join(with_profile)})"
        )
    emulation = make_adapter(f"bleu_impl:{name}", keys)
    claimed = (k for k in emulation.capabilities.expect if k in keys)
    recorded = sorted(claimed, key=lambda k: (k != name, *_preference(k)))
    return Reference(name, key, tuple(recorded), emulation, keys)


def _preference(key: str) -> tuple[tuple[int, ...], str]:
    """Newest version range first (``nltk>=3.6.6`` before ``nltk>=3.3``), then by name (the
    key named NAME itself goes first)."""
    bound = re.search(r">=\s*v?(\d+(?:\.\d+)*)", key)
    version = tuple(-int(p) for p in bound.group(1).split(".")) if bound else (1,)
    return version, key


def verify_as(
    adapter: Adapter,
    cases: Sequence[Case],
    reference: Reference,
    *,
    known: Sequence[known_failures.KnownFailure] = (),
    on_result: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Every case on ``adapter``, each against ``reference``'s expected value."""
    results = []
    for case in cases:
        exp, key, why = reference.expectation(case)
        if exp is None:
            result = CaseResult(
                implementation=adapter.capabilities.name,
                case_id=case.id,
                file=case.file,
                outcome=SKIP,
                reason=why,
                tags=tuple(case.tags),
            )
        else:
            result = check_expectation(adapter, case, exp, key, known)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results
