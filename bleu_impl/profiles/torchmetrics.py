"""torchmetrics ``BLEUScore`` and ``SacreBLEUScore``."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


_OPTIONS = {
    "max_order": Option("n_gram="),
    "weights": Option("weights="),
    "smoothing": Option("smooth=True (add-1 on orders >= 2)", ("none", "add-k")),
    "smoothing_value": Option("smooth=True adds exactly 1", (1.0,)),
}

_DEFAULTS = {
    "tokenize": "none",
    "ref_length": "closest-first",
    "smoothing": "none",
    "absent_order": "zero",
    "zero_match": "zero",
    "early_zero": "any-zero-order",
    "arithmetic": "float32",
}

#: sacre_bleu.py AVAILABLE_TOKENIZERS (torchmetrics 1.9.0)
_TOKENIZERS = "13a intl char none zh ja-mecab ko-mecab flores101 flores200"

PROFILES: tuple[Profile, ...] = (
    Profile(
        name="torchmetrics",
        summary="torchmetrics 1.9 BLEUScore (float64 semantics): str.split tokens, "
        "closest reference with ties to the first listed, 0 whenever an order has no "
        "match (even with smooth=True, which is add-1 for n >= 2).",
        source="Lightning-AI/torchmetrics@dab0333 src/torchmetrics/functional/text/bleu.py",
        releases=("torchmetrics", "0.3.0", "1.9.0"),
        defaults=_DEFAULTS,
        options=_OPTIONS,
    ),
    Profile(
        name="torchmetrics-0.2",
        summary="torchmetrics 0.2.0 bleu_score: as torchmetrics, but smooth=True adds one to "
        "every order, the unigrams too (0.3.0 spares them).",
        source="Lightning-AI/torchmetrics v0.2.0 torchmetrics/functional/nlp.py "
        "(torch.add(numerator, torch.ones(n_gram)))",
        releases=("torchmetrics", "0.2.0", "0.2.0"),
        defaults={**_DEFAULTS, "add_k_from": 1},
        options={k: v for k, v in _OPTIONS.items() if k != "weights"},
    ),
    Profile(
        name="torchmetrics-sacrebleu",
        summary="torchmetrics 1.9 SacreBLEUScore / sacre_bleu_score: sacrebleu's tokenizers "
        "re-implemented (13a by default, no rstrip, lowercasing after tokenizing), then "
        "the BLEUScore computation: no exp smoothing, ties to the first listed reference, "
        "0 whenever an order has no match, float32 tensors.",
        source="Lightning-AI/torchmetrics@dab0333 src/torchmetrics/functional/text/sacre_bleu.py",
        defaults={**_DEFAULTS, "tokenize": "13a", "line_prep": "none"},
        options={
            **_OPTIONS,
            "tokenize": Option("tokenize=", tuple(_TOKENIZERS.split())),
            "spm_model": Option("the model file it downloads to $TMPDIR/torchmetrics-flores/"),
            "lowercase": Option("lowercase=True", (False, "unicode")),
        },
    ),
)
