"""No import circles: the modules of bleu_impl and conformance, linked by every import in
their source (imports inside functions included), form no strongly connected component."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bleu_impl", "conformance")


def _modules() -> dict[str, Path]:
    found = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _owners(name: str) -> set[str]:
    """The packages whose ``__init__`` runs before ``name``."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))} & set(MODULES)


def _imported(name: str, path: Path) -> Iterator[str]:
    """The modules of ours that ``name`` imports (``from . import x`` names module ``x``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = (
                (f"{base}.{node.module}" if node.module else base) if node.level else node.module
            )
            targets = [f"{module}.{alias.name}" for alias in node.names]
            yield from (t if t in MODULES else str(module) for t in targets)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def graph() -> dict[str, set[str]]:
    """Module -> the modules importing it runs first. Importing ``a.b.c`` runs ``a`` and
    ``a.b`` too; a module's own packages are left out, since their ``__init__`` runs before
    it (a package re-exporting its modules is no circle)."""
    edges = {}
    for name, path in MODULES.items():
        found = set()
        for module in _imported(name, path):
            while module and module not in MODULES:
                module = module.rpartition(".")[0]  # a name inside a module of ours, or not ours
            if module:
                found |= {module, *_owners(module)}
        edges[name] = found - _owners(name) - {name}
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for step in sorted(edges[node]):
            if step not in index:
                visit(step)
                low[node] = min(low[node], low[step])
            elif step in stack:
                low[node] = min(low[node], index[step])
        if low[node] == index[node]:
            component = stack[stack.index(node) :]
            del stack[stack.index(node) :]
            if len(component) > 1:
                found.append(sorted(component))

    for node in edges:
        if node not in index:
            visit(node)
    return found


def test_circles_are_found() -> None:
    """The check finds a circle of three and leaves a chain and a self-import alone."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert circles(edges) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_lazy_imports_are_edges() -> None:
    edges = graph()
    assert "conformance.reporters.junit" in edges["conformance.commands.logged"]  # in emit()
    assert "conformance.reporters.run_text" in edges["conformance.reporters.run_html"]


def test_no_import_circles() -> None:
    assert circles(graph()) == []
