"""Turn an ``--impl`` spec into an adapter.

Specs, tried in this order:

* ``bleu_impl`` or ``bleu_impl:NAME`` - the built-in exact BLEU; NAME is a profile
  (``bleu_impl:nltk``) or an expectation key of ``fixtures/implementations.yaml``
  (``bleu_impl:mteval-v13a-c``: that key's profile, checked against that key).
* ``nltk``, ``sacrebleu``, ``torchmetrics``, ``coco`` (pycocoevalcap), ``ignite``
  (pytorch-ignite), ``torcheval``, ``fast-bleu`` - the live libraries (:mod:`.libraries`);
  ``nltk==3.2.5`` (any of them ``==`` a release) - that release, in its own cached
  environment (:mod:`.releases`).
* ``jsonl:COMMAND`` - a long-running program speaking ``docs/protocol.md``.
* ``cmd:TEMPLATE`` - a one-shot command (prefer an adapter file to declare scale and regex).
* ``FILE.yaml`` / ``FILE.json`` - an adapter file (``kind: command | jsonl | python``...).
* ``NAME`` or ``NAME:ARG`` - an adapter registered by a package under the entry-point group
  ``bleu_conformance.adapters`` (a factory called with ARG or no argument).
* ``package.module:function`` (or ``python:package.module:function``) - a Python callable.

Python code under test (a callable, a live library, an entry point's adapter) runs in a
worker process (:mod:`.worker`); bleu_impl, this project's own code, runs in process.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bounded import read_bounded
from ..protocol import AdapterError, SpecError
from .base import Adapter
from .declared import FIELDS, unknown_fields
from .libraries import LIBRARIES, LibraryAdapter
from .releases import pinned
from .worker import WorkerAdapter

if TYPE_CHECKING:
    from ..cases import ExpectationKey

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "entry_point_adapter",
    "load_adapter_file",
    "make_adapter",
]

ENTRY_POINT_GROUP = "bleu_conformance.adapters"

BUILTIN = ("bleu_impl", *LIBRARIES)


def _bleu_impl(arg: str | None, keys: Mapping[str, ExpectationKey]) -> Adapter:
    from bleu_impl import PROFILES

    from .bleu_impl_adapter import BleuImplAdapter

    name = arg or "papineni2002"
    if name in PROFILES:  # checked against every key this profile claims to reproduce as is
        claimed = [k for k, key in keys.items() if key.profile == name and not key.knobs]
        return BleuImplAdapter(name, expect=tuple(dict.fromkeys([*claimed, name])))
    key = keys.get(name)
    if key is not None and key.profile:
        return BleuImplAdapter(
            key.profile, knobs=key.knobs, expect=(name,), name=f"bleu_impl:{name}"
        )
    raise SpecError(
        f"bleu_impl:{name}: not a profile ({', '.join(PROFILES)}) nor an expectation key "
        "with a profile in fixtures/implementations.yaml",
    )


def _library(name: str) -> Adapter:
    """A live library, in a worker process (its import happens there); a pinned release
    in its own environment's."""
    if "==" in name:
        return pinned(name)
    install = LIBRARIES[name].install or LIBRARIES[name].distribution
    try:
        return WorkerAdapter(partial(LibraryAdapter, name))
    except AdapterError as exc:
        if "ModuleNotFoundError" in exc.message or "ImportError" in exc.message:
            raise SpecError(
                f"{name} is not importable here ({exc.message}); pip install {install}"
            ) from None
        raise


def entry_point_adapter(name: str, arg: str | None) -> Adapter:
    """The adapter the entry point ``name`` makes (called with ``arg`` when given)."""
    factory = _entry_point(name)
    assert factory is not None
    adapter = factory(arg) if arg is not None else factory()
    if not isinstance(adapter, Adapter):
        raise AdapterError(
            "config", f"entry point {name!r} returned {type(adapter).__name__}, not an Adapter"
        )
    return adapter


def _entry_point(name: str) -> Callable[..., Adapter] | None:
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            try:
                factory: Callable[..., Adapter] = ep.load()
            except Exception as exc:
                raise AdapterError(
                    "config", f"adapter entry point {name!r} ({ep.value}) failed to load: {exc}"
                ) from exc
            return factory
    return None


