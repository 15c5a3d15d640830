"""Turn an ``--impl`` spec into an adapter.

Specs, tried in this order:

* ``bleu_impl`` or ``bleu_impl:NAME`` - the built-in exact BLEU; NAME is a profile
  (``bleu_impl:nltk``) or an expectation key of ``fixtures/implementations.yaml``
  (``bleu_impl:mteval-v13a-c``: that key's profile, checked against that key).
* ``nltk``, ``sacrebleu``, ``torchmetrics``, ``coco`` (pycocoevalcap), ``ignite``
  (pytorch-ignite), ``torcheval``, ``fast-bleu`` - the live libraries (``LIBRARIES``).
* ``jsonl:COMMAND`` - a long-running program speaking ``docs/protocol.md``.
* ``cmd:TEMPLATE`` - a one-shot command (prefer an adapter file to declare scale and regex).
* ``FILE.yaml`` / ``FILE.json`` - an adapter file (``kind: command | jsonl | python``...).
* ``NAME`` or ``NAME:ARG`` - an adapter registered by a package under the entry-point group
  ``bleu_conformance.adapters`` (a factory called with ARG or no argument).
* ``package.module:function`` (or ``python:package.module:function``) - a Python callable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from ..protocol import AdapterError
from .base import Adapter

if TYPE_CHECKING:
    from ..cases import ExpectationKey

__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "LIBRARIES", "load_adapter_file", "make_adapter"]

ENTRY_POINT_GROUP = "bleu_conformance.adapters"

#: Live library spec -> (adapter module, class, what to install). torchtext is absent: its
#: last wheel (0.18) does not load with torch 2.13 (its C++ extension is built against torch
#: 2.3), so its profile rests on its own test suite's numbers.
LIBRARIES: Mapping[str, tuple[str, str, str]] = {
    "nltk": ("nltk_adapter", "NltkAdapter", "nltk"),
    "sacrebleu": ("sacrebleu_adapter", "SacrebleuAdapter", "sacrebleu"),
    "torchmetrics": ("torchmetrics_adapter", "TorchmetricsAdapter", "torchmetrics"),
    "coco": ("coco_adapter", "CocoAdapter", "'bleu-conformance[coco]' (pycocoevalcap)"),
    "ignite": ("ignite_adapter", "IgniteAdapter", "'bleu-conformance[ignite]'"),
    "torcheval": ("torcheval_adapter", "TorchevalAdapter", "'bleu-conformance[torcheval]'"),
    "fast-bleu": ("fastbleu_adapter", "FastBleuAdapter", "'bleu-conformance[fastbleu]'"),
}
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
    raise AdapterError(
        "config",
        f"bleu_impl:{name}: not a profile ({', '.join(PROFILES)}) nor an expectation key "
        "with a profile in fixtures/implementations.yaml",
    )


def _library(name: str) -> Adapter:
    module_name, class_name, install = LIBRARIES[name]
    try:
        module = import_module(f"{__package__}.{module_name}")
        adapter: Adapter = getattr(module, class_name)()
    except ImportError as exc:
        raise AdapterError(
            "config", f"{name} is not importable here ({exc}); pip install {install}"
        ) from None
    return adapter


def _entry_point(name: str) -> Callable[..., Adapter] | None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            try:
                return ep.load()
            except Exception as exc:
                raise AdapterError(
                    "config", f"adapter entry point {name!r} ({ep.value}) failed to load: {exc}"
                ) from exc
    return None


def load_adapter_file(path: Path) -> Adapter:
    """An adapter described by a YAML/JSON file (see docs/runner.md, "Adapter files")."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise AdapterError("config", f"{path}: cannot read adapter file: {exc}") from None
    if not isinstance(data, dict) or "kind" not in data:
        raise AdapterError("config", f"{path}: an adapter file is a mapping with a 'kind'")
    options = {k: v for k, v in data.items() if k != "kind"}
    kind = data["kind"]
    base = str(path.parent.resolve())
    try:
        if kind == "command":
            from .command import MULTI_BLEU_REGEX, CommandAdapter

            if options.get("regex") == "multi-bleu":
                options["regex"] = MULTI_BLEU_REGEX
            options.setdefault("cwd", base)
            return CommandAdapter(options.pop("template"), **options)
        if kind == "jsonl":
            from .jsonl import JsonlAdapter

            options.setdefault("cwd", base)
            return JsonlAdapter(options.pop("command"), **options)
        if kind == "python":
            from .python_callable import PythonCallableAdapter

            return PythonCallableAdapter(options.pop("callable"), **options)
    except (KeyError, TypeError) as exc:
        raise AdapterError("config", f"{path}: bad adapter file for kind {kind!r}: {exc}") from None
    raise AdapterError("config", f"{path}: unknown adapter kind {kind!r} (command, jsonl, python)")


def make_adapter(spec: str, keys: Mapping[str, ExpectationKey] | None = None) -> Adapter:
    """The adapter for ``spec`` (see the module docstring); ``keys`` are the expectation keys
    of the fixture library (for ``bleu_impl:KEY``). AdapterError explains failures."""
    head, sep, rest = spec.partition(":")
    if head == "bleu_impl":
        return _bleu_impl(rest or None, keys or {})
    if spec in BUILTIN:
        return _library(spec)
    if head == "jsonl" and rest:
        from .jsonl import JsonlAdapter

        return JsonlAdapter(rest)
    if head == "cmd" and rest:
        from .command import CommandAdapter

        return CommandAdapter(rest)
    path = Path(spec)
    if path.suffix in (".yaml", ".yml", ".json") and path.is_file():
        return load_adapter_file(path)
    factory = _entry_point(head)
    if factory is not None:
        adapter = factory(rest) if sep else factory()
        if not isinstance(adapter, Adapter):
            raise AdapterError(
                "config", f"entry point {head!r} returned {type(adapter).__name__}, not an Adapter"
            )
        return adapter
    from .python_callable import PythonCallableAdapter

    if head == "python":
        return PythonCallableAdapter(rest)
    if sep:
        return PythonCallableAdapter(spec)
    raise AdapterError(
        "config",
        f"unknown implementation {spec!r}: use one of {', '.join(BUILTIN)}, bleu_impl:PROFILE, "
        "package.module:function, jsonl:COMMAND, cmd:TEMPLATE, an adapter file, or an adapter "
        f"registered under the entry-point group {ENTRY_POINT_GROUP!r}",
    )
