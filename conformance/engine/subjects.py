"""The implementations a command works with: each ``--impl`` spec opened as an adapter, with
its name, version, native profile, scale and the tolerance its answers are compared within."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..adapters import Adapter, Unstarted, distinct_name, make_adapter
from ..cases import Case, ExpectationKey, Tolerance
from ..protocol import AdapterError, SpecError
from ..results.records import ImplementationInfo
from .asking import Reply, ask, build_request

__all__ = [
    "FLOAT32_ABS",
    "FLOAT32_REL",
    "FLOAT32_TOLERANCE",
    "Subject",
    "open_subjects",
    "tolerance_for",
]

#: The relative tolerance of an implementation that computes in float32 (``arithmetic``
#: capability): ~6e-8 relative error per operation; 1e-6 bounds the ~10 operations of a BLEU
#: computation (measured against torchmetrics, torcheval and ignite: at most 2e-7).
FLOAT32_REL = 1e-6

#: float32 resolves nothing finer than its smallest subnormal, 2**-149 (~1.4e-45): a float32
#: result of a score below its normal range (~1.2e-38) is only that close to the exact one.
FLOAT32_ABS = 2.0**-149

#: The tolerance of float32 arithmetic, relative and (for subnormal scores) absolute.
FLOAT32_TOLERANCE = Tolerance(abs=FLOAT32_ABS, rel=FLOAT32_REL)


@dataclass(frozen=True)
class Subject:
    """An implementation under comparison: its spec and open adapter."""

    spec: str
    adapter: Adapter

    @property
    def name(self) -> str:
        return self.adapter.capabilities.name

    @property
    def version(self) -> str:
        return self.adapter.capabilities.version

    @property
    def native(self) -> str | None:
        return self.adapter.capabilities.native

    @property
    def native_knobs(self) -> Mapping[str, Any]:
        return self.adapter.capabilities.native_knobs

    @property
    def scale(self) -> int:
        return self.adapter.capabilities.scale

    @property
    def tolerance(self) -> Tolerance:
        """Half a printed digit (on 0..1), 1e-9 relative (float64 sums of logs in another
        order), 1e-6 relative for float32 arithmetic."""
        caps = self.adapter.capabilities
        own = Tolerance(abs=caps.half_unit / caps.scale, rel=1e-9)
        return own.widened(FLOAT32_TOLERANCE) if caps.arithmetic != "float64" else own

    def reply(self, case: Case) -> Reply:
        return ask(self.adapter, build_request(case))

    def info(self) -> ImplementationInfo:
        return ImplementationInfo(self.name, self.version, self.spec)


def open_subjects(
    specs: Sequence[str], keys: Mapping[str, ExpectationKey], *, keep_unstarted: bool = False
) -> list[Subject]:
    """An open adapter per spec (AdapterError names a spec that cannot be opened; with
    ``keep_unstarted`` an implementation that exists but fails to start answers every
    request with that error, and only a :class:`SpecError` is raised); two implementations
    that declare the same name get distinct names (never one row)."""
    subjects: list[Subject] = []
    taken: set[str] = set()
    try:
        for spec in specs:
            try:
                adapter = make_adapter(spec, keys)
            except AdapterError as exc:
                if not keep_unstarted or isinstance(exc, SpecError):
                    raise
                adapter = Unstarted(spec, exc)
            name = distinct_name(adapter.capabilities.name, spec, taken)
            adapter.capabilities = replace(adapter.capabilities, name=name)
            taken.add(name)
            subjects.append(Subject(spec, adapter))
    except BaseException:
        for subject in subjects:
            subject.adapter.close()
        raise
    return subjects


def tolerance_for(a: Subject, b: Subject) -> Tolerance:
    """The wider of the two sides' tolerances."""
    return a.tolerance.widened(b.tolerance)
