"""sacrebleu 2.x ``BLEU`` and the older releases' ``corpus_bleu``/``sentence_bleu``."""

from __future__ import annotations

from typing import Any

from .model import Option, Profile, Rule

__all__ = ["PROFILES"]


_DEFAULTS = {
    "tokenize": "13a",
    "split": "python",
    "line_prep": "rstrip",
    "ref_length": "closest",
    "smoothing": "exp",
    "absent_order": "zero",
    "zero_match": "zero",
    "early_zero": "no-unigram-match",
    "empty_ref": "bp-one",
    "missing_refs": "len-minus-1",
    "scale": 100,
}

_SENTENCE = Rule(
    when={"level": "sentence"},
    then={"effective_order": True, "absent_order": "drop"},
    why="sentence_bleu / --sentence-level use the effective order",
)


def _older(
    name: str,
    span: tuple[str, str],
    summary: str,
    tokenizers: str,
    changes: dict[str, Any],
    rules: tuple[Rule, ...] = (),
    smoothing: str = "exp floor add-k none",
) -> Profile:
    """A profile of the sacrebleu releases ``span`` (measured by the sweep): 2.x's defaults
    with ``changes``, the ``tokenizers`` and ``smoothing`` methods they have; N = 4 only (1.x has no
    max_ngram_order; 2.0.0's corpus score sums orders 1-4 whatever it is)."""
    return Profile(
        name=name,
        summary=summary,
        source=f"mjpost/sacrebleu tags v{span[0]}-v{span[1]} (BLEU's compute_bleu, "
        "corpus_score/corpus_bleu)",
        releases=("sacrebleu", *span),
        defaults={**_DEFAULTS, **changes},
        rules=(_SENTENCE, *rules),
        options={
            "tokenize": Option("tokenize=", tuple(tokenizers.split())),
            "lowercase": Option("lowercase=True", (False, "unicode")),
            "smoothing": Option("smooth_method=", tuple(smoothing.split())),
            "smoothing_value": Option("smooth_value="),
            "max_order": Option("max_ngram_order= (4: see the summary)", (4,)),
            "effective_order": Option("use_effective_order= / effective_order="),
            "absent_order": Option("effective order (absent_order=drop)", ("zero", "drop")),
        },
    )


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="sacrebleu",
        summary="sacrebleu 2.x BLEU: 13a, case-sensitive, exp smoothing, no-match early "
        "exit, 0-100 scale; effective order at sentence level.",
        source="mjpost/sacrebleu v2.6.0 sacrebleu/metrics/bleu.py",
        releases=("sacrebleu", "2.2.0", "2.6.0"),
        defaults=_DEFAULTS,
        rules=(_SENTENCE,),
        options={
            "tokenize": Option(
                "tokenize= / -tok",
                (
                    "13a",
                    "intl",
                    "char",
                    "none",
                    "zh",
                    "ja-mecab",
                    "ko-mecab",
                    "spm",
                    "flores101",
                    "flores200",
                ),
            ),
            "spm_model": Option("the model file it downloads to $SACREBLEU/models/"),
            "lowercase": Option("lowercase=True / -lc", (False, "unicode")),
            "smoothing": Option("smooth_method= / -s", ("exp", "floor", "add-k", "none")),
            "smoothing_value": Option("smooth_value= / -sv"),
            "max_order": Option("max_ngram_order="),
            "effective_order": Option("effective_order= / -e"),
            "absent_order": Option("effective_order (absent_order=drop)", ("zero", "drop")),
            # streams of None (score: each segment as missing_refs says) or none at all
            "no_refs": Option("no reference stream at all (its IndexError)", ("score", "error")),
        },
    ),
    _older(
        "sacrebleu-2.0",
        ("2.0.0", "2.1.0"),
        "sacrebleu 2.0.0-2.1.0: as 2.x, but an empty reference is removed from its segment "
        "(none left: RuntimeError), undone by 2.2.0's 'allow empty references'.",
        "13a intl char none zh ja-mecab spm",
        {"ref_scope": "non-empty"},
    ),
    _older(
        "sacrebleu-1.5",
        ("1.5.0", "1.5.1"),
        "sacrebleu 1.5.0-1.5.1: as sacrebleu-2.0, but exp, floor and add-k smooth even when "
        "nothing matches (2.0.0's early exit, #141, is not there).",
        "13a intl char none zh ja-mecab",
        {"ref_scope": "non-empty", "early_zero": "empty-hypothesis"},
    ),
    _older(
        "sacrebleu-1.4.4",
        ("1.4.4", "1.4.14"),
        "sacrebleu 1.4.4-1.4.14: as sacrebleu-1.5, but empty references are kept (as 2.2 "
        "does) and floor's default value is 0 (SMOOTH_DEFAULTS; 0.1 from 1.5.0).",
        "13a intl char none zh ja-mecab",
        {"early_zero": "empty-hypothesis", "missing_refs": "error"},
        (Rule({"smoothing": "floor", "smoothing_value": None}, {"smoothing_value": 0.0}, "1.4.x"),),
    ),
    _older(
        "sacrebleu-1.3",
        ("1.3.1", "1.4.3"),
        "sacrebleu 1.3.1-1.4.3: as sacrebleu-1.4.4, but add-k adds k from the trigrams on "
        "(n > 1 on 0-based orders; 1.4.4: 'only applied smoothing to n-grams for n > 2') "
        "and the smoothing value defaults to 0 for add-k too (SMOOTH_VALUE_DEFAULT).",
        "13a intl none zh",
        {
            "early_zero": "empty-hypothesis",
            "missing_refs": "error",
            "add_k_from": 3,
            "smoothing_value": 0.0,
        },
    ),
    _older(
        "sacrebleu-1.1.7",
        ("1.1.7", "1.2.21"),
        "sacrebleu 1.1.7-1.2.21: as sacrebleu-1.3, but without add-k (1.3.0 added it; "
        "smooth='add-k' is no smoothing there).",
        "13a intl none zh",
        {"early_zero": "empty-hypothesis", "missing_refs": "error", "smoothing_value": 0.0},
        smoothing="exp floor none",
    ),
    Profile(
        name="lm-eval",
        summary="lm-evaluation-harness bleu: sacrebleu's corpus_bleu with its defaults "
        "after zip(*refs), so every segment keeps only as many references as the segment "
        "with the fewest (none left: IndexError); corpus BLEU at any level, 0-100.",
        source="EleutherAI/lm-evaluation-harness 0.4.13 lm_eval/api/metrics.py "
        "(bleu, _sacreformat)",
        defaults={**_DEFAULTS, "ref_scope": "fewest"},
        options={},
    ),
)
