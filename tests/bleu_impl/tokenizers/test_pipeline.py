"""Pipeline.line and Pipeline.batch (the fast tokenizers) equal Pipeline.segment, for every
lowercasing stage and role; what each stage means."""

from __future__ import annotations

import itertools

import pytest

from bleu_impl import Pipeline
from bleu_impl.knobs import CHOICES, SINGLE_SPACE_SPLITS, make_config
from bleu_impl.spm_models import SPM_MODELS
from bleu_impl.tokenizers import ROLES, pipelines

from ..randomcorpus import random_corpus


@pytest.mark.parametrize("config_knobs", [{}, {"tokenize": "13a", "lowercase": "unicode"}])
def test_batch_and_line_equal_segment(config_knobs) -> None:
    hyps, _ = random_corpus(21, segments=200)
    for split, line_prep in itertools.product(CHOICES["split"], CHOICES["line_prep"]):
        if split in SINGLE_SPACE_SPLITS and config_knobs.get("tokenize", "none") != "none":
            continue  # make_config refuses it
        config = make_config({**config_knobs, "split": split, "line_prep": line_prep})
        reference = [list(Pipeline(config).segment(h)) for h in hyps]
        assert Pipeline(config).batch(hyps) == reference
        assert [Pipeline(config).line(h) for h in hyps] == reference


LOWERCASES = [v for v in CHOICES["lowercase"] if v]


@pytest.mark.parametrize("tokenize", CHOICES["tokenize"])
@pytest.mark.parametrize("stage", CHOICES["lowercase_stage"])
def test_every_stage_and_role_has_equal_fast_tokenizers(
    tokenize: str, stage: str, request: pytest.FixtureRequest
) -> None:
    hyps, _ = random_corpus(23, segments=120)
    model = request.getfixturevalue("spm_model") if tokenize in SPM_MODELS else None
    for lowercase, role in itertools.product(LOWERCASES, ROLES):
        config = make_config(
            {
                "tokenize": tokenize,
                "lowercase": lowercase,
                "lowercase_stage": stage,
                "spm_model": model,
            }
        )
        pipeline = Pipeline(config, role)
        reference = [list(pipeline.segment(h)) for h in hyps]
        assert pipeline.batch(hyps) == reference, (lowercase, role)
        assert [pipeline.line(h) for h in hyps] == reference, (lowercase, role)


def _tokens(knobs: dict, text: str, role: str = "hypothesis") -> list[str]:
    return list(Pipeline(make_config(knobs), role).segment(text))


def test_after_entities_keeps_upper_case_entities_and_skipped_tags() -> None:
    # mteval-v13a.pl decodes &amp; and drops <skipped> before its tr/[A-Z]/[a-z]/
    knobs = {"tokenize": "13a", "lowercase": "ascii", "lowercase_stage": "after-entities"}
    assert _tokens(knobs, "AT&AMP;T <SKIPPED> x") == [
        "at",
        "&",
        "amp",
        ";",
        "t",
        "<",
        "skipped",
        ">",
        "x",
    ]
    assert _tokens(knobs, "AT&amp;T <skipped> x") == ["at", "&", "t", "x"]
    assert _tokens({**knobs, "lowercase_stage": "before-tokenize"}, "AT&AMP;T") == ["at", "&", "t"]


def test_hyp_before_ref_after_is_two_stages() -> None:
    base = {"tokenize": "13a", "lowercase": "perl-lc"}
    split = {**base, "lowercase_stage": "hyp-before-ref-after"}
    text = "R&AMP;D <SKIPPED> ΟΔΟΣ"
    before = _tokens({**base, "lowercase_stage": "before-tokenize"}, text)
    after = _tokens({**base, "lowercase_stage": "after-tokenize"}, text)
    assert _tokens(split, text, "hypothesis") == before == ["r", "&", "d", "οδοσ"]
    assert _tokens(split, text, "reference") == after
    assert after == ["r", "&", "amp", ";", "d", "<", "skipped", ">", "οδοσ"]
    hyp, ref = pipelines(make_config(split))
    assert (hyp.role, ref.role) == ("hypothesis", "reference")
    same = pipelines(make_config(base))
    assert same[0] is same[1]


@pytest.mark.parametrize("tokenize", ["none", "intl", "char"])
def test_after_entities_is_before_tokenize_without_entity_decoding(tokenize: str) -> None:
    hyps, _ = random_corpus(29, segments=60)
    for lowercase in LOWERCASES:
        knobs = {"tokenize": tokenize, "lowercase": lowercase}
        for h in hyps:
            assert _tokens({**knobs, "lowercase_stage": "after-entities"}, h) == _tokens(knobs, h)


def test_a_role_must_be_named_right() -> None:
    with pytest.raises(ValueError, match="role must be one of"):
        Pipeline(make_config({}), "ref")
