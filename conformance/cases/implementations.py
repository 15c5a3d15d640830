"""The two vocabularies case files are checked against: implementation keys and tags.

``fixtures/implementations.yaml`` maps each expectation key to the real tool it names and
the bleu_impl profile + knobs meant to reproduce it; ``fixtures/tags.yaml`` lists the tags.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..bounded import read_bounded
from .model import ExpectationKey, Problem
from .yamlnodes import YamlDocument, read_yaml

#: The package the bundled fixture library is installed as: the repository's ``fixtures/``
#: folder (pyproject.toml maps the name to it; an editable install points at the folder).
FIXTURES_PACKAGE = "conformance.fixtures"


def _bundled_root() -> Path:
    """The bundled library's directory, found with :mod:`importlib.resources`."""
    root = files(FIXTURES_PACKAGE)
    if not isinstance(root, Path) or not (root / "implementations.yaml").is_file():
        raise RuntimeError(
            f"the bundled fixture library ({FIXTURES_PACKAGE}) is not a directory on disk "
            f"({root}); reinstall bleu-conformance from a wheel or an editable checkout"
        )
    return root.resolve()


#: The bundled fixture library (``fixtures/`` of the repository, package data when installed).
BUNDLED_ROOT = _bundled_root()
REGISTRY_FILE = "implementations.yaml"
TAGS_FILE = "tags.yaml"
KNOWN_EXCEPTIONS_FILE = "known-exceptions.yaml"
RELEASE_NOTES_FILE = "release-notes.yaml"
SCHEMA_FILE = Path("schema") / "case-file.schema.json"

_IMPL_KEYS: dict[str, type | tuple[type, ...]] = {
    "tool": str,
    "version": str,
    "invocation": str,
    "scale": int,
    "printed_decimals": (int, type(None)),
    "profile": (str, type(None)),
    "knobs": dict,
    "description": str,
}
_IMPL_REQUIRED = ("tool", "version", "invocation", "scale", "printed_decimals", "profile", "knobs")


@dataclass
class Registry:
    """Expectation keys and tags, plus the problems found reading them."""

    keys: dict[str, ExpectationKey] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def _problem(file: Path, line: int, key: str, rule: str, message: str) -> Problem:
    return Problem(str(file), line, key, rule, message)


def _field_problems(spec: dict[str, Any]) -> list[tuple[str, str]]:
    """(rule, message) for unknown, missing and mistyped fields of one key."""
    bad = sorted(set(spec) - set(_IMPL_KEYS))
    missing = [k for k in _IMPL_REQUIRED if k not in spec]
    wrong = [
        k
        for k, t in _IMPL_KEYS.items()
        if k in spec and (not isinstance(spec[k], t) or isinstance(spec[k], bool))
    ]
    return [
        ("registry", f"{what}(s): {', '.join(names)}")
        for names, what in ((bad, "unknown field"), (missing, "missing field"), (wrong, "bad type"))
        if names
    ]


def _value_problems(spec: dict[str, Any]) -> list[tuple[str, str]]:
    """(rule, message) for a bad scale, an unknown profile or knobs that do not resolve."""
    from bleu_impl import PROFILES, BleuError, make_config

    found = []
    if spec["scale"] not in (1, 100):
        found.append(("registry", "scale: 1 or 100"))
    profile = spec["profile"]
    if profile is not None and profile not in PROFILES:
        found.append(("unknown-profile", f"no profile {profile!r}"))
    elif profile is not None:
        try:
            make_config(spec["knobs"])
        except BleuError as exc:
            found.append(("unknown-knob", str(exc)))
    return found


def _read(path: Path, registry: Registry) -> YamlDocument | None:
    """The YAML document of ``path``, or None after recording why it cannot be read."""
    try:
        text = read_bounded(path).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        registry.problems.append(_problem(path, 0, "", "registry", f"cannot read: {exc}"))
        return None
    doc = read_yaml(text)
    for line, rule, message in doc.errors:
        registry.problems.append(_problem(path, line, "", rule, message))
    return doc


def _read_implementations(path: Path, registry: Registry) -> None:
    doc = _read(path, registry)
    if doc is None:
        return
    data: Any = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("implementations"), dict):
        registry.problems.append(
            _problem(path, 1, "", "registry", "expected a mapping 'implementations: {key: ...}'")
        )
        return
    for key, spec in data["implementations"].items():
        line = doc.line_of(("implementations", key))
        if not isinstance(key, str) or not key:
            message = f"an expectation key must be a name, got {key!r}"
            registry.problems.append(_problem(path, line, str(key), "registry", message))
            continue
        if not isinstance(spec, dict):
            registry.problems.append(_problem(path, line, key, "registry", "not a mapping"))
            continue
        field_problems = _field_problems(spec)
        problems = field_problems or _value_problems(spec)
        registry.problems.extend(_problem(path, line, key, r, m) for r, m in problems)
        if field_problems:
            continue
        registry.keys[key] = ExpectationKey(
            key=key,
            tool=spec["tool"],
            version=spec["version"],
            invocation=spec["invocation"],
            scale=spec["scale"],
            printed_decimals=spec["printed_decimals"],
            profile=spec["profile"],
            knobs=spec["knobs"],
            description=spec.get("description", ""),
            line=line,
        )


def _read_tags(path: Path, registry: Registry) -> None:
    doc = _read(path, registry)
    if doc is None:
        return
    data: Any = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("tags"), dict):
        registry.problems.append(_problem(path, 1, "", "registry", "want 'tags: {tag: meaning}'"))
        return
    registry.tags = {str(k): str(v) for k, v in data["tags"].items()}


def load_registry(root: Path | None = None) -> Registry:
    """Read ``implementations.yaml`` and ``tags.yaml`` from ``root`` (default: bundled)."""
    root = BUNDLED_ROOT if root is None else Path(root)
    registry = Registry()
    for name, reader in ((REGISTRY_FILE, _read_implementations), (TAGS_FILE, _read_tags)):
        path = root / name
        try:
            found = path.is_file()
        except OSError as exc:  # the root cannot be listed
            registry.problems.append(
                _problem(path, 0, "", "registry", f"cannot read: {exc.strerror or exc}")
            )
            continue
        if not found:
            registry.problems.append(_problem(path, 0, "", "registry", "file not found"))
            continue
        reader(path, registry)
    return registry
