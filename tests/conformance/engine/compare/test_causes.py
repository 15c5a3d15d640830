"""The cause compare names for an implementation it has no profile for."""

from __future__ import annotations

import json

from conformance.cli import main


def sacrebleu_effective_order(hypotheses: list, references: list) -> float:
    """Live sacrebleu 2.6 ``BLEU(effective_order=True)``: sacrebleu's defaults otherwise."""
    import sacrebleu

    width = max(len(rs) for rs in references)
    streams = [[rs[k] if k < len(rs) else None for rs in references] for k in range(width)]
    return sacrebleu.BLEU(effective_order=True).corpus_score(hypotheses, streams).score / 100


sacrebleu_effective_order.bleu_inputs = ("raw",)  # type: ignore[attr-defined]


def test_effective_order_is_the_cause_not_a_tokenizer_that_happens_to_reach_100(capsys):
    """On a 2-token exact match, ``tokenize: char`` (more tokens, so 4-grams) turns 0 into
    100 as effective order does; one case cannot tell them apart, the pair's other cases
    can. compare once named the tokenizer; the cause is effective order, on every case."""
    spec = f"{__name__}:sacrebleu_effective_order"
    argv = ["compare", "--impl", "bleu_impl:sacrebleu", "--impl", spec, "-k", "edge"]
    assert main([*argv, "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    causes = {c["cause"]: c["cases"] for c in found["causes"]}
    assert causes == {"absent_order: zero vs drop": causes.get("absent_order: zero vs drop")}
    assert causes["absent_order: zero vs drop"] >= 5
    assert main(argv) == 0
    assert "tokenize" not in capsys.readouterr().out.split("Material differences")[0]
