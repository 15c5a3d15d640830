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
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import bleu_impl
from bleu_impl import BleuError, Config, get_profile

from ..adapters import Adapter, make_adapter
from ..cases import Case, Expectation, ExpectationKey, Tolerance
from ..protocol import Answer
from ..results import known_failures
from ..results.records import CaseResult
from ..results.vocab import ERROR, FAIL, PASS, SKIP
from .asking import ANSWERED, SKIPPED, ask, build_request
from .subjects import FLOAT32_TOLERANCE
from .verify import ANY_FAILURE, check_expectation, choose_key

__all__ = [
    "COMPUTED_TOLERANCE",
    "Reference",
    "as_command",
    "emulation_tolerance",
    "make_reference",
    "passes",
    "verify_as",
]

#: Relative tolerance against a computed value: bleu_impl is exact up to the final float64
#: log/exp, so this only absorbs another implementation's float64 rounding (as ``compare``).
COMPUTED_TOLERANCE = Tolerance(rel=1e-9)


def emulation_tolerance(config: Config | None) -> Tolerance:
    """How close an answer must come to bleu_impl's value under ``config``: 1e-9 relative,
    or float32's tolerance when ``config`` computes or rounds in float32 (the emulation
    rounds the same operations, not necessarily in the tool's order: measured at most 2e-7
    relative). ``run --as`` and ``identify`` both judge with it."""
    single = config is not None and (
        config.arithmetic != "float64" or config.result_float == "float32"
    )
    return COMPUTED_TOLERANCE.widened(FLOAT32_TOLERANCE) if single else COMPUTED_TOLERANCE


def passes(results: Sequence[CaseResult]) -> bool:
    """The verdict of ``run --as``: at least one case passed and none failed or errored."""
    outcomes = Counter(r.outcome for r in results)
    return outcomes[PASS] > 0 and not outcomes[FAIL] and not outcomes[ERROR]


def as_command(name: str, knobs: Mapping[str, Any]) -> str:
    """The ``run`` options that check against ``name`` with ``knobs``."""
    shown = "".join(f" --knob {k}={_shown(v)}" for k, v in sorted(knobs.items()))
    return f"--as {name}{shown}"


def _shown(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return ",".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)


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
        try:
            config = get_profile(self.key.profile or "papineni2002").resolve(
                dict(request.config), case.level
            )
        except BleuError:
            config = None
        return self._computed(reply.answer, emulation_tolerance(config)), self.key, ""

    def _computed(self, answer: Answer, tolerance: Tolerance) -> Expectation:
        profile = self.key.profile
        source = (
            f"computed by bleu_impl {bleu_impl.__version__} under profile {profile}"
            + (f" with {dict(self.key.knobs)}" if self.key.knobs else "")
            + " (no recorded output of the tool for this case)"
        )
        label = f"bleu_impl:{self.name}"
        if answer.failure is not None:
            kind = answer.failure.kind or "an error"
            source += f"; bleu_impl fails ({kind}), and any failure reproduces it"
            return Expectation(key=label, error=ANY_FAILURE, source=source)
        return Expectation(
            key=label,
            scale=1,
            score=answer.score,
            tolerance=tolerance,
            counts=answer.counts,
            totals=answer.totals,
            bp=answer.bp,
            hyp_len=answer.hyp_len,
            ref_len=answer.ref_len,
            source=source,
        )


def make_reference(
    name: str, keys: Mapping[str, ExpectationKey], knobs: Mapping[str, Any] | None = None
) -> Reference:
    """The reference ``--as NAME [--knob k=v ...]`` means; ValueError names the valid
    choices or the knob that does not resolve. With knobs, only recorded outputs of keys
    with exactly NAME's profile and those knobs count (the rest is computed)."""
    profiles = bleu_impl.PROFILES
    key = keys.get(name)
    if knobs and key is not None and key.profile:
        key = replace(key, knobs={**key.knobs, **knobs})
    elif key is None and name in profiles:
        scale = get_profile(name).resolve({}, "corpus").scale
        key = ExpectationKey(
            key=name,
            tool=f"bleu_impl profile {name}",
            version=bleu_impl.__version__,
            invocation="",
            scale=scale,
            printed_decimals=None,
            profile=name,
            knobs=dict(knobs or {}),
        )
    if key is None or not key.profile:
        with_profile = sorted(k for k, v in keys.items() if v.profile)
        raise ValueError(
            f"--as {name}: not a profile ({', '.join(profiles)}) nor an expectation key with "
            f"a profile ({', '.join(with_profile)})"
        )
    try:
        get_profile(key.profile).resolve(dict(key.knobs))
    except BleuError as exc:
        raise ValueError(f"{as_command(name, knobs or {})}: {exc}") from None
    emulation = make_adapter(f"bleu_impl:{name}", keys)
    claimed = [k for k in emulation.capabilities.expect if k in keys]
    if knobs:
        claimed = [
            k for k in claimed if keys[k].profile == key.profile and keys[k].knobs == key.knobs
        ]
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
