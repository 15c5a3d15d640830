"""The version of bleu_impl and of the harness released with it: the one place it is
written (both distributions, ``pyproject.toml`` and ``metric/pyproject.toml``, read it)."""

__all__ = ["VERSION"]

VERSION = "0.1.0"
