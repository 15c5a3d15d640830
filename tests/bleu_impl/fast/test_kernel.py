"""The compiled counting kernel (bleu_impl/fast/_kernel.c) against the reference path's
clipped matches (``bleu_impl.ngrams.clipped_matches``): every segment, every order, equal.

The rest of the suite scores every knob through the kernel where it is built; run with
``BLEU_IMPL_NO_KERNEL=1`` (as ``.ci/run`` does for tests/bleu_impl) it goes through numpy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_impl import corpus_bleu
from bleu_impl.fast import count
from bleu_impl.fast.kernel import counting_path, kernel_counts
from bleu_impl.ngrams import clipped_matches

DISABLED = os.environ.get("BLEU_IMPL_NO_KERNEL", "") not in ("", "0")
needs_kernel = pytest.mark.skipif(DISABLED, reason="BLEU_IMPL_NO_KERNEL is set")

#: Tokens of every str storage width (Latin-1, UCS-2, UCS-4), prefixes of each other, and
#: equal strings built apart (different objects).
TOKENS = ["a", "ab", "abc", "é", "éa", "猫", "猫猫", "😀", "a😀", "", " ", "ab"[:1] + "c"]
sentences = st.lists(st.sampled_from(TOKENS), max_size=12)
segments = st.tuples(sentences, st.lists(sentences, max_size=4))


@pytest.mark.skipif(DISABLED or shutil.which("cc") is None, reason="disabled or no compiler")
def test_the_kernel_is_built_where_a_compiler_is() -> None:
    assert counting_path() == "the compiled kernel"


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(st.lists(segments, max_size=8), st.integers(1, 9))
def test_kernel_counts_are_the_clipped_matches(chunk, order: int) -> None:
    toks = [list(s) for hyp, refs in chunk for s in (hyp, *refs)]
    ks = [len(refs) for _, refs in chunk]
    counted = kernel_counts(toks, ks, order)
    assert counted is not None
    want = [[clipped_matches(h, r, n)[0] for n in range(1, order + 1)] for h, r in chunk]
    assert counted.tolist() == want


@needs_kernel
def test_a_segment_of_many_distinct_tokens() -> None:
    """Ids past what the numpy path's packed keys hold (it counts such a segment apart)."""
    hyp = [f"w{i % 5000}" for i in range(20000)]
    refs = [hyp[::-1], hyp[1000:] + hyp[:1000]]
    counted = kernel_counts([hyp, *refs], [2], 9)
    assert counted is not None
    assert counted.tolist() == [[clipped_matches(hyp, refs, n)[0] for n in range(1, 10)]]


def test_tokens_that_are_not_str_go_to_numpy() -> None:
    assert kernel_counts([[1, 2], [1]], [1], 2) is None


def test_scores_equal_with_and_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """One corpus, the kernel's score and numpy's: the same float, bit for bit."""
    hyps = ["the cat sat on the mat .", "a dog , a dog !", ""] * 40
    refs = [["the cat is on the mat .", "there is a cat"], ["a dog barks", "dogs !"], ["x", ""]]
    refs *= 40
    ours = corpus_bleu(hyps, refs, profile="sacrebleu")
    monkeypatch.setattr(count, "kernel_counts", lambda *_: None)
    assert corpus_bleu(hyps, refs, profile="sacrebleu") == ours


def test_score_verbose_says_what_counted(tmp_path) -> None:
    """``score --verbose`` ends with the counting path (kernel or numpy, and why)."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat\n", encoding="utf-8")
    ref.write_text("the cat sat down\n", encoding="utf-8")
    shown = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "score",
            "-r",
            ref,
            "-i",
            hyp,
            "-f",
            "text",
            "--verbose",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert shown.endswith(f"counted by: the fast path, with {counting_path()}\n")
