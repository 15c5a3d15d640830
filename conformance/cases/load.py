"""Load and check fixture case files, reporting *every* problem with file, line and case id.

:func:`load_fixtures` is the one entry point: it finds the ``implementations.yaml`` that goes
with the files (the nearest at or above the first path; default: the bundled library) and
checks, per file: YAML syntax and duplicate keys, the JSON Schema
(``schema/case-file.schema.json``), then per case the semantic rules of
:mod:`conformance.cases.checks`; across files: duplicate case ids.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bounded import read_bounded
from .checks import check_case, number_problems
from .implementations import (
    BUNDLED_ROOT,
    KNOWN_EXCEPTIONS_FILE,
    REGISTRY_FILE,
    RELEASE_NOTES_FILE,
    SCHEMA_FILE,
    TAGS_FILE,
    Registry,
    load_registry,
)
from .model import Case, Expectation, Input, LoadResult, Problem, Segment, Tolerance
from .parse_cache import recall, remember
from .yamlnodes import YamlDocument, read_yaml

if TYPE_CHECKING:
    import jsonschema

__all__ = [
    "PATH_KNOBS",
    "SKIP_FILES",
    "display_path",
    "iter_case_files",
    "load_fixtures",
    "load_schema",
    "registry_root",
]

SKIP_DIRS = {"schema", "tools", "__pycache__"}
SKIP_FILES = {REGISTRY_FILE, TAGS_FILE, KNOWN_EXCEPTIONS_FILE, RELEASE_NOTES_FILE}


@lru_cache(maxsize=4)
def load_schema(root: Path = BUNDLED_ROOT) -> dict[str, Any]:
    """The published JSON Schema of case files: the root's own, else the bundled one (the
    case file format is this tool's, not the library's). ValueError when unreadable."""
    path = root / SCHEMA_FILE
    try:
        own = path.is_file()
    except OSError:  # an unreadable root: its registry files are reported as problems
        own = False
    if not own:
        path = BUNDLED_ROOT / SCHEMA_FILE
    import jsonschema  # ~0.2 s: only where fixtures are loaded

    try:
        schema = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, UnicodeDecodeError, ValueError, jsonschema.SchemaError) as exc:
        raise ValueError(f"{path}: not a usable JSON Schema: {exc}") from None
    if not isinstance(schema, dict):
        raise ValueError(f"{path}: not a usable JSON Schema: not an object")
    return schema


def iter_case_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    """Expand files and directories (recursively) into case files, sorted per directory,
    each file once (the same file named twice, directly or through a link, is one file).
    A ``.yaml`` entry that is not a readable file (a dangling link, a link loop) is still
    yielded, so reading it reports the problem instead of skipping it."""
    seen: set[str] = set()
    for path in _expanded(paths):
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            yield path


def _expanded(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for sub in sorted(path.rglob("*")):
                rel = sub.relative_to(path).parts
                if any(part in SKIP_DIRS for part in rel[:-1]):
                    continue
                wanted = sub.suffix in (".yaml", ".yml") and sub.name not in SKIP_FILES
                if wanted and not sub.is_dir():
                    yield sub
        else:
            yield path


def _resolved(path: Path) -> Path:
    """``path.resolve()``, or the absolute path when links loop (Python < 3.13 raises
    RuntimeError there, later versions OSError)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def display_path(path: Path) -> str:
    """How a case file is named in reports and node ids: ``fixtures/...`` for the bundled
    library wherever it is installed (so reports do not depend on the install or the current
    directory), else the path relative to the current directory."""
    resolved = _resolved(path)
    if resolved.is_relative_to(BUNDLED_ROOT):
        return "fixtures/" + resolved.relative_to(BUNDLED_ROOT).as_posix()
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


def _tokens_or_text(value: Any) -> str | tuple[str, ...]:
    return value if isinstance(value, str) else tuple(value)


def _tolerance(raw: Any) -> Tolerance:
    if raw is None:
        return Tolerance()
    if isinstance(raw, int | float):
        return Tolerance(abs=float(raw))
    return Tolerance(abs=float(raw.get("abs", 0.0)), rel=float(raw.get("rel", 0.0)))


