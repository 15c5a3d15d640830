"""Google's implementations: tensorflow/nmt ``compute_bleu`` (HF evaluate) and tensor2tensor."""

from __future__ import annotations

from .model import Option, Profile

__all__ = ["PROFILES"]


PROFILES: tuple[Profile, ...] = (
    # Called the usual way, evaluate.load("bleu").compute(predictions=..., references=...)
    # on raw strings, HF tokenizes with its copy of sacrebleu's 13a tokenizer (no
    # lowercasing) before tf/nmt's compute_bleu: hence the 13a default. Token lists are
    # taken as given, which is tf/nmt compute_bleu called directly on tokenized corpora.
    Profile(
        name="google-nmt",
        summary="tensorflow/nmt compute_bleu as HuggingFace evaluate 'bleu' calls it: 13a "
        "tokenization of raw strings (token lists as given, like tf/nmt itself), shortest "
        "reference, optional add-one on every order, ZeroDivisionError on empty hypotheses "
        "or references.",
        source="tensorflow/nmt@0be86425 nmt/scripts/bleu.py; HF evaluate metrics/bleu "
        "(tokenizer=Tokenizer13a() by default)",
        defaults={
            "tokenize": "13a",
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
            "tokenize": Option(
                "tokenizer= (HF evaluate 'bleu', default 13a; tf/nmt takes token lists)"
            ),
        },
        failures={
            "empty-hypothesis": "tf/nmt compute_bleu raises ZeroDivisionError when the "
            "translation length is 0 (ratio 0, then 1/ratio)",
            "empty-reference": "tf/nmt compute_bleu raises ZeroDivisionError when the "
            "reference length is 0 (ratio = c / 0)",
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
