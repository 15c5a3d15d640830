"""The profile model: documented bundles of knob values that reproduce known implementations.

A profile is a set of defaults plus *rules*: knob values that follow from other knobs (or
from the level, ``sentence`` or ``corpus``) the way the real tool's own flags interact, e.g.
mteval's ``--no-smoothing`` also changes how orders without n-grams count. A knob given
explicitly by the caller always wins over a rule.

A profile that emulates a tool also declares its *options*: the knobs that tool lets its
user set (its command-line flags or API arguments) and the values they can take. Any other
knob is refused, so a profile never describes a setting the tool cannot have; to vary such a
knob, start from the generic profile ``papineni2002`` with the tool's resolved knobs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import KnobError
from ..knobs import Config, knobs_at, make_config, normalize_knob

__all__ = ["GENERIC", "LEVELS", "PRESENTATION_KNOBS", "Option", "Profile", "Rule"]

#: The profile whose options are every knob: the base for settings no tool has.
GENERIC = "papineni2002"

#: Knobs every profile accepts: they change how a score is shown, not what it is.
PRESENTATION_KNOBS = frozenset(knobs_at("presentation"))

LEVELS = ("corpus", "sentence")


@dataclass(frozen=True)
class Rule:
    """When every ``when`` item holds (``level`` included), apply ``then`` to unset knobs."""

    when: Mapping[str, Any]
    then: Mapping[str, Any]
    why: str


@dataclass(frozen=True)
class Option:
    """A knob the emulated tool lets its user set: the tool's own name for it (a flag or an
    argument) and the values it can take (``None``: any valid value)."""

    flag: str
    values: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class Profile:
    """A named implementation semantics: defaults, interaction rules and provenance."""

    name: str
    summary: str
    source: str
    defaults: Mapping[str, Any]
    rules: tuple[Rule, ...] = ()
    options: Mapping[str, Option] | None = field(default_factory=dict)
    unsupported: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    failures: Mapping[str, str] = field(default_factory=dict)
    #: Combinations of option values the tool has no setting for (each a knob -> value
    #: mapping; a config matching every item of one is refused).
    forbids: tuple[Mapping[str, Any], ...] = ()
    #: The releases of the tool's distribution this profile reproduces, as measured by
    #: running each release live (``bleu-conformance`` with ``--impl PACKAGE==VERSION``):
    #: (distribution, first release, last release); None where no sweep measured it.
    releases: tuple[str, str, str] | None = None

    def resolve(self, knobs: Mapping[str, Any], level: str = "corpus") -> Config:
        """Return the fully resolved :class:`Config` for ``knobs`` at ``level``; a knob the
        tool has no option for (or a value it cannot take) is a :class:`KnobError`, unless
        it is set to what the tool does anyway with the other knobs."""
        if level not in LEVELS:
            raise KnobError(f"invalid level {level!r}: expected one of {', '.join(LEVELS)}")
        foreign = self._foreign(knobs)
        if not foreign:
            return self._build(knobs, level)
        base = self._build({k: v for k, v in knobs.items() if k not in foreign}, level)
        for knob, problem in foreign.items():
            if _canonical(knob, knobs[knob]) != getattr(base, knob, object()):
                raise KnobError(f"profile {self.name!r} {problem}. {self._start_from()}")
        return base

    def _foreign(self, knobs: Mapping[str, Any]) -> dict[str, str]:
        """The knobs the tool has no option for, or values its option cannot take, with
        what is wrong with each."""
        if self.options is None:
            return {}
        found = {}
        for knob, value in knobs.items():
            option = self.options.get(knob)
            if knob in PRESENTATION_KNOBS:
                continue
            if option is None:
                found[knob] = f"has no option for knob {knob!r}: {self._offers()}"
            elif option.values is not None and _canonical(knob, value) not in [
                _canonical(knob, v) for v in option.values
            ]:
                shown = ", ".join(_show(v) for v in option.values)
                found[knob] = (
                    f"cannot set {knob}={value!r}: its option {option.flag!r} takes {shown}"
                )
        return found

    def _build(self, knobs: Mapping[str, Any], level: str) -> Config:
        values = {**self.defaults, **knobs}
        for rule in self.rules:
            context = {**values, "level": level}
            if all(context.get(key) == want for key, want in rule.when.items()):
                values.update({k: v for k, v in rule.then.items() if k not in knobs})
        # effective_order is sacrebleu's name for absent_order="drop": whichever the caller
        # gave explicitly decides the other.
        if "effective_order" in knobs and "absent_order" not in knobs:
            fallback = self.defaults.get("absent_order", "zero")
            values["absent_order"] = "drop" if knobs["effective_order"] else fallback
        elif "absent_order" in knobs and "effective_order" not in knobs:
            values["effective_order"] = knobs["absent_order"] == "drop"
        config = make_config(values)
        for knob, bad in self.unsupported.items():
            if getattr(config, knob) in bad:
                raise KnobError(
                    f"profile {self.name!r} does not emulate {knob}={getattr(config, knob)!r} "
                    f"(its versions behaved differently; see the profile docs)"
                )
        for combination in self.forbids:
            if all(getattr(config, k) == v for k, v in combination.items()):
                shown = ", ".join(f"{k}={_show(v)}" for k, v in combination.items())
                raise KnobError(f"profile {self.name!r}: the tool has no setting {shown}")
        return config

    def _offers(self) -> str:
        if not self.options:
            return "the tool has no option that changes the score"
        shown = ", ".join(f"{k} ({o.flag})" for k, o in self.options.items())
        return f"the tool's options are {shown}"

    def _start_from(self) -> str:
        return (
            f"For a setting {self.name} cannot have, start from its knobs with the generic "
            f"profile: profile={GENERIC!r}, **get_profile({self.name!r}).resolve({{}}).as_dict(), "
            "then change the knob"
        )


def _canonical(knob: str, value: Any) -> Any:
    try:
        return normalize_knob(knob, value)
    except KnobError:
        return value


def _show(value: Any) -> str:
    return value if isinstance(value, str) else repr(value)
