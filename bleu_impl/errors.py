"""Exceptions raised by bleu_impl."""

from __future__ import annotations

__all__ = ["BleuError", "DependencyError", "EmulatedFailure", "InputError", "KnobError"]


class BleuError(Exception):
    """Base class of every error bleu_impl raises on purpose."""


class KnobError(BleuError, ValueError):
    """A knob name or value is invalid (the message lists the valid ones)."""


class InputError(BleuError, ValueError):
    """The hypotheses/references do not fit the input contract (names the segment); ``kind``:
    the fixtures' error kind where the emulated tools fail too (``missing-reference``)."""

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind


class EmulatedFailure(BleuError):
    """The emulated implementation itself fails on this input (e.g. mteval-v13a.pl dies).

    ``kind`` is a short stable identifier (``empty-hypothesis``, ``empty-reference``,
    ``unsupported``, ``assertion``...) usable as a fixture's ``error:`` expectation.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class DependencyError(BleuError, ImportError):
    """An optional dependency is not installed (the message names the ``pip install`` that
    installs it, e.g. the ``ja`` extra for ``tokenize='ja-mecab'``)."""
