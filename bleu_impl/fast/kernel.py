"""The compiled counting kernel (``_kernel.c``), where ``pip install`` could build it.

It counts token lists (:func:`kernel_counts`) or tokenized texts it splits on whitespace
itself (:func:`kernel_text_counts`: no ``str`` per token). Built by ``setup.py`` as an
optional extension: without a C compiler the install goes on and
:func:`kernel_counts` returns None, so :mod:`~bleu_impl.fast.count` counts with numpy. The
environment variable ``BLEU_IMPL_NO_KERNEL=1`` disables it (the tests run both ways).
"""

from __future__ import annotations

import os
from types import ModuleType

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "KERNEL_SPLITS",
    "counting_path",
    "has_kernel",
    "kernel_counts",
    "kernel_segment_counts",
    "kernel_text_counts",
]

#: The ``split`` knob values the kernel splits raw texts by, and its code for each.
KERNEL_SPLITS = {"python": 0, "perl-unicode": 1, "perl-bytes": 2}


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("BLEU_IMPL_NO_KERNEL", "") not in ("", "0"):
        return None, "numpy (the compiled kernel is disabled by BLEU_IMPL_NO_KERNEL)"
    try:
        from . import _kernel  # type: ignore[attr-defined]
    except ImportError:
        return None, "numpy (the compiled kernel is not built: no C compiler at install)"
    return _kernel, "the compiled kernel"


_KERNEL, _PATH = _load()


def counting_path() -> str:
    """What counts the fast path's n-grams here: the compiled kernel or numpy, and why."""
    return _PATH


def kernel_counts(toks: list[list[str]], ks: list[int], order: int) -> NDArray[np.int64] | None:
    """Clipped matches (segments x orders) of a chunk laid out as
    :class:`~bleu_impl.fast.tokens.ChunkTokens`, by the kernel; None without it, or when a
    token is not a ``str`` or a segment is too long for its int32 ids (numpy counts then)."""
    if _KERNEL is None:
        return None
    try:
        raw = _KERNEL.clipped_counts(toks, ks, order)
    except (TypeError, OverflowError):
        return None
    return np.frombuffer(raw, dtype=np.int64).reshape(len(ks), order)


def kernel_text_counts(
    texts: list[str], ks: list[int], order: int, split: str, *, tokenize_13a: bool = False
) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """Clipped matches (segments x orders) and token counts (per text) of texts in the
    layout of :class:`~bleu_impl.fast.tokens.ChunkTokens`, each split on whitespace by the
    ``split`` knob's rule (:data:`KERNEL_SPLITS`), after 13a (``tokenize_13a``: the texts
    are raw lines); None without the kernel or when a segment is too long for its int32 ids."""
    if _KERNEL is None or split not in KERNEL_SPLITS:
        return None
    try:
        raw, lens = _KERNEL.text_counts(texts, ks, order, KERNEL_SPLITS[split], tokenize_13a)
    except OverflowError:
        return None
    counts = np.frombuffer(raw, dtype=np.int64).reshape(len(ks), order)
    return counts, np.frombuffer(lens, dtype=np.int64)


def kernel_segment_counts(
    texts: list[str], order: int, split: str, *, tokenize_13a: bool = False
) -> tuple[tuple[int, ...], list[int]] | None:
    """:func:`kernel_text_counts` of one segment (``texts``: its hypothesis, then its
    references) as Python ints, without numpy's fixed costs (one ``sentence_bleu`` call)."""
    if _KERNEL is None or split not in KERNEL_SPLITS:
        return None
    try:
        raw, lens = _KERNEL.text_counts(
            texts, [len(texts) - 1], order, KERNEL_SPLITS[split], tokenize_13a
        )
    except OverflowError:
        return None
    return tuple(memoryview(raw).cast("q")), memoryview(lens).cast("q").tolist()


def has_kernel() -> bool:
    """Whether the compiled kernel counts here."""
    return _KERNEL is not None
