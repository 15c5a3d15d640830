"""The package boundary: public names only, no import cycle, numpy only on first use."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import bleu_impl

ROOT = Path(bleu_impl.__file__).parent
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages([str(ROOT)], prefix="bleu_impl.")
    if not info.name.endswith("__main__")
)


def _imports(name: str) -> list[tuple[str, str]]:
    """(imported bleu_impl module, imported name or "") of every import in ``name``,
    function-level imports included."""
    path = Path(importlib.import_module(name).__file__ or "")
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = f"{base}.{node.module}" if node.level and node.module else node.module
            module = module or base
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                if submodule in MODULES:
                    found.append((submodule, ""))
                else:
                    found.append((module, alias.name))
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names]
    return [(m, n) for m, n in found if m == "bleu_impl" or m.startswith("bleu_impl.")]


def test_every_module_lists_its_public_names() -> None:
    for name in ["bleu_impl", *MODULES]:
        module = importlib.import_module(name)
        assert hasattr(module, "__all__"), name
        for public in module.__all__:
            assert hasattr(module, public), (name, public)


def test_no_private_name_is_imported_across_modules() -> None:
    for name in MODULES:
        for module, imported in _imports(name):
            private = [part for part in (*module.split("."), imported) if part.startswith("_")]
            assert not [p for p in private if not p.startswith("__")], (name, module, imported)


def test_the_import_graph_has_no_cycle() -> None:
    graph = {name: {m for m, _ in _imports(name) if m != name} for name in MODULES}

    def package_of(module: str) -> set[str]:  # importing a.b.c runs a/__init__ and a/b/__init__
        parts = module.split(".")
        return {".".join(parts[:i]) for i in range(2, len(parts))} & set(MODULES)

    for name in MODULES:
        graph[name] |= {p for m in list(graph[name]) for p in package_of(m)} - {name}
        graph[name] -= {p for p in package_of(name)}  # a package's own __init__ runs first
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, " -> ".join((*path, node))
        if node in done:
            return
        for nxt in graph.get(node, ()):
            visit(nxt, (*path, node))
        done.add(node)

    for name in MODULES:
        visit(name, ())


def test_importing_bleu_impl_does_not_import_numpy() -> None:
    code = "import sys, bleu_impl; print('numpy' in sys.modules, 'bleu_impl.fast' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
