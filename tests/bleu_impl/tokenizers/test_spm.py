"""``spm``/``flores101``/``flores200`` against live sacrebleu 2.x's ``TokenizerSPM`` with a
small model the tests train and place where sacrebleu reads its models; the ``spm_model``
knob's errors and its signature."""

from __future__ import annotations

import os
import random
import shutil

import pytest

from bleu_impl import KnobError, make_config, signature
from bleu_impl.spm_models import SPM_MODELS
from bleu_impl.tokenizers import Pipeline
from bleu_impl.tokenizers.spm import model_digest, spm_tokenizer
from tools.fixtures.multilingual import random_line

pytest.importorskip("sentencepiece")


@pytest.mark.parametrize("name", list(SPM_MODELS))
def test_pieces_equal_sacrebleus(name: str, sacrebleu_spm_model: str) -> None:
    metrics = pytest.importorskip("sacrebleu.metrics")
    theirs = metrics.BLEU(tokenize=name).tokenizer
    assert theirs.signature() == SPM_MODELS[name].signature
    rng = random.Random(name)
    lines = [random_line(rng) for _ in range(800)] + ["", "  ", "\u3000x\u3000", "ＡＢＣ１２３"]
    ours = spm_tokenizer(sacrebleu_spm_model, name)
    expected = [theirs(line) for line in lines]
    assert [ours(line) for line in lines] == expected
    assert ours.batch(lines) == expected
    config = make_config({"tokenize": name, "spm_model": sacrebleu_spm_model})
    assert Pipeline(config).batch(lines) == [e.split() for e in expected]


def test_without_a_model_the_error_names_sacrebleus_file() -> None:
    with pytest.raises(KnobError, match=r"spm_model=PATH.*sacrebleu_tokenizer_spm\.model"):
        make_config({"tokenize": "flores101"})
    with pytest.raises(KnobError, match=r"flores200sacrebleuspm"):
        make_config({"tokenize": "flores200"})


def test_a_missing_or_invalid_model_file_is_a_knob_error(tmp_path) -> None:
    missing = str(tmp_path / "nope.model")
    with pytest.raises(KnobError, match=r"nope\.model.*no such file.*dl\.fbaipublicfiles"):
        Pipeline(make_config({"tokenize": "spm", "spm_model": missing}))
    junk = tmp_path / "junk.model"
    junk.write_bytes(b"not a model")
    with pytest.raises(KnobError, match="not a SentencePiece model"):
        Pipeline(make_config({"tokenize": "spm", "spm_model": str(junk)}))


def test_spm_model_only_goes_with_a_sentencepiece_tokenizer(spm_model: str) -> None:
    with pytest.raises(KnobError, match="spm_model is read only by tokenize=spm/flores101"):
        make_config({"tokenize": "13a", "spm_model": spm_model})
    assert make_config({"tokenize": "spm", "spm_model": "~/m.model"}).spm_model == os.path.join(
        os.path.expanduser("~"), "m.model"
    )
    with pytest.raises(KnobError, match="a file path or None"):
        make_config({"tokenize": "spm", "spm_model": 3})


def test_signature_names_the_model_by_file_name_and_digest(spm_model: str, tmp_path) -> None:
    copy = tmp_path / "copy.model"
    shutil.copy(spm_model, copy)
    a = signature("sacrebleu", make_config({"tokenize": "spm", "spm_model": spm_model}))
    b = signature("sacrebleu", make_config({"tokenize": "flores101", "spm_model": str(copy)}))
    assert "|tok:flores101|" in a and "|tok:flores101|" in b  # sacrebleu's name for both
    digest = model_digest(spm_model).split("@")[1]
    assert len(digest) == 12 and f"|spm:tiny.model@{digest}|" in a
    assert f"|spm:copy.model@{digest}|" in b  # same bytes, same digest
    assert "|spm:none|" in signature("sacrebleu", make_config({}))
