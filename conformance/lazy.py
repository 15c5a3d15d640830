"""Public names a package imports on first use (a module ``__getattr__``, PEP 562), so that
importing the package loads none of its submodules."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, modules: Mapping[str, Sequence[str]], public: Sequence[str]
) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each name of ``modules`` (submodule -> names)
    imported from its submodule when first asked; ``public`` (``__all__``) must list them all."""
    where = {name: module for module, names in modules.items() for name in names}
    assert set(where) == set(public), set(where) ^ set(public)

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f".{where[name]}", package), name)

    return __getattr__
