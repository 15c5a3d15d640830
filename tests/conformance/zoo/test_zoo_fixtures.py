"""Every zoo profile reproduces the outputs recorded from its real tool, and the live
libraries still give the recorded outputs (a new release that moves a number fails here)."""

from __future__ import annotations

import importlib.util

import pytest

from conformance.cli import main

PROFILE_KEYS = [
    ("coco", "zoo.live"),
    ("ignite", "zoo.live"),
    ("ignite-micro", "zoo.live"),
    ("ignite-smooth1", "zoo.live"),
    ("ignite-nltk-smooth2", "zoo.live"),
    ("ignite-smooth2", "zoo.live"),
    ("torcheval", "zoo.live"),
    ("fast-bleu", "zoo.live"),
    ("codexglue", "zoo.live"),
    ("torchtext", "torchtext.test"),
    ("keras-hub", "keras-hub.test"),
    ("allennlp", "allennlp.test"),
]


@pytest.mark.parametrize(("key", "selection"), PROFILE_KEYS)
def test_profile_reproduces_the_recorded_tool(key: str, selection: str, capsys) -> None:
    assert main(["run", "--impl", f"bleu_impl:{key}", "-k", selection, "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"pass"' in out


LIBRARIES = [
    ("coco", "pycocoevalcap"),
    ("ignite", "ignite"),
    ("torcheval", "torcheval"),
    ("fast-bleu", "fast_bleu"),
]


@pytest.mark.parametrize(("spec", "module"), LIBRARIES)
def test_live_library_still_gives_the_recorded_outputs(spec: str, module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed")
    assert main(["run", "--impl", spec, "-k", "zoo.live"]) == 0
