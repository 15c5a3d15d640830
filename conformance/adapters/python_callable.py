"""Adapter for a user's Python function named by an import string ``pkg.module:function``.

The function is called as ``fn(hypotheses, references, **config)``: ``hypotheses`` is a list
of strings (or token lists for tokenized cases), ``references[i]`` the list of references of
hypothesis i, and ``config`` the case's knobs in bleu_impl's vocabulary. It returns a float
or a dict with ``score`` (or ``bleu``) and optionally ``counts``, ``totals``, ``bp``,
``hyp_len``, ``ref_len``. Sentence-level cases are one-segment corpora.

What it can express is read from its signature: with ``**config`` every knob is passed;
otherwise only knobs that are named parameters (cases setting any other knob are skipped).
Optional function attributes refine this: ``bleu_scale`` (1 or 100), ``bleu_precision``
(printed decimals), ``bleu_levels``, ``bleu_inputs``, ``bleu_version``, ``bleu_expect``,
``bleu_native`` (a bleu_impl profile), ``bleu_native_knobs``, ``bleu_arithmetic``
(``float64``/``float32``), ``bleu_timeout``; each is checked (:mod:`.declared`), and an
unknown ``bleu_*`` attribute is an error (a misspelling would otherwise be ignored).

The function is called directly: :func:`~conformance.adapters.make_adapter` runs this
adapter in a worker process (:mod:`.worker`), which is what stops a hang or a crash.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..protocol import AdapterError, Answer, Request, read_answer
from .base import Adapter, Capabilities
from .declared import FIELDS, read_declaration, unknown_fields
from .pyerrors import failure_from, message_of

_IMPORT_STRING = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


def load_callable(spec: str) -> Callable[..., Any]:
    """Import ``pkg.module:function`` (attribute paths like ``mod:Class.method`` work)."""
    if not _IMPORT_STRING.match(spec):
        raise AdapterError(
            "config",
            f"{spec!r} is not an import string: expected 'package.module:function', "
            "e.g. 'mypkg.metrics:bleu'",
        )
    module_name, _, attr_path = spec.partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m`: modules next to you import
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise AdapterError(
            "config",
            f"cannot import module {module_name!r} for {spec!r}: {exc}. Is it installed in "
            "this environment, or on PYTHONPATH (run from the directory that contains it)?",
        ) from exc
    for part in attr_path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            names = ", ".join(n for n in dir(target) if not n.startswith("_"))[:300]
            raise AdapterError(
                "config", f"{module_name!r} has no attribute {attr_path!r} (it has: {names})"
            ) from None
    if not callable(target):
        raise AdapterError("config", f"{spec!r} is a {type(target).__name__}, not a callable")
    fn: Callable[..., Any] = target
    return fn


def _accepted_knobs(fn: Callable[..., Any]) -> dict[str, None] | None:
    """``None`` when ``fn`` takes ``**config``; else the knob parameters it names."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < 2 and not any(p.kind is p.VAR_POSITIONAL for p in params):
        raise AdapterError(
            "config",
            f"{getattr(fn, '__qualname__', fn)!r} must take (hypotheses, references, **config); "
            f"its signature is {inspect.signature(fn)}",
        )
    return {p.name: None for p in list(params)[2:] if p.kind is not p.POSITIONAL_ONLY}


#: Other names of an answer's fields (those of sacrebleu's and NLTK's results).
_ALIASES = {
    "bleu": "score",
    "brevity_penalty": "bp",
    "sys_len": "hyp_len",
    "translation_length": "hyp_len",
    "reference_length": "ref_len",
}


def answer_from(value: Any) -> Answer:
    """Read a number, or a mapping of the protocol's answer fields (or their
    :data:`_ALIASES`), returned by a user's function: :func:`read_answer`."""
    if not isinstance(value, Mapping):
        return read_answer({"score": value})
    given = {k: v for k, v in value.items() if v is not None}
    fields = {_ALIASES[k]: v for k, v in given.items() if k in _ALIASES}
    fields.update((k, v) for k, v in given.items() if k not in _ALIASES)
    return read_answer(fields)


class PythonCallableAdapter(Adapter):
    """Call a user's ``(hypotheses, references, **config) -> float | dict`` function."""

    def __init__(
        self, fn: Callable[..., Any] | str, *, name: str | None = None, **overrides: Any
    ) -> None:
        spec = fn if isinstance(fn, str) else None
        self._fn = load_callable(fn) if isinstance(fn, str) else fn
        label = spec or f"{getattr(self._fn, '__module__', '')}:{_qualname(self._fn)}"
        attributes = _attributes(self._fn, label)
        fields = {
            **read_declaration(attributes, label, prefix="bleu_"),
            **read_declaration({k: v for k, v in overrides.items() if v is not None}, label),
        }
        if name is not None:
            fields["name"] = name
        expect = fields.pop("expect", ())
        module = getattr(self._fn, "__module__", "") or ""
        fields.setdefault("version", _module_version(module))
        self.capabilities = Capabilities(
            **{"name": label, **fields},
            knobs=_accepted_knobs(self._fn),
            expect=expect,
        )

    def run(self, request: Request) -> Answer:
        hyps = [h if isinstance(h, str) else list(h) for h in request.hypotheses]
        refs = [
            [r if r is None or isinstance(r, str) else list(r) for r in rs]
            for rs in request.references
        ]
        config = request.config_for(self.capabilities.knobs)
        try:
            value = self._fn(hyps, refs, **config)
        except Exception as exc:
            return Answer(failure=failure_from(exc))
        except (SystemExit, KeyboardInterrupt):
            raise  # the worker reports these as a crash of the implementation
        except BaseException as exc:  # GeneratorExit, a BaseException of its own
            raise AdapterError(
                "crash", f"the implementation raised {type(exc).__name__}: {message_of(exc)}"
            ) from None
        try:
            return answer_from(value)
        except AdapterError:
            raise
        except Exception as exc:  # its own Mapping whose get() raises: the answer's fault
            raise AdapterError(
                "garbage",
                f"its answer (a {type(value).__name__}) cannot be read: "
                f"{type(exc).__name__}: {message_of(exc)}",
            ) from None


#: Attributes a function may carry (``bleu_scale``...): every declared field but its knobs
#: (read from the signature) and name (the import string).
_ATTRS = tuple(f for f in FIELDS if f not in ("knobs", "name"))


def _qualname(fn: Any) -> str:
    return str(getattr(fn, "__qualname__", type(fn).__name__))


def _attributes(fn: Any, label: str) -> dict[str, Any]:
    """The ``bleu_*`` attributes of ``fn``; an unknown one is an error."""
    try:
        own = [a for a in vars(fn) if a.startswith("bleu_")]
    except TypeError:  # no __dict__ (a builtin, a slotted object)
        own = []
    known = [f"bleu_{f}" for f in _ATTRS]
    unknown_fields(own, known, f"{label}: attribute", "config")
    # an attribute set to None is "not declared", like a missing one
    found = {f: getattr(fn, f"bleu_{f}", None) for f in _ATTRS}
    return {f: v for f, v in found.items() if v is not None}


def _module_version(module: str) -> str:
    top = module.split(".")[0]
    try:
        from importlib.metadata import version

        return version(top)
    except Exception:
        mod = sys.modules.get(top)
        return str(getattr(mod, "__version__", "unknown"))
