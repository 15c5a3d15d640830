"""Optional dependencies of the tokenizers, imported on first use with an error that says
which ``pip install`` provides them."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import DependencyError

__all__ = ["require"]


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module``, or raise :class:`DependencyError` naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise DependencyError(
            f"{purpose} needs the Python module {module!r}, which is not installed ({exc}): "
            f"pip install 'bleu-conformance[{extra}]'"
        ) from exc
