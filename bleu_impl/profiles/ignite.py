"""pytorch-ignite ``ignite.metrics.nlp.Bleu``."""

from __future__ import annotations

from .model import Option, Profile, Rule

__all__ = ["PROFILES"]

#: ignite's ``smooth`` names -> knobs: smooth1 and nltk_smooth2 floor the corpus totals at 1
#: (``denominator_floor="corpus"``), smooth2 does not; every smoother but no_smooth returns 0
#: only when no unigram matches.
PROFILES: tuple[Profile, ...] = (
    Profile(
        name="ignite",
        summary="pytorch-ignite 0.5 Bleu(ngram, smooth, average): token lists, closest "
        "reference (ties to the shorter), macro average of sentence BLEU by default; "
        "no_smooth gives 0 when any order has no match; smooth1 = epsilon 0.1 / max(1, l), "
        "nltk_smooth2 = +1 on orders >= 2 after max(1, l), smooth2 = +1 without the floor.",
        source="pytorch/ignite@de08e79 (= 0.5.5) ignite/metrics/nlp/bleu.py",
        defaults={
            "tokenize": "none",
            "ref_length": "closest",
            "smoothing": "none",
            "denominator_floor": "corpus",
            "early_zero": "any-zero-order",
            "absent_order": "zero",
            "zero_match": "zero",
            "aggregation": "macro",
        },
        rules=(
            Rule(
                when={"aggregation": "macro", "smoothing": "none"},
                then={"arithmetic": "float32"},
                why="no_smooth divides by the float32 count tensor of each sentence "
                "(n.item() / tensor): float32 precisions",
            ),
            Rule(
                when={"smoothing": "floor"},
                then={"early_zero": "no-unigram-match", "smoothing_value": 0.1},
                why="smooth1: epsilon 0.1 / max(1, l); 0 only without a unigram match",
            ),
            Rule(
                when={"smoothing": "add-k"},
                then={"early_zero": "no-unigram-match", "smoothing_value": 1},
                why="nltk_smooth2 / smooth2: (m + 1)/(l + 1) on orders >= 2",
            ),
        ),
        options={
            "max_order": Option("ngram="),
            "smoothing": Option(
                "smooth= (no_smooth: none, smooth1: floor, nltk_smooth2 / smooth2: add-k)",
                ("none", "floor", "add-k"),
            ),
            "denominator_floor": Option(
                "smooth= (smooth2: none; no_smooth, smooth1, nltk_smooth2: corpus)",
                ("corpus", "none"),
            ),
            "aggregation": Option("average= (macro, micro: corpus)", ("macro", "corpus")),
        },
        forbids=({"smoothing": "floor", "denominator_floor": "none"},),
        failures={
            "empty-corpus": "average='macro' with no sentence raises NotComputableError",
        },
    ),
)
