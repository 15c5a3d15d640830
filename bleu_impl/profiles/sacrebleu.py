"""sacrebleu 2.x ``BLEU``."""

from __future__ import annotations

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
    "scale": 100,
}

PROFILES: tuple[Profile, ...] = (
    Profile(
        name="sacrebleu",
        summary="sacrebleu 2.x BLEU: 13a, case-sensitive, exp smoothing, no-match early "
        "exit, 0-100 scale; effective order at sentence level.",
        source="mjpost/sacrebleu v2.6.0 sacrebleu/metrics/bleu.py",
        releases=("sacrebleu", "2.2.0", "2.6.0"),
        defaults=_DEFAULTS,
        rules=(
            Rule(
                when={"level": "sentence"},
                then={"effective_order": True, "absent_order": "drop"},
                why="sentence_bleu / --sentence-level use the effective order",
            ),
        ),
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
        },
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