def build_expectation(key: str, raw: dict[str, Any], scale: int, line: int) -> Expectation:
    """An :class:`Expectation` from its (schema-valid) YAML mapping."""

    def seq(name: str, cast: type) -> tuple[Any, ...] | None:
        return None if raw.get(name) is None else tuple(cast(v) for v in raw[name])

    return Expectation(
        key=key,
        scale=int(raw.get("scale", scale)),
        score=None if raw.get("score") is None else float(raw["score"]),
        printed=raw.get("printed"),
        tolerance=_tolerance(raw.get("tolerance")),
        precisions=seq("precisions", float),
        counts=seq("counts", int),
        totals=seq("totals", int),
        bp=None if raw.get("bp") is None else float(raw["bp"]),
        hyp_len=raw.get("hyp_len"),
        ref_len=raw.get("ref_len"),
        error=raw.get("error"),
        source=raw.get("source"),
        note=raw.get("note", ""),
        line=line,
    )


#: Knobs whose value is a file: a relative path in a case file is relative to that file.
PATH_KNOBS = ("spm_model",)


def _with_paths(config: dict[str, Any], file: str) -> dict[str, Any]:
    """``config`` with relative file paths made relative to the directory of ``file``."""
    found = {k: v for k, v in config.items() if k in PATH_KNOBS and isinstance(v, str)}
    if not found:
        return config
    base = os.path.dirname(os.path.abspath(file))
    return {**config, **{k: os.path.join(base, v) for k, v in found.items()}}


def build_case(
    raw: dict[str, Any], doc: YamlDocument, index: int, file: str, suite: str, registry: Registry
) -> Case:
    """A :class:`Case` from its (schema-valid) YAML mapping."""
    segments = tuple(
        Segment(
            _tokens_or_text(seg["hypothesis"]),
            tuple(None if r is None else _tokens_or_text(r) for r in seg["references"]),
        )
        for seg in raw["input"]["segments"]
    )
    expected = {}
    for key, spec in raw["expected"].items():
        impl = registry.keys.get(key)
        scale = impl.scale if impl is not None else 1
        line = doc.line_of(("cases", index, "expected", key))
        expected[key] = build_expectation(key, spec, scale, line)
    return Case(
        id=raw["id"],
        description=raw["description"],
        source=raw["source"],
        tags=tuple(raw["tags"]),
        level=raw["level"],
        config=_with_paths(raw["config"], file),
        input=Input(raw["input"]["format"], segments),
        expected=expected,
        file=file,
        line=doc.line_of(("cases", index)),
        suite=suite,
        notes=raw.get("notes", ""),
    )


def _inlined(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    """``node`` with every local ``{"$ref": "#/$defs/NAME"}`` replaced by its definition
    (the case-file schema has no recursive reference): validation then skips the
    reference lookups, half its time on a large file; errors and paths are the same."""
    if depth > 32:
        raise ValueError("recursive $ref")
    if isinstance(node, dict):
        ref = node.get("$ref")
        if len(node) == 1 and isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inlined(defs[ref.removeprefix("#/$defs/")], defs, depth + 1)
        return {k: _inlined(v, defs, depth + 1) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inlined(v, defs, depth + 1) for v in node]
    return node


_VALIDATORS: dict[int, tuple[dict[str, Any], jsonschema.Draft202012Validator]] = {}


def _validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    """A validator for ``schema``, built once (references inlined when possible)."""
    import jsonschema

    found = _VALIDATORS.get(id(schema))
    if found is None or found[0] is not schema:
        try:
            compiled = _inlined(schema, schema.get("$defs", {}))
        except (KeyError, ValueError):  # a reference that is not a simple local one
            compiled = schema
        found = _VALIDATORS[id(schema)] = (schema, jsonschema.Draft202012Validator(compiled))
    return found[1]


def _schema_problems(
    data: Any, doc: YamlDocument, file: str, schema: dict[str, Any]
) -> list[Problem]:
    validator = _validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path))):
        path = tuple(error.absolute_path)
        case_id = ""
        if len(path) >= 2 and path[0] == "cases" and isinstance(path[1], int):
            cases = data.get("cases") if isinstance(data, dict) else None
            if isinstance(cases, list) and path[1] < len(cases):
                item = cases[path[1]]
                case_id = str(item.get("id", "")) if isinstance(item, dict) else ""
        where = "/".join(str(p) for p in path) or "(top level)"
        message = error.message
        if error.validator == "additionalProperties":
            message = f"unknown key(s) at {where}: {message}"
        else:
            message = f"at {where}: {message}"
        problems.append(Problem(file, doc.line_of(path), case_id, "schema", message))
    return problems


