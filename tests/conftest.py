"""Shared test helpers."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``slow`` tests first (a stable sort): pytest-xdist hands tests out in this order,
    so the long ones start at once on every worker instead of ending the run one by one."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def perl_groundtruth() -> list[dict]:
    """The real Perl scripts' outputs (see tests/data/README.md)."""
    return json.loads((DATA / "perl_scripts.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def default_compare_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's first command, ``bleu-conformance compare``, run once with its log kept
    (the README's quoted first screen and the compare tests replay it)."""
    from conformance.cli import main

    log = tmp_path_factory.mktemp("compare") / "default.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["compare", "--output", str(log)]) == 0
    return log


@pytest.fixture(scope="session")
def spm_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A small SentencePiece model trained on seeded multilingual text (the FLORES models
    sacrebleu downloads are out of reach offline)."""
    pytest.importorskip("sentencepiece")
    from tools.fixtures.multilingual import train_spm_model

    return str(train_spm_model(tmp_path_factory.mktemp("spm") / "tiny.model"))


@pytest.fixture
def sacrebleu_spm_model(spm_model: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """``spm_model`` placed where live sacrebleu reads its SentencePiece models (its models
    directory, under each file name it uses), so its spm/flores tokenizers load it."""
    tokenizer_spm = pytest.importorskip("sacrebleu.tokenizers.tokenizer_spm")
    models = tmp_path / "sacrebleu" / "models"
    models.mkdir(parents=True)
    for name in {entry["url"].rsplit("/", 1)[-1] for entry in tokenizer_spm.SPM_MODELS.values()}:
        (models / name).symlink_to(spm_model)
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(tmp_path / "sacrebleu"))
    return spm_model
