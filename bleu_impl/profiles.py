"""Named profiles: documented bundles of knob values that reproduce known implementations.

A profile is a set of defaults plus *rules*: knob values that follow from other knobs (or
from the level, ``sentence`` or ``corpus``) the way the real tool's own flags interact, e.g.
mteval's ``--no-smoothing`` also changes how orders without n-grams count. A knob given
explicitly by the caller always wins over a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import KnobError
from .knobs import Config, make_config

__all__ = ["LEVELS", "PROFILES", "Profile", "Rule", "get_profile", "resolve_cached"]

LEVELS = ("corpus", "sentence")


@dataclass(frozen=True)
class Rule:
    """When every ``when`` item holds (``level`` included), apply ``then`` to unset knobs."""

    when: Mapping[str, Any]
    then: Mapping[str, Any]
    why: str


@dataclass(frozen=True)
class Profile:
    """A named implementation semantics: defaults, interaction rules and provenance."""

    name: str
    summary: str
    source: str
    defaults: Mapping[str, Any]
    rules: tuple[Rule, ...] = ()
    flags: Mapping[str, str] = field(default_factory=dict)
    unsupported: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    failures: Mapping[str, str] = field(default_factory=dict)

    def resolve(self, knobs: Mapping[str, Any], level: str = "corpus") -> Config:
        """Return the fully resolved :class:`Config` for ``knobs`` at ``level``."""
        if level not in LEVELS:
            raise KnobError(f"invalid level {level!r}: expected one of {', '.join(LEVELS)}")
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
                flags={
                    "-c": "lowercase=False",
                    "--no-smoothing": "smoothing=none",
                    "--brevity-penalty shortest": "ref_length=shortest",
                },
            ),
            Profile(
                name="mteval-v14",
                summary="mteval-v14.pl: as mteval-v13a but with no length-ratio print, so an "
                "empty system scores 0 and empty references give BP 1.",
                source="moses-smt/mosesdecoder@34452895 scripts/generic/mteval-v14.pl",
                defaults={**_MTEVAL_COMMON, "empty_hyp": "bp-zero", "empty_ref": "bp-one"},
                rules=(_MTEVAL_NOSMOOTH,),
                flags={"-c": "lowercase=False", "--no-smoothing": "smoothing=none"},
            ),
            Profile(
                name="multi-bleu",
                summary="Moses multi-bleu.perl: whitespace tokens split on ASCII whitespace "
                "(bytes), no smoothing (any zero order gives 0.00), 9999 for a line without "
                "reference, dies on an empty system, special line on empty references.",
                source="moses-smt/mosesdecoder@34452895 scripts/generic/multi-bleu.perl",
                defaults={**_MULTIBLEU_COMMON, "tokenize": "none", "split": "perl-bytes"},
                failures=_MULTIBLEU_FAILURES,
                flags={"-lc": "lowercase=ascii"},
            ),
            Profile(
                name="multi-bleu-detok",
                summary="Moses multi-bleu-detok.perl: multi-bleu on 13a-tokenized UTF-8 text, "
                "case-sensitive; -lc is Unicode lc (since 2019-02-27).",
                source="moses-smt/mosesdecoder@34452895 scripts/generic/multi-bleu-detok.perl",
                defaults={**_MULTIBLEU_COMMON, "tokenize": "13a", "split": "perl-unicode"},
                failures=_MULTIBLEU_FAILURES,
                flags={"-lc": "lowercase=unicode"},
            ),
            Profile(
                name="nltk",
                summary="NLTK 3.3-3.10.x nltk.translate.bleu_score: per-segment max(1, total) "
                "floor, method0 turns zero matches into sys.float_info.min, int 0 when no "
                "unigram matches, methods 5-7 read the last segment.",
                source="nltk/nltk nltk/translate/bleu_score.py (3.10.4)",
                defaults={**_NLTK_COMMON, "zero_match": "float-min"},
            ),
            Profile(
                name="nltk-3.2.2",
                summary="NLTK 3.2.2-3.2.5: as nltk, but method0 truncates the precision list "
                "at the first zero-match order while keeping the weights.",
                source="nltk/nltk tag 3.2.2 nltk/translate/bleu_score.py (commit ed04c22a0)",
                defaults={**_NLTK_COMMON, "zero_match": "truncate"},
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
