"""One source for the version: bleu_impl/version.py, which both distributions' metadata read
(pyproject.toml, metric/pyproject.toml)."""

from __future__ import annotations

import importlib.metadata

import bleu_impl
from bleu_impl.signature import VERSION


def test_version_is_the_distribution_version_and_ends_every_signature() -> None:
    assert bleu_impl.__version__ == importlib.metadata.version("bleu-conformance")
    assert bleu_impl.__version__ == VERSION
    config = bleu_impl.get_profile("sacrebleu").resolve({})
    assert bleu_impl.signature("sacrebleu", config).endswith(f"|v:{bleu_impl.__version__}")