def load_file(
    path: Path, registry: Registry, schema: dict[str, Any], *, explicit: bool = True
) -> tuple[list[Case], list[Problem]]:
    """Every case of one file and every problem in it (never stops at the first). A file
    found in a directory (not ``explicit``ly named) is read only when it is a regular file:
    a named pipe there would block the run forever (``<(cat cases.yaml)`` named on the
    command line is read)."""
    file = display_path(path)
    special = _special(path) if not explicit else ""
    if special:
        return [], [Problem(file, 0, "", "file", f"not a regular file ({special}): not read")]
    try:
        data = read_bounded(path)
    except OSError as exc:
        return [], [Problem(file, 0, "", "file", f"cannot read: {exc}")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [], [_not_utf8(file, data, exc)]
    try:
        return _load_text(text, file, registry, schema)
    except Exception as exc:  # a bug here must cost one file, never the whole run
        return [], [Problem(file, 0, "", "internal", f"cannot load: {type(exc).__name__}: {exc}")]


def _not_utf8(file: str, data: bytes, exc: UnicodeDecodeError) -> Problem:
    """The problem of a case file that is not UTF-8, at the line of its first bad byte."""
    line = data.count(b"\n", 0, exc.start) + 1
    column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
    utf16 = data[:2] in (b"\xff\xfe", b"\xfe\xff")
    what = "a UTF-16 file (it starts with a UTF-16 byte-order mark)" if utf16 else "not UTF-8"
    return Problem(
        file,
        line,
        "",
        "file",
        f"{what}: byte {data[exc.start]:#04x} at column {column} ({exc.reason}); case files "
        "are UTF-8 (iconv -f ENCODING -t UTF-8 converts one)",
    )


def _special(path: Path) -> str:
    """What kind of special file ``path`` is ('' for a regular file or an unreadable one,
    whose reading reports the problem)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return ""
    kinds = {stat.S_ISFIFO: "a named pipe", stat.S_ISSOCK: "a socket", stat.S_ISCHR: "a device"}
    kinds[stat.S_ISBLK] = "a device"
    return next((name for test, name in kinds.items() if test(mode)), "")


#: Each file's cases and problems by (text, name, registry, schema), in this process: the
#: checks re-score every expectation (most of a load), and a session (the tests, a
#: ``run`` after an ``identify``) loads the same library again and again.
_LOADED: dict[tuple[str, ...], tuple[tuple[Case, ...], tuple[Problem, ...]]] = {}
_MAX_LOADED = 256


def _load_text(
    text: str, file: str, registry: Registry, schema: dict[str, Any]
) -> tuple[list[Case], list[Problem]]:
    by = sorted(registry.keys.items()), sorted(registry.tags.items())
    key = (text, file, repr(by), json.dumps(schema, sort_keys=True))
    found = _LOADED.get(key)
    if found is None:
        if len(_LOADED) >= _MAX_LOADED:
            _LOADED.clear()
        cases, problems = _checked(text, file, registry, schema)
        found = _LOADED[key] = tuple(cases), tuple(problems)
    return list(found[0]), list(found[1])


def _checked(
    text: str, file: str, registry: Registry, schema: dict[str, Any]
) -> tuple[list[Case], list[Problem]]:
    kept = recall(text, schema)
    doc = kept or read_yaml(text)
    data = doc.data
    problems = [
        Problem(file, line, _case_at(doc, data, line), rule, msg) for line, rule, msg in doc.errors
    ]
    if data is None:
        if not problems:
            problems.append(Problem(file, 1, "", "schema", "empty file: expected a case file"))
        return [], problems
    schema_problems = [] if kept else _schema_problems(data, doc, file, schema)
    problems.extend(schema_problems)
    if not (kept or problems):
        remember(text, schema, doc)
    bad_cases = {p.case_id for p in schema_problems}
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        return [], problems
    suite = str(data.get("suite", ""))
    cases = []
    for index, raw in enumerate(data["cases"]):
        if not isinstance(raw, dict):
            continue
        case_id = str(raw.get("id", ""))
        if case_id in bad_cases or any(
            p.line and p.case_id == "" and _inside(doc, ("cases", index), p.line)
            for p in schema_problems
        ):
            continue
        unusable = number_problems(raw, doc, index, file)
        if unusable:  # NaN, inf or a number too large for a float: the case cannot be built
            problems.extend(unusable)
            continue
        case = build_case(raw, doc, index, file, suite, registry)
        found = check_case(case, registry, doc, index)
        problems.extend(found)
        cases.append(case)
    return cases, problems


def _case_at(doc: YamlDocument, data: Any, line: int) -> str:
    """The id of the case whose lines contain ``line`` ('' outside any case)."""
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list) or not line:
        return ""
    for index, raw in enumerate(cases):
        if isinstance(raw, dict) and _inside(doc, ("cases", index), line):
            return str(raw.get("id", ""))
    return ""


def _inside(doc: YamlDocument, path: tuple[str, int], line: int) -> bool:
    start = doc.line_of(path)
    nxt = doc.lines.get((path[0], path[1] + 1))
    return start <= line and (nxt is None or line < nxt)


def _unreadable_directories(path: Path) -> list[Problem]:
    """Every directory at or under ``path`` that cannot be listed (``rglob`` skips them)."""
    errors: list[OSError] = []
    for _ in os.walk(path, onerror=errors.append):
        pass
    message = "cannot read this directory: {}"
    return [
        Problem(display_path(Path(exc.filename or path)), 0, "", "file", message.format(reason))
        for exc in errors
        for reason in [exc.strerror or exc]
    ]


def _directory_problems(paths: Sequence[str | os.PathLike[str]]) -> list[Problem]:
    """A directory given explicitly that cannot be read, or holds an unreadable one, or holds
    no case file (empty or no YAML): a problem, never "OK: 0 files" or a silent skip."""
    problems: list[Problem] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            continue
        unreadable = _unreadable_directories(path)
        problems.extend(unreadable)
        if not unreadable and next(iter_case_files([path]), None) is None:
            message = "no case files (*.yaml) in this directory"
            problems.append(Problem(display_path(path), 0, "", "file", message))
    return problems


def registry_root(path: str | os.PathLike[str]) -> Path | None:
    """The nearest directory at or above ``path`` holding an ``implementations.yaml``."""
    start = _resolved(Path(path))
    for directory in (start, *start.parents):
        try:
            if (directory / REGISTRY_FILE).is_file():
                return directory
        except OSError:  # an unreadable directory holds no registry we could use
            continue
    return None


def load_fixtures(
    paths: Sequence[str | os.PathLike[str]] = (),
    *,
    root: str | os.PathLike[str] | None = None,
) -> LoadResult:
    """Load every case under ``paths`` (default: the bundled library) and check it all.

    ``root`` holds ``implementations.yaml``, ``tags.yaml`` and the schema; by default the
    nearest one at or above the first path, else the bundled library. Cases with problems
    are still returned when they could be built; ``problems`` lists all.
    """
    if root is None and paths:
        root = registry_root(paths[0])
    root_path = BUNDLED_ROOT if root is None else Path(root)
    if not root_path.is_dir():
        problem = Problem(str(root_path), 0, "", "registry", "fixture root: no such directory")
        return LoadResult((), (problem,), {})
    registry = load_registry(root_path)
    try:
        schema = load_schema(root_path)
    except ValueError as exc:
        return LoadResult(
            (), (*registry.problems, Problem(str(root_path), 0, "", "schema", str(exc))), {}
        )
    problems: list[Problem] = list(registry.problems)
    problems.extend(_directory_problems(paths))
    cases: list[Case] = []
    seen: dict[str, Case] = {}
    named = {os.path.realpath(p) for p in paths}
    for path in iter_case_files(paths or [root_path]):
        explicit = os.path.realpath(path) in named
        file_cases, file_problems = load_file(path, registry, schema, explicit=explicit)
        problems.extend(file_problems)
        for case in file_cases:
            first = seen.get(case.id)
            if first is not None:
                problems.append(
                    Problem(
                        case.file,
                        case.line,
                        case.id,
                        "duplicate-id",
                        f"case id {case.id!r} already used at {first.location}",
                    )
                )
                continue
            seen[case.id] = case
            cases.append(case)
    return LoadResult(tuple(cases), tuple(problems), dict(registry.keys))
