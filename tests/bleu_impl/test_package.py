"""The package boundary: public names only, numpy only on first use, no dependency but numpy
and regex; the harness uses the public API and documented submodules (no import circle:
tests/test_import_graph.py)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import bleu_impl

ROOT = Path(bleu_impl.__file__).parent
#: The submodules the harness may import from, besides ``bleu_impl`` itself.
DOCUMENTED = (
    "bleu_impl.bulk",
    "bleu_impl.dask_bag",
    "bleu_impl.knobs",
    "bleu_impl.reflength",
    "bleu_impl.resample",
)
_FOUND = [
    info.name
    for info in pkgutil.walk_packages([str(ROOT)], prefix="bleu_impl.")
    if not info.name.endswith("__main__")
]
#: Compiled modules: no source to read, private to the one Python module that wraps each.
COMPILED = {
    name
    for name in _FOUND
    if str(importlib.util.find_spec(name).origin).endswith(tuple(EXTENSION_SUFFIXES))
}
#: bleu_impl's Python modules.
MODULES = sorted(set(_FOUND) - COMPILED)


def _imports(name: str, path: Path | None = None) -> list[tuple[str, str]]:
    """(imported bleu_impl module, imported name or "") of every import in module ``name``
    (at ``path``), function-level imports included."""
    path = path or Path(importlib.import_module(name).__file__ or "")
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
            if f"{module}.{imported}" in COMPILED:
                continue  # a compiled module, imported by its wrapper
            private = [part for part in (*module.split("."), imported) if part.startswith("_")]
            assert not [p for p in private if not p.startswith("__")], (name, module, imported)


def test_importing_bleu_impl_does_not_import_numpy() -> None:
    code = "import sys, bleu_impl; print('numpy' in sys.modules, 'bleu_impl.fast' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_bleu_impl_needs_numpy_and_regex_only() -> None:
    """Every import is bleu_impl's own, the standard library's, numpy's or regex's (the
    optional tokenizer dependencies are imported by name on first use)."""
    found = set()
    for name in MODULES:
        tree = ast.parse(Path(importlib.import_module(name).__file__ or "").read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    assert found - set(sys.stdlib_module_names) == {"numpy", "regex"}


def test_the_harness_imports_the_public_api_only() -> None:
    """conformance/, bench/ and tools/ import ``bleu_impl.__all__`` names, the documented
    submodules, or their ``__all__`` names (the scoring-in-bulk machinery: bleu_impl.bulk)."""
    public = {"bleu_impl": set(bleu_impl.__all__)}
    public |= {m: set(importlib.import_module(m).__all__) for m in DOCUMENTED}
    submodules = {m.rpartition(".")[2] for m in DOCUMENTED}
    wrong = []
    for top in ("conformance", "bench", "tools"):
        for path in sorted((ROOT.parent / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [(a.name, "") for a in node.names if a.name.startswith("bleu_impl.")]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    module = node.module or ""
                    if module.partition(".")[0] != "bleu_impl":
                        continue
                    names = [(module, a.name) for a in node.names]
                else:
                    continue
                for module, name in names:
                    ok = name in public.get(module, ()) or (not name and module in public)
                    if not ok and not (module == "bleu_impl" and name in submodules):
                        wrong.append(f"{path.relative_to(ROOT.parent)}: {module} {name}")
    assert wrong == []
