"""The question and the one place an implementation is asked it.

:func:`build_request` turns a case (and the expectation key it is checked against, if any)
into a :class:`~conformance.protocol.Request`; every command builds its requests here, so
an implementation sees the same arguments in ``run``, ``compare`` and ``identify``.
:func:`ask` sends it through an adapter and turns whatever happens -- a skip, an answer, a
failure the implementation reports, an adapter error, an exception, garbage -- into one
:class:`Reply`; nothing an implementation does escapes it.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from typing import Any

from bleu_impl import get_profile

from ..adapters import Adapter, Capabilities
from ..adapters.optional import not_installed
from ..cases import Case, ExpectationKey
from ..protocol import AdapterError, Answer, Request, checked
from ..results.vocab import ANSWERED, ERRORED, SKIPPED, Status

__all__ = [
    "ANSWERED",
    "ERRORED",
    "SKIPPED",
    "Outcome",
    "Remembering",
    "Reply",
    "ask",
    "build_request",
]

#: How much of an implementation's stderr a result keeps.
STDERR_TAIL = 4000


def build_request(case: Case, key: ExpectationKey | None = None) -> Request:
    """The question for ``case``, without its expectations.

    ``config``: the key's knobs with the case's knobs on top. ``semantics``: the key's
    profile resolved with them (empty when there is no key or it has no profile). Raises
    KnobError when they do not resolve.
    """
    config = {**(key.knobs if key is not None else {}), **case.config}
    semantics = {}
    if key is not None and key.profile:
        semantics = get_profile(key.profile).resolve(config, case.level).as_dict()
    return Request(
        level=case.level,
        config=config,
        hypotheses=case.hypotheses,
        references=case.references,
        input_format=case.input.format,
        case_knobs=frozenset(case.config),
        semantics=semantics,
    )


@dataclass(frozen=True)
class Outcome:
    """What one side produced, as attribution compares it: a score on 0..1, or the kind of
    failure (``unknown`` when the implementation does not say)."""

    score: float | None = None
    failure: str | None = None

    def describe(self) -> str:
        return f"error:{self.failure}" if self.failure is not None else repr(self.score)


@dataclass(frozen=True)
class Reply:
    """What came back from asking: answered (a score or a reported failure), skipped (the
    request cannot be expressed) or errored (no usable answer; ``reason`` says why)."""

    status: Status
    answer: Answer | None = None
    reason: str = ""
    stderr: str = ""
    duration: float = 0.0

    def outcome(self, scale: int) -> Outcome | None:
        """The answer as an :class:`Outcome` (score divided by ``scale``); None unless
        answered."""
        if self.status != ANSWERED or self.answer is None:
            return None
        failure = self.answer.failure
        if failure is not None:
            return Outcome(failure=failure.kind or "unknown")
        assert self.answer.score is not None
        return Outcome(score=self.answer.score / scale)


class Remembering(Adapter):
    """``inner`` with each answer remembered per request as sent (level, knobs, texts):
    asked again, it answers without running the implementation (identify's ``run --as``
    check re-asks the fixture cases identify asked)."""

    def __init__(self, inner: Adapter) -> None:
        self.inner = inner
        self._answers: dict[tuple[Any, ...], Answer] = {}

    @property
    def capabilities(self) -> Capabilities:
        return self.inner.capabilities

    @capabilities.setter
    def capabilities(self, value: Capabilities) -> None:
        self.inner.capabilities = value

    def check(self, request: Request) -> str | None:
        return self.inner.check(request)

    def run(self, request: Request) -> Answer:
        key = (
            request.level,
            repr(sorted(request.config.items())),
            request.hypotheses,
            request.references,
            request.input_format,
        )
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = self.inner.run(request)
        return found

    def close(self) -> None:
        self.inner.close()

    def warm_up(self) -> None:
        self.inner.ensure_warm()


def ask(adapter: Adapter, request: Request) -> Reply:
    """Ask ``adapter`` ``request``; never raises for anything the implementation does. A
    case whose tokenizer needs an optional package not installed here is a skip naming the
    ``pip install``, not the implementation's error."""
    missing = not_installed(request)
    if missing is not None:
        return Reply(SKIPPED, reason=f"not installed here: {missing}")
    try:
        reason = adapter.check(request)
    except AdapterError as exc:  # its worker timed out or died while asked
        return Reply(ERRORED, reason=f"{exc.kind}: {exc.message}", stderr=exc.stderr)
    except Exception as exc:  # a bug in an adapter must not stop the run
        return Reply(ERRORED, reason=f"adapter bug: {type(exc).__name__}: {exc}")
    if reason is not None:
        return Reply(SKIPPED, reason=reason)
    try:
        adapter.ensure_warm()  # imports and first calls: outside the per-case clock
    except (KeyboardInterrupt, GeneratorExit):
        raise
    except BaseException:  # the case itself will meet and report the problem
        pass
    started = time.perf_counter()
    try:
        answer = adapter.run(request)
    except AdapterError as exc:
        return Reply(
            ERRORED,
            reason=f"{exc.kind}: {exc.message}",
            stderr=exc.stderr[-STDERR_TAIL:],
            duration=time.perf_counter() - started,
        )
    except (KeyboardInterrupt, GeneratorExit):
        raise
    except BaseException as exc:  # an adapter bug, SystemExit, a Rust panic...
        return Reply(
            ERRORED,
            reason=f"adapter bug: {type(exc).__name__}: {exc}",
            stderr=traceback.format_exc()[-STDERR_TAIL:],
            duration=time.perf_counter() - started,
        )
    return _read(answer, request, time.perf_counter() - started)


def _read(answer: Answer, request: Request, duration: float) -> Reply:
    """The reply of whatever the adapter returned, read as the schema says, holding no more
    orders than ``request`` asks for (one count and one total per order up to
    ``max_order``)."""
    try:
        answer = checked(answer)
    except AdapterError as exc:  # what it printed is kept when it is text
        said = getattr(answer, "stderr", "")
        stderr = said[-STDERR_TAIL:] if isinstance(said, str) else ""
        return Reply(ERRORED, reason=f"garbage: {exc.message}", stderr=stderr, duration=duration)
    stderr = (answer.failure.stderr if answer.failure else answer.stderr)[-STDERR_TAIL:]
    order = request.complete.get("max_order")
    orders = max(len(answer.counts or ()), len(answer.totals or ()))
    if isinstance(order, int) and orders > order:
        reason = f"garbage: counts: {orders} orders, but the request's max_order is {order}"
        return Reply(ERRORED, reason=reason, stderr=stderr, duration=duration)
    return Reply(ANSWERED, answer, stderr=stderr, duration=duration)
