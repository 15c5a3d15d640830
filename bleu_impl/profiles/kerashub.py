"""KerasHub ``keras_hub.metrics.Bleu`` (a tensorflow/nmt clone with a 13a tokenizer)."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    Profile(
        name="keras-hub",
        summary="KerasHub Bleu(tokenizer, max_order, smooth): its RE2 port of 13a, the "
        "shortest reference, +1 on every order when smooth=True, 0 when a precision is 0, "
        "float32 metric state. Not emulated: its 13a port has no padding (a leading '.5' "
        "stays one token) and splits on ASCII whitespace only.",
        source="keras-team/keras-hub (0.32.0 on PyPI) keras_hub/src/metrics/bleu.py",
        defaults={
            "tokenize": "13a",
            "ref_length": "shortest",
            "smoothing": "none",
            "absent_order": "zero",
            "zero_match": "zero",
            "arithmetic": "float32",
        },
        options={
            "max_order": Option("max_order="),
            "smoothing": Option("smooth=True (+1 on every order)", ("none", "add-one")),
            "tokenize": Option("tokenizer= (a callable; default: its 13a port)"),
        },
    ),
)
