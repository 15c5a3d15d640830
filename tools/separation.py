"""Write docs/separation.md: for every pair of values of every knob, the share of generated
corpora that separate them.

usage:
    python -m tools.separation            # rewrite docs/separation.md
    python -m tools.separation --check    # exit 1 when the page is not what it would write

A pair (knob, a, b) is measured on every *base*: every profile, with the knob set through
its own option where it has one, else through the generic profile over the profile's
resolved knobs (a base that takes only one of the values is left out); a knob that is a
parameter of another knob's value is measured with that value set (:data:`CONTEXT`). A
corpus separates the pair on that base when bleu_impl's outcomes (score, or failure kind)
under the two resolved configs differ. The page shows each pair's best base. The pairs come
from the knob declarations (``bleu_impl.knobs.KNOBS``: a ``Literal`` knob's values; a
number's :data:`TRIALS`), so a knob declared later is measured without an edit here; a pair
no corpus separates needs a reason in :data:`ZERO_REASONS` (``--check`` fails without one).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

from bleu_impl import PROFILES, BleuError, Config, Profile, get_profile
from bleu_impl.knobs import KNOBS
from conformance.cases import generate_cases
from conformance.engine.asking import Outcome
from conformance.engine.evaluator import Evaluator, scorer_pool

GENERIC = "papineni2002"  # the paper's profile: takes every knob
LEVELS = ("corpus", "sentence")
PATH = Path(__file__).resolve().parent.parent / "docs" / "separation.md"
COUNT, SEED = 300, 0

#: Values tried for the knobs that are numbers, flags or paths (no ``Literal`` values):
#: the default and what a known implementation uses instead.
TRIALS: dict[str, tuple[Any, ...]] = {
    "max_order": (1, 2, 3, 4, 5),
    "weights": (None, (0.5, 0.5), (0.4, 0.3, 0.2, 0.1)),
    "smoothing_value": (None, 0.01),
    "epsilon": (0.1, 1e-12),
    "alpha": (5.0, 1.0),
    "k": (5.0, 1.0),
    "add_k_from": (2, 1, 3),
    "effective_order": (False, True),
    "auto_reweigh": (False, True),
    "spm_model": (None,),  # a path: set with the tokenizer that reads it (VALUE_CONTEXT)
}

#: sacrebleu's FLORES models are downloaded, and none is on this machine: the SentencePiece
#: tokenizers are measured with the bundled stand-in model (trained by
#: tools/fixtures/multilingual.py), so their values differ from the others' as the tokenizer
#: does, and from one another not at all (only the model file tells them apart).
STAND_IN_MODEL = PATH.parents[1] / "fixtures/sacrebleu/models/multilingual-tiny.model"
_SPM_VALUES = ("spm", "flores101", "flores200")  # bleu_impl's SPM_MODELS, not public API

#: Settings a value needs to be taken at all (keys: knob, value).
VALUE_CONTEXT: dict[tuple[str, Any], dict[str, Any]] = {
    ("tokenize", value): {"spm_model": str(STAND_IN_MODEL)} for value in _SPM_VALUES
}

#: Why a pair no generated corpus separates cannot be separated here (keys: knob, a, b).
ZERO_REASONS: dict[tuple[str, Any, Any], str] = {
    ("smoothing", "exp", "nist"): "one formula (1/2^k for the k-th order without a match), "
    "the same function in bleu_impl.smoothing: identical by construction",
    ("smoothing", "exp", "nltk-method3"): "one formula (see exp vs nist)",
    ("smoothing", "nist", "nltk-method3"): "one formula (see exp vs nist)",
    ("smoothing_context", "corpus", "last-segment"): "only NLTK methods 5-7 read the last "
    "segment, and make_config refuses them without last-segment: identical on every config",
    ("scale", 1, 100): "presentation only: the score on 0-1 is the same (a scale finding is "
    "identify's, from the answers' ratio)",
    ("tokenize", "spm", "flores101"): "sacrebleu's alias: the same model and tokenizer",
    **{
        ("tokenize", a, "flores200"): "one tokenizer with another model file; one stand-in "
        "model serves both here (STAND_IN_MODEL), so only a model file could separate them"
        for a in ("spm", "flores101")
    },
    **{
        ("add_k_from", a, b): "read by add-k smoothing only, which no profile has by default "
        "(one knob is varied at a time); tests/bleu_impl/test_release_knobs.py separates them"
        for a, b in ((2, 1), (2, 3), (1, 3))
    },
}


def values_of(name: str, declared: tuple[Any, ...] | None) -> tuple[Any, ...]:
    if declared is not None:
        return declared
    if name not in TRIALS:
        raise SystemExit(f"knob {name!r} has no declared values and no TRIALS entry")
    return TRIALS[name]


def pairs() -> Iterator[tuple[str, Any, Any]]:
    for knob in KNOBS:
        for a, b in combinations(values_of(knob.name, knob.values), 2):
            yield knob.name, a, b


#: Knobs ``make_config`` couples: varying one drops the other from the base's values.
_COUPLED = {"effective_order": "absent_order", "absent_order": "effective_order"}
_COUPLED |= {"weights": "max_order", "max_order": "weights"}


#: Knobs that are parameters of one value of another knob, measured where they are read.
CONTEXT: dict[str, dict[str, Any]] = {
    "smoothing_value": {"smoothing": "floor"},
    "alpha": {"smoothing": "nltk-method6", "smoothing_context": "last-segment"},
    "k": {"smoothing": "nltk-method4"},
    "nltk_methods": {"smoothing": "nltk-method4"},  # every release step changed method4
    "arithmetic": {"max_order": 3},  # float32-weights: 1/4 is exact in single precision
}


def _resolve(profile: Profile, settings: dict[str, Any], level: str) -> Config | None:
    """``profile`` with ``settings``: through its own options where it has them, else the
    generic profile over its resolved knobs (how the README says to vary a knob a tool has
    no option for); None when neither takes them."""
    try:
        return profile.resolve(settings, level)
    except BleuError:
        pass
    values = profile.resolve({}, level).as_dict()
    for knob in settings:
        values.pop(_COUPLED.get(knob, knob), None)
    try:
        return get_profile(GENERIC).resolve({**values, **settings}, level)
    except BleuError:
        return None


def _configs(
    knob: str, values: tuple[Any, ...], interned: dict[Config, Config] | None = None
) -> dict[tuple[str, Any, str], Config]:
    """(base profile, value, level) -> the resolved config, where the base takes the value;
    equal configs are the first of them in ``interned`` (each evaluator remembers an outcome
    per config object: two thirds of the configs are equal to another base's)."""
    found = {}
    interned = {} if interned is None else interned
    for profile in PROFILES.values():
        for value in values:
            for level in LEVELS:
                settings = {**CONTEXT.get(knob, {}), **VALUE_CONTEXT.get((knob, value), {})}
                config = _resolve(profile, {**settings, knob: value}, level)
                if config is not None:
                    found[profile.name, value, level] = interned.setdefault(config, config)
    return found


def measure(count: int = COUNT, seed: int = SEED) -> list[tuple[str, Any, Any, int, str, int]]:
    """(knob, a, b, separating corpora, best base, bases) for every pair."""
    cases = generate_cases(count, seed)
    pool = scorer_pool()
    evaluators = [Evaluator(case, pool) for case in cases]
    rows, interned = [], {}
    answers: dict[tuple[Config, Config], tuple[Outcome, ...]] = {}

    def outcomes(by_level: dict[str, Config]) -> tuple[Outcome, ...]:
        """The outcome on every corpus, once per (corpus config, sentence config)."""
        key = (by_level["corpus"], by_level["sentence"])
        if key not in answers:
            answers[key] = tuple(ev.score(by_level[ev.level]) for ev in evaluators)
        return answers[key]

    for knob in KNOBS:
        values = values_of(knob.name, knob.values)
        configs = _configs(knob.name, values, interned)
        for a, b in combinations(values, 2):
            best, best_base, bases = 0, "-", 0
            for profile in PROFILES:
                if not all((profile, v, lv) in configs for v in (a, b) for lv in LEVELS):
                    continue
                bases += 1
                one, other = (
                    outcomes({lv: configs[profile, v, lv] for lv in LEVELS}) for v in (a, b)
                )
                hits = sum(x != y for x, y in zip(one, other, strict=True))
                if hits > best or best_base == "-":
                    best, best_base = hits, profile
            rows.append((knob.name, a, b, best, best_base, bases))
    return rows


def _show(value: Any) -> str:
    return f"`{value!r}`" if not isinstance(value, str) else f"`{value}`"


def render(rows: list[tuple[str, Any, Any, int, str, int]], count: int = COUNT) -> str:
    lines = [
        "# How often generated corpora separate each pair of knob values",
        "",
        "Generated by `python -m tools.separation` (see its docstring); do not edit by hand.",
        f"Corpora: `generate_cases({count}, seed={SEED})`, the corpora `--generate {count}`",
        "adds. A corpus *separates* values a and b of a knob on a base profile when bleu_impl's",
        "outcome (the score, or the kind of failure) differs between the base with the knob",
        "at a and the base with it at b; *base* is the profile on which most corpora separate",
        "the pair, of the *bases* that take both values (through the profile's own option, else",
        "the generic profile over the profile's resolved knobs). `spm`, `flores101` and",
        "`flores200` read the bundled stand-in SentencePiece model",
        "(`fixtures/sacrebleu/models/multilingual-tiny.model`): sacrebleu's are downloaded.",
        "",
        "| knob | a | b | separating | share | base | bases |",
        "|---|---|---|---:|---:|---|---:|",
    ]
    zeros = []
    for knob, a, b, hits, base, bases in rows:
        share = f"{hits / count:.1%}"
        lines.append(f"| {knob} | {_show(a)} | {_show(b)} | {hits} | {share} | {base} | {bases} |")
        if hits == 0:
            reason = ZERO_REASONS.get((knob, a, b), NO_REASON)
            zeros.append(f"- {knob} {_show(a)} vs {_show(b)}: {reason}")
    single = [k.name for k in KNOBS if len(values_of(k.name, k.values)) < 2]
    lines += ["", "## Pairs no generated corpus separates", "", *(zeros or ["None."]), ""]
    if single:
        shown = ", ".join(f"`{name}`" for name in single)
        lines += [f"Not measured (one trial value; see `TRIALS` in the tool): {shown}.", ""]
    return "\n".join(lines)


NO_REASON = "**no reason recorded**"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    text = render(measure())
    if args.check:
        if NO_REASON in text:
            print(f"a pair no corpus separates has no reason: see {PATH}", file=sys.stderr)
            return 1
        current = PATH.read_text(encoding="utf-8") if PATH.exists() else ""
        if current != text:
            print(f"{PATH} is not current: run python -m tools.separation", file=sys.stderr)
            return 1
        return 0
    PATH.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