#: The keys of an adapter file per kind (besides ``kind``); the first is required.
_FILE_KEYS: dict[str, tuple[str, ...]] = {
    "command": (
        "template",
        *(f for f in FIELDS if f not in ("inputs",)),
        "regex",
        "stdin",
        "flags",
        "cwd",
    ),
    "jsonl": ("command", "timeout", "startup_timeout", "expect", "cwd", "env"),
    "python": ("callable", *(f for f in FIELDS if f != "knobs")),
}


def _read_adapter_file(path: Path) -> dict[str, Any]:
    """The file's mapping, read like a fixture file (:func:`read_yaml`): a duplicate key
    (which PyYAML would silently settle, last one wins), an alias bomb or deep nesting is an
    error naming the line."""
    from ..cases.yamlnodes import read_yaml  # YAML: for an adapter file only

    try:
        doc = read_yaml(read_bounded(path).decode("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"{path}: cannot read adapter file: {exc}") from None
    if doc.errors:
        line, rule, message = doc.errors[0]
        raise SpecError(f"{path}:{line}: {rule}: {message}")
    data = doc.data
    if not isinstance(data, dict) or "kind" not in data:
        raise SpecError(f"{path}: an adapter file is a mapping with a 'kind'")
    kind = data["kind"]
    if kind not in _FILE_KEYS:
        raise SpecError(f"{path}: unknown adapter kind {kind!r} ({', '.join(_FILE_KEYS)})")
    keys = _FILE_KEYS[kind]
    unknown_fields([k for k in data if k != "kind"], keys, f"{path} (kind {kind})", "config")
    if keys[0] not in data:
        raise SpecError(f"{path}: kind {kind} needs {keys[0]!r}")
    return data


def load_adapter_file(path: Path) -> Adapter:
    """An adapter described by a YAML/JSON file (see docs/runner.md, "Adapter files").
    Unknown or misspelled keys, and values of the wrong type, are errors."""
    data = _read_adapter_file(path)
    kind = data.pop("kind")
    base = str(path.parent.resolve())
    where = f"{path}"
    if kind == "command":
        from .command import MULTI_BLEU_REGEX, CommandAdapter

        if data.get("regex") == "multi-bleu":
            data["regex"] = MULTI_BLEU_REGEX
        data.setdefault("cwd", base)
        return CommandAdapter(data.pop("template"), where=where, **data)
    if kind == "jsonl":
        from .jsonl import JsonlAdapter

        data.setdefault("cwd", base)
        return JsonlAdapter(data.pop("command"), where=where, **data)
    return _python(data.pop("callable"), where=where, **data)


def _python(spec: Any, **options: Any) -> Adapter:
    """A user's function (import string) in a worker process."""
    from .python_callable import PythonCallableAdapter

    where = options.pop("where", "")
    if not isinstance(spec, str):
        raise SpecError(f"{where}: callable must be an import string 'pkg.mod:fn'")
    return WorkerAdapter(partial(PythonCallableAdapter, spec, **options))


def make_adapter(spec: str, keys: Mapping[str, ExpectationKey] | None = None) -> Adapter:
    """The adapter for ``spec`` (see the module docstring); ``keys`` are the expectation keys
    of the fixture library (for ``bleu_impl:KEY``). AdapterError explains failures."""
    head, sep, rest = spec.partition(":")
    if head == "bleu_impl":
        return _bleu_impl(rest or None, keys or {})
    if spec.partition("==")[0] in LIBRARIES:
        return _library(spec)
    if head == "jsonl" and rest:
        from .jsonl import JsonlAdapter

        return JsonlAdapter(rest)
    if head == "cmd" and rest:
        from .command import CommandAdapter

        return CommandAdapter(rest)
    path = Path(spec)
    file_like = path.suffix in (".yaml", ".yml", ".json")
    if file_like and path.is_file():
        return load_adapter_file(path)
    if file_like and not sep and path.exists():  # a folder, a pipe: never opened
        raise SpecError(f"adapter file {spec}: not a regular file")
    from importlib.metadata import entry_points  # ~50 ms: for a spec no other form takes

    if any(ep.name == head for ep in entry_points(group=ENTRY_POINT_GROUP)):
        return WorkerAdapter(partial(entry_point_adapter, head, rest if sep else None))
    if head == "python":
        return _python(rest)
    if sep:
        return _python(spec)
    raise SpecError(
        f"unknown implementation {spec!r}: use one of {', '.join(BUILTIN)}, bleu_impl:PROFILE, "
        "package.module:function, jsonl:COMMAND, cmd:TEMPLATE, an adapter file, or an adapter "
        f"registered under the entry-point group {ENTRY_POINT_GROUP!r}",
    )
