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
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_impl import corpus_bleu, get_profile
from bleu_impl.bulk import counted_by
from bleu_impl.fast import count
from bleu_impl.fast.kernel import (
    KERNEL_SPLITS,
    counting_path,
    kernel_counts,
    kernel_text_counts,
)
from bleu_impl.ngrams import clipped_matches
from bleu_impl.tokenizers.tok13a import tokenize_13a
from bleu_impl.tokenizers.whitespace import SPLITTERS

DISABLED = os.environ.get("BLEU_IMPL_NO_KERNEL", "") not in ("", "0")
needs_kernel = pytest.mark.skipif(DISABLED, reason="BLEU_IMPL_NO_KERNEL is set")

#: Tokens of every str storage width (Latin-1, UCS-2, UCS-4), prefixes of each other, and
#: equal strings built apart (different objects).
TOKENS = ["a", "ab", "abc", "é", "éa", "猫", "猫猫", "😀", "a😀", "", " ", "ab"[:1] + "c"]
sentences = st.lists(st.sampled_from(TOKENS), max_size=12)
segments = st.tuples(sentences, st.lists(sentences, max_size=4))


#: Text pieces: tokens of every width and separators each splitter treats its own way
#: (ASCII, U+001C-U+001F, NO-BREAK SPACE, NEXT LINE, IDEOGRAPHIC SPACE).
PIECES = [*TOKENS, " ", "\t", "\n", "\x1c", "\x1f", "\xa0", "\x85", "\u3000", "  "]
texts = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)
text_segments = st.tuples(texts, st.lists(texts, max_size=4))


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
@settings(max_examples=300, deadline=None)
@given(
    st.lists(text_segments, max_size=8), st.integers(1, 6), st.sampled_from(sorted(KERNEL_SPLITS))
)
def test_kernel_text_counts_are_the_splitters_clipped_matches(
    chunk, order: int, split: str
) -> None:
    """Texts split by the kernel: the token counts and clipped matches of the reference
    splitter's tokens (bleu_impl.tokenizers.whitespace), every storage width mixed."""
    lines = [t for hyp, refs in chunk for t in (hyp, *refs)]
    counted = kernel_text_counts(lines, [len(refs) for _, refs in chunk], order, split)
    assert counted is not None
    splitter = SPLITTERS[split]
    want = [
        [clipped_matches(splitter(h), [splitter(r) for r in rs], n)[0] for n in range(1, order + 1)]
        for h, rs in chunk
    ]
    assert counted[0].tolist() == want
    assert counted[1].tolist() == [len(splitter(t)) for t in lines]


#: 13a's special pieces: entities, <skipped>, line joins, digits around . , -, every width.
PIECES_13A = ["a", "Z", "0", "9", ".", ",", "-", "&", ";", "<", ">", "\n", " ", "é", "猫", "😀"]
PIECES_13A += ["&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n", "1.5", "..", "/", "~"]


@needs_kernel
@settings(max_examples=1000, deadline=None)
@given(st.lists(st.lists(st.sampled_from(PIECES_13A), max_size=14).map("".join), min_size=2))
def test_kernel_13a_counts_the_tokens_of_tokenize_13a(lines: list[str]) -> None:
    """Raw lines tokenized by the kernel's 13a: every line's token count and every clipped
    match of the reference ``tokenize_13a``'s tokens (each line against all the others)."""
    ks = [len(lines) - 1]
    counted = kernel_text_counts(lines, ks, 4, "python", tokenize_13a=True)
    assert counted is not None
    tokens = [tokenize_13a(line).split() for line in lines]
    want = [clipped_matches(tokens[0], tokens[1:], n)[0] for n in range(1, 5)]
    assert counted[0].tolist() == [want]
    assert counted[1].tolist() == list(map(len, tokens))


def test_a_split_the_kernel_does_not_know_is_declined() -> None:
    assert kernel_text_counts(["a b"], [0], 2, "strip-space") is None


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
    monkeypatch.setattr(count, "kernel_text_counts", lambda *_, **__: None)
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
    assert shown.endswith(f"counted by: {counted_by(get_profile('sacrebleu').resolve({}))}\n")
    kernel = "the compiled kernel tokenizing (13a), splitting and counting"
    assert shown.endswith(f"with {kernel}\n" if not DISABLED else f"{counting_path()}\n")


@pytest.mark.parametrize(
    ("knobs", "shown"),
    [
        ({"tokenize": "none"}, "splitting and counting Python's tokenized text"),
        ({"split": "strip-space"}, "counting Python's tokens (it does not split"),
        (
            {"lowercase": "unicode", "lowercase_stage": "after-tokenize"},
            "lowercased after the split",
        ),
        (
            {"tokenize": "13a", "lowercase": "unicode", "lowercase_stage": "after-entities"},
            "tokenized text",
        ),
    ],
)
def test_verbose_says_what_the_kernel_takes(knobs, shown: str) -> None:
    """A knob the kernel does not take falls back, and ``counted_by`` says why."""
    said = counted_by(replace(get_profile("sacrebleu").resolve({}), **knobs))
    assert shown in said if not DISABLED else said.endswith(counting_path())
