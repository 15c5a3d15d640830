"""Named profiles: documented bundles of knob values that reproduce known implementations.

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
from types import MappingProxyType
from typing import Any

from .errors import KnobError
from .knobs import NLTK_METHODS, Config, make_config, normalize_knob

__all__ = [
    "GENERIC",
    "LEVELS",
    "PROFILES",
    "Option",
    "Profile",
    "Rule",
    "get_profile",
    "resolve_cached",
]

#: The profile whose options are every knob: the base for settings no tool has.
GENERIC = "papineni2002"

#: Knobs every profile accepts: they change how a score is shown, not what it is.
PRESENTATION_KNOBS = frozenset({"scale"})

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


_NLTK_COMMON = {
    "tokenize": "none",
    "split": "python",
    "ref_length": "closest",
    "smoothing": "nltk-method0",
    "denominator_floor": "per-segment",
    "early_zero": "no-unigram-match",
    "smoothing_context": "last-segment",
    "absent_order": "zero",
    "empty_hyp": "bp-zero",
    "empty_ref": "bp-one",
}

_NLTK_OPTIONS = {
    "weights": Option("weights=(w1, ..., wN)"),
    "max_order": Option("weights of length N (uniform)"),
    "smoothing": Option("smoothing_function=SmoothingFunction().methodN", NLTK_METHODS),
    "epsilon": Option("SmoothingFunction(epsilon=...)"),
    "alpha": Option("SmoothingFunction(alpha=...)"),
    "k": Option("SmoothingFunction(k=...)"),
    "auto_reweigh": Option("auto_reweigh=True"),
}

_MTEVAL_COMMON = {
    "tokenize": "13a",
    "split": "perl-unicode",
    "lowercase": "ascii",
    "ref_length": "closest",
    "smoothing": "nist",
    "absent_order": "one",
    "zero_match": "zero",
    "early_zero": "none",
    "empty_hyp": "error",
    "empty_ref": "error",
}

_MTEVAL_NOSMOOTH = Rule(
    when={"smoothing": "none"},
    then={
        "early_zero": "any-zero-order",
        "absent_order": "zero",
        "empty_hyp": "bp-zero",
        "empty_ref": "bp-one",
    },
    why="--no-smoothing (bleu_score_nosmoothing) scores 0 when any order, absent orders "
    "included, has no match, and never reaches the system-level length-ratio print that dies",
)

_MULTIBLEU_COMMON = {
    "ref_length": "closest",
    "missing_refs": "len-9999",
    "smoothing": "none",
    "absent_order": "zero",
    "zero_match": "zero",
    "early_zero": "none",
    "empty_hyp": "error",
    "empty_ref": "error",
    "scale": 100,
}

_MULTIBLEU_FAILURES = {
    "empty-hypothesis": "multi-bleu dies on an empty system (hypothesis length 0) with "
    "'Illegal division by zero' in its brevity penalty",
    "empty-reference": "multi-bleu prints 'BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, "
    "ref_len=0)' and exits 1 when the reference length is 0",
}

PROFILES: Mapping[str, Profile] = MappingProxyType(
    {
        p.name: p
        for p in (
            Profile(
                name="papineni2002",
                summary="The paper's definition: corpus modified precision, closest reference "
                "length, no smoothing (a zero precision makes the score 0).",
                source="Papineni, Roukos, Ward, Zhu (2002), ACL, P02-1040, sections 2.1-2.2",
                defaults={"tokenize": "none", "ref_length": "closest", "smoothing": "none"},
                options=None,  # the definition itself: every knob is a variation of it
            ),
            Profile(
                name="mteval-v13a",
                summary="NIST mteval-v13a.pl: 13a tokenization, ASCII lowercasing, NIST "
                "geometric smoothing with absent orders as 1; dies on an empty system or "
                "empty references at system level.",
                source="moses-smt/mosesdecoder@34452895 scripts/generic/mteval-v13a.pl",
                defaults=_MTEVAL_COMMON,
                rules=(_MTEVAL_NOSMOOTH,),
                failures={
                    "empty-hypothesis": "mteval-v13a.pl dies on an empty system (hypothesis "
                    'length 0): "Can\'t take log of 0" in its system-level length-ratio print',
                    "empty-reference": "mteval-v13a.pl dies when the system reference length is "
                    '0: "Illegal division by zero" in its length-ratio print',
                },
                options={
                    "lowercase": Option("-c (case-sensitive: lowercase=False)", ("ascii", False)),
                    "smoothing": Option("--no-smoothing (smoothing=none)", ("nist", "none")),
                    "ref_length": Option(
                        "--brevity-penalty shortest (ref_length=shortest)", ("closest", "shortest")
                    ),
                },
            ),
            Profile(
                name="mteval-v14",
                summary="mteval-v14.pl: as mteval-v13a but with no length-ratio print, so an "
                "empty system scores 0 and empty references give BP 1.",
                source="moses-smt/mosesdecoder@34452895 scripts/generic/mteval-v14.pl",
                defaults={**_MTEVAL_COMMON, "empty_hyp": "bp-zero", "empty_ref": "bp-one"},
                rules=(_MTEVAL_NOSMOOTH,),
                options={
                    "lowercase": Option("-c (case-sensitive: lowercase=False)", ("ascii", False)),
                    "smoothing": Option("--no-smoothing (smoothing=none)", ("nist", "none")),
                },
            ),
            Profile(
                name="multi-bleu",
                summary="Moses multi-bleu.perl: whitespace tokens split on ASCII whitespace "
                "(bytes), no smoothing (any zero order gives 0.00), 9999 for a line without "
                "reference, dies on an empty system, special line on empty references.",
                source="moses-smt/mosesdecoder@34452895 scripts/generic/multi-bleu.perl",
                defaults={**_MULTIBLEU_COMMON, "tokenize": "none", "split": "perl-bytes"},
                failures=_MULTIBLEU_FAILURES,
                options={"lowercase": Option("-lc (lowercase=ascii)", (False, "ascii"))},
            ),
            Profile(
                name="multi-bleu-detok",
                summary="Moses multi-bleu-detok.perl: multi-bleu on 13a-tokenized UTF-8 text, "
                "case-sensitive; -lc is Unicode lc (since 2019-02-27).",
                source="moses-smt/mosesdecoder@34452895 scripts/generic/multi-bleu-detok.perl",
                defaults={**_MULTIBLEU_COMMON, "tokenize": "13a", "split": "perl-unicode"},
                failures=_MULTIBLEU_FAILURES,
                options={"lowercase": Option("-lc (lowercase=unicode)", (False, "unicode"))},
            ),
            Profile(
                name="nltk",
                summary="NLTK 3.3-3.10.x nltk.translate.bleu_score: per-segment max(1, total) "
                "floor, method0 turns zero matches into sys.float_info.min, int 0 when no "
                "unigram matches, methods 5-7 read the last segment.",
                source="nltk/nltk nltk/translate/bleu_score.py (3.10.4)",
                defaults={**_NLTK_COMMON, "zero_match": "float-min"},
                options=_NLTK_OPTIONS,
            ),
            Profile(
                name="nltk-3.2.2",
                summary="NLTK 3.2.2-3.2.5: as nltk, but method0 truncates the precision list "
                "at the first zero-match order while keeping the weights.",
                source="nltk/nltk tag 3.2.2 nltk/translate/bleu_score.py (commit ed04c22a0)",
                defaults={**_NLTK_COMMON, "zero_match": "truncate"},
                options=_NLTK_OPTIONS,
                unsupported={
                    "smoothing": (
                        "nltk-method2",
                        "nltk-method4",
                        "nltk-method5",
                        "nltk-method6",
                        "nltk-method7",
                    )
                },
            ),
            Profile(
                name="sacrebleu",
                summary="sacrebleu 2.x BLEU: 13a, case-sensitive, exp smoothing, no-match early "
                "exit, 0-100 scale; effective order at sentence level.",
                source="mjpost/sacrebleu v2.6.0 sacrebleu/metrics/bleu.py",
                defaults={
                    "tokenize": "13a",
                    "split": "python",
                    "line_prep": "rstrip",
                    "ref_length": "closest",
                    "smoothing": "exp",
                    "absent_order": "zero",
                    "zero_match": "zero",
                    "early_zero": "no-unigram-match",
                    "scale": 100,
                },
                rules=(
                    Rule(
                        when={"level": "sentence"},
                        then={"effective_order": True, "absent_order": "drop"},
                        why="sentence_bleu / --sentence-level use the effective order",
                    ),
                ),
                options={
                    "tokenize": Option("tokenize= / -tok", ("13a", "intl", "char", "none")),
                    "lowercase": Option("lowercase=True / -lc", (False, "unicode")),
                    "smoothing": Option("smooth_method= / -s", ("exp", "floor", "add-k", "none")),
                    "smoothing_value": Option("smooth_value= / -sv"),
                    "max_order": Option("max_ngram_order="),
                    "effective_order": Option("effective_order= / -e"),
                    "absent_order": Option("effective_order (absent_order=drop)", ("zero", "drop")),
                },
            ),
            Profile(
                name="google-nmt",
                summary="tensorflow/nmt compute_bleu (wrapped by HuggingFace evaluate 'bleu'): "
                "shortest reference, optional add-one on every order, ZeroDivisionError on "
                "empty hypotheses or references.",
                source="tensorflow/nmt@0be86425 nmt/scripts/bleu.py",
                defaults={
                    "tokenize": "none",
                    "ref_length": "shortest",
                    "smoothing": "none",
                    "absent_order": "zero",
                    "zero_match": "zero",
                    "empty_hyp": "error",
                    "empty_ref": "error",
                },
                options={
                    "max_order": Option("max_order="),
                    "smoothing": Option("smooth=True (smoothing=add-one)", ("none", "add-one")),
                    "tokenize": Option("tokenizer= (HF evaluate 'bleu'; tf/nmt takes tokens)"),
                },
                failures={
                    "empty-hypothesis": "tf/nmt compute_bleu raises ZeroDivisionError when the "
                    "translation length is 0 (ratio 0, then 1/ratio)",
                    "empty-reference": "tf/nmt compute_bleu raises ZeroDivisionError when the "
                    "reference length is 0 (ratio = c / 0)",
                },
            ),
            Profile(
                name="torchmetrics",
                summary="torchmetrics 1.9 BLEUScore (float64 semantics): str.split tokens, "
                "closest reference with ties to the first listed, 0 whenever an order has no "
                "match (even with smooth=True, which is add-1 for n >= 2).",
                source="Lightning-AI/torchmetrics@dab0333 src/torchmetrics/functional/text/bleu.py",
                defaults={
                    "tokenize": "none",
                    "ref_length": "closest-first",
                    "smoothing": "none",
                    "absent_order": "zero",
                    "zero_match": "zero",
                    "early_zero": "any-zero-order",
                },
                options={
                    "max_order": Option("n_gram="),
                    "weights": Option("weights="),
                    "smoothing": Option("smooth=True (add-1 on orders >= 2)", ("none", "add-k")),
                    "smoothing_value": Option("smooth=True adds exactly 1", (1.0,)),
                },
            ),
            Profile(
                name="tensor2tensor",
                summary="tensor2tensor bleu_hook.compute_bleu: one reference per segment, NIST "
                "smoothing always on with absent orders as 1, result rounded to float32.",
                source="tensorflow/tensor2tensor@bafdc1b tensor2tensor/utils/bleu_hook.py",
                defaults={
                    "tokenize": "none",
                    "ref_length": "single",
                    "smoothing": "exp",
                    "absent_order": "one",
                    "zero_match": "zero",
                    "result_float": "float32",
                },
                options={"max_order": Option("max_order=")},
            ),
        )
    }
)


def get_profile(name: str) -> Profile:
    """Return the profile called ``name`` (the error lists the valid names)."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KnobError(
            f"unknown profile {name!r}; valid profiles: {', '.join(PROFILES)}"
        ) from None


_RESOLVED: dict[tuple[int, str, tuple[tuple[str, Any], ...]], tuple[Profile, Config]] = {}
_RESOLVED_MAX = 256


def resolve_cached(profile: Profile, knobs: Mapping[str, Any], level: str) -> Config:
    """``profile.resolve(knobs, level)``, remembered for hashable knob values (a
    ``sentence_bleu`` per segment resolves the same knobs over and over)."""
    try:
        key = (id(profile), level, tuple(sorted(knobs.items())))
        hash(key)
    except TypeError:
        return profile.resolve(knobs, level)
    hit = _RESOLVED.get(key)
    if hit is not None and hit[0] is profile:
        return hit[1]
    config = profile.resolve(knobs, level)
    if len(_RESOLVED) >= _RESOLVED_MAX:
        _RESOLVED.clear()
    _RESOLVED[key] = (profile, config)  # holding the profile keeps its id unique
    return config
