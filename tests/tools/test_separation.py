"""docs/separation.md: every pair of every declared knob, measured, and current."""

from __future__ import annotations

import pytest

from bleu_impl.knobs import KNOBS
from tools import separation


def test_every_declared_knob_and_every_pair_of_its_values_is_a_row():
    text = separation.PATH.read_text(encoding="utf-8")
    rows = [line.split(" | ")[:3] for line in text.splitlines() if line.startswith("| ")][1:]
    want = [[f"| {k}", separation._show(a), separation._show(b)] for k, a, b in separation.pairs()]
    assert rows == want
    assert {k for k, _, _ in separation.pairs()} == {k.name for k in KNOBS if k.name != "spm_model"}


def test_every_pair_no_corpus_separates_has_a_reason():
    assert separation.NO_REASON not in separation.PATH.read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_page_is_what_the_tool_writes_now():
    assert separation.main(["--check"]) == 0
