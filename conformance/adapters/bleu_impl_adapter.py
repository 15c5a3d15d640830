"""Built-in adapter: this project's exact BLEU under any profile (``bleu_impl:PROFILE``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import bleu_impl
from bleu_impl import BleuError, KnobError, corpus_bleu, get_profile, sentence_bleu, signature
from bleu_impl.bulk import SharedCounts

from ..protocol import Answer, Request
from .base import Adapter, Capabilities, profile_arithmetic, profile_knobs
from .pyerrors import failure_from

__all__ = ["BleuImplAdapter"]


class BleuImplAdapter(Adapter):
    """Score with ``bleu_impl`` under ``profile`` with ``knobs`` on top (an expectation key's
    knobs); it can set what the emulated tool can set (every knob for the generic profile).
    A corpus is scored through ``counts`` when set (a corpus report shares one store)."""

    counts: SharedCounts | None = None

    def __init__(
        self,
        profile: str = "papineni2002",
        *,
        knobs: Mapping[str, Any] | None = None,
        expect: tuple[str, ...] = (),
        name: str | None = None,
    ) -> None:
        prof = get_profile(profile)  # KnobError lists the valid profiles
        self.profile = prof.name
        self.knobs = dict(knobs or {})
        self.capabilities = Capabilities(
            name=name or f"bleu_impl:{prof.name}",
            version=bleu_impl.__version__,
            knobs=profile_knobs(prof.name),
            native=prof.name,
            native_knobs=self.knobs,
            signature=signature(prof.name, prof.resolve(self.knobs, "corpus")),
            expect=expect or (prof.name,),
            arithmetic=profile_arithmetic(prof.name, self.knobs),
        )

    def check(self, request: Request) -> str | None:
        """Also a skip: knobs that do not resolve under the profile (a combination it
        refuses, e.g. a last-segment NLTK method without its context)."""
        reason = super().check(request)
        if reason is None:
            try:
                get_profile(self.profile).resolve({**self.knobs, **request.config}, request.level)
            except KnobError as exc:
                reason = f"{self.capabilities.name} cannot express these knobs: {exc}"
        return reason

    def run(self, request: Request) -> Answer:
        knobs = {**self.knobs, **request.config}
        try:
            if request.level == "sentence":
                if len(request.hypotheses) != 1:
                    raise bleu_impl.InputError("a sentence-level case has exactly one segment")
                result = sentence_bleu(
                    request.hypotheses[0],
                    list(request.references[0]),  # type: ignore[arg-type]  # None = missing
                    profile=self.profile,
                    **knobs,
                )
            else:
                score = corpus_bleu if self.counts is None else self.counts.corpus_bleu
                result = score(
                    list(request.hypotheses),
                    [list(r) for r in request.references],
                    profile=self.profile,
                    **knobs,
                )
        except BleuError as exc:
            return Answer(failure=failure_from(exc))
        return Answer(
            score=result.score,
            counts=tuple(result.counts),
            totals=tuple(result.totals),
            bp=result.bp,
            hyp_len=result.hyp_len,
            ref_len=float(result.ref_len),
        )
