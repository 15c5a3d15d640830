"""Choosing a segment's effective reference length (knob ``ref_length``).

The paper sums the "best match length" of each candidate sentence (Papineni et al. 2002,
section 2.2.2); implementations choose it differently, and each rule below names its users.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from .errors import InputError

__all__ = [
    "MULTI_BLEU_MISSING_LENGTH",
    "REF_LENGTH_RULES",
    "RefLength",
    "average",
    "closest",
    "closest_9999",
    "closest_first",
    "reference_length",
    "shortest",
    "single",
]

#: A chosen reference length: an int, or an exact Fraction (``average``).
RefLength = int | Fraction

#: multi-bleu.perl's initial (difference, length) is (9999, 9999): a line without reference
#: adds 9999, and so does one whose references are all 9999+ tokens away (``closest-9999``).
MULTI_BLEU_MISSING_LENGTH = 9999


def closest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """Closest length, ties to the shorter: mteval, multi-bleu, sacrebleu, NLTK >= 3.0.3."""
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


def closest_9999(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """multi-bleu.perl's closest: the (difference, length) pairs of the references and of
    its initial ``(9999, 9999)``, smallest difference first, ties to the shorter length.

    The script replaces its initial pair only by a strictly smaller difference, or an equal
    one with a shorter length, so a reference 10,000+ tokens away (or exactly 9,999 away and
    at least 9,999 long) is never chosen and the segment adds 9999.
    """
    start = (MULTI_BLEU_MISSING_LENGTH, MULTI_BLEU_MISSING_LENGTH)
    return min((start, *((abs(r - hyp_len), r) for r in ref_lens)))[1]


def closest_first(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """Closest length, ties to the first listed reference: torchmetrics, torchtext."""
    return min(ref_lens, key=lambda r: abs(r - hyp_len))


def shortest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The shortest reference: tf/nmt, HF evaluate, mteval ``--brevity-penalty shortest``."""
    return min(ref_lens)


def average(hyp_len: int, ref_lens: Sequence[int]) -> Fraction:
    """The mean reference length, kept exact (pycocoevalcap option)."""
    return Fraction(sum(ref_lens), len(ref_lens))


def single(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The only reference's length; more than one reference is an error (tensor2tensor)."""
    if len(ref_lens) != 1:
        raise InputError(
            f"ref_length='single' needs exactly one reference per segment, got {len(ref_lens)}"
        )
    return ref_lens[0]


#: ``ref_length`` knob value -> rule ``(hypothesis length, reference lengths) -> r_s``.
REF_LENGTH_RULES: dict[str, Callable[[int, Sequence[int]], RefLength]] = {
    "closest": closest,
    "closest-first": closest_first,
    "shortest": shortest,
    "average": average,
    "single": single,
    "closest-9999": closest_9999,
}

#: multi-bleu.perl's initial (diff, length) sentinel, kept for a line without reference.
MULTI_BLEU_MISSING_LENGTH = 9999


def reference_length(rule: str, hyp_len: int, ref_lens: Sequence[int]) -> RefLength:
    """The segment's effective reference length under ``rule`` (a ``ref_length`` knob
    value), from the lengths alone: what ``sentence_stats`` reports as ``ref_len`` without
    counting a single n-gram."""
    if not ref_lens:
        raise InputError("a segment without references has no reference length")
    return REF_LENGTH_RULES[rule](hyp_len, ref_lens)
