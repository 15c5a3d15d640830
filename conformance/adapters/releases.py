"""Pinned releases as implementations: ``--impl nltk==3.2.5`` runs NLTK 3.2.5 itself.

Each pinned release lives in its own environment in the release cache (:func:`cache_dir`:
``$BLEU_CONFORMANCE_CACHE``, else ``$XDG_CACHE_HOME/bleu-conformance`` or
``~/.cache/bleu-conformance``; removing it is the clean-up), created once with ``uv`` where
it is installed (else ``venv`` + ``pip``) and reused after. It holds exactly that release,
its own dependencies and the four the worker needs (numpy, regex, jsonschema, PyYAML; the
torch libraries also get the torch build the harness has, so no other one is downloaded).
The worker runs with that environment's interpreter and sees the harness's own two
packages through a view of their files (:func:`_harness_view`), never the harness's
site-packages. A release that cannot be installed or imported is an
:class:`~conformance.protocol.AdapterError` carrying the installer's reason (an error
cell), never a crash.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

from ..cachedir import CACHE_ENV, cache_dir
from ..protocol import AdapterError
from .base import Adapter
from .libraries import LIBRARIES, LibraryAdapter
from .worker import WorkerAdapter

__all__ = ["CACHE_ENV", "cache_dir", "environment", "parse_release", "pinned", "pip_config_flags"]

#: The environment variable naming the release cache.
#: What the worker imports besides the release (the harness's own packages need them).
#: setuptools as a classic venv of this Python has it: old releases import pkg_resources,
#: which setuptools 81 removed.
_WORKER_NEEDS = ("numpy", "regex", "jsonschema", "pyyaml", "setuptools<81")
#: Libraries built on torch: their environment gets the harness's torch build.
_TORCH = ("torchmetrics", "ignite", "torcheval")
_READY = "release-ready"
_VERSION = re.compile(r"^[0-9][0-9A-Za-z.+!-]*$")


def parse_release(spec: str) -> tuple[str, str] | None:
    """``(library, version)`` for ``LIBRARY==VERSION`` of a live library, else None."""
    name, sep, release = spec.partition("==")
    if not sep or name not in LIBRARIES:
        return None
    if not _VERSION.match(release):
        raise AdapterError("config", f"{spec}: {release!r} is not a release number")
    return name, release


def _index() -> str:
    """The package index an install asks (for the offline error)."""
    return os.environ.get("UV_INDEX_URL") or os.environ.get("PIP_INDEX_URL") or "PyPI"


def pip_config_flags() -> list[str]:
    """pip's configured find-links, extra indexes and constraints as installer flags, so
    ``uv`` sees the same packages pip would (a local torch build, a local mirror)."""
    run = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"],
        capture_output=True,
        text=True,
        check=False,
    )
    flags = []
    for line in run.stdout.splitlines():
        key, _, value = line.partition("=")
        option = key.rsplit(".", 1)[-1]
        if option in ("index-url", "extra-index-url", "find-links", "constraint"):
            for item in value.strip("'\"").split():
                if not item.startswith("file://") or os.path.isdir(item[7:]):
                    flags += [f"--{option}", item]
    return flags


def _requirements(library: str, release: str) -> list[str]:
    lib = LIBRARIES[library]
    wanted = [f"{lib.package}=={release}", *lib.imports_undeclared(release), *_WORKER_NEEDS]
    if library in _TORCH:
        from importlib.metadata import PackageNotFoundError, version

        try:
            wanted.append(f"torch=={version('torch')}")
        except PackageNotFoundError:
            wanted.append("torch")
    return wanted


def _install(target: Path, wanted: list[str]) -> None:
    """Create the environment ``target`` holding ``wanted`` (AdapterError: the reason)."""
    uv = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))
    python = target / "bin" / "python"
    if uv:
        steps = [
            [uv, "venv", "-q", "--python", sys.executable, str(target)],
            # pip takes the best match over all its indexes; uv would stop at the first
            [
                uv,
                "pip",
                "install",
                "-q",
                "--python",
                str(python),
                "--index-strategy",
                "unsafe-best-match",
                *pip_config_flags(),
                *wanted,
            ],
        ]
    else:
        steps = [
            [sys.executable, "-m", "venv", str(target)],
            [str(python), "-m", "pip", "install", "-q", *wanted],
        ]
    for step in steps:
        run = subprocess.run(step, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise AdapterError("config", _reason(wanted[0], run.stderr or run.stdout))


def _reason(requirement: str, output: str) -> str:
    """The installer's own words, short; offline, a sentence naming the release and index."""
    lines = [line for line in output.splitlines() if line.strip() and "WARNING" not in line]
    text = " ".join(line.strip() for line in lines[-6:])[:600]
    offline = re.search(r"dns error|Failed to fetch|connect|Network is unreachable", text)
    if offline:
        return f"cannot reach {_index()} to install {requirement} (offline?): {text}"
    return f"cannot install {requirement}: {text}"


def environment(library: str, release: str) -> Path:
    """The interpreter of the cached environment holding ``library==release`` (created on
    first use; a failed install leaves nothing behind and is tried again next time)."""
    root = cache_dir() / "releases"
    target = root / f"{LIBRARIES[library].package}-{release}"
    python = target / "bin" / "python"
    wanted = _requirements(library, release)
    if _ready(target, wanted):
        return python
    root.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=root))
    try:
        _install(scratch, wanted)
        (scratch / _READY).write_text(" ".join(wanted) + "\n")
        if target.exists() and not _ready(target, wanted):
            shutil.rmtree(target, ignore_errors=True)  # an interrupted or older install
        try:
            os.rename(scratch, target)  # only bin/python is used: it runs from anywhere
        except OSError:
            if not _ready(target, wanted):  # else another process made it first
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return python


def _ready(target: Path, wanted: list[str]) -> bool:
    """Whether ``target`` was completed holding ``wanted`` (what this harness installs)."""
    marker = target / _READY
    return marker.is_file() and marker.read_text().split() == wanted


def _harness_view() -> Path:
    """A directory holding the harness's own packages (``bleu_impl``, ``conformance`` and
    the fixture library as ``conformance.fixtures``) as symbolic links to their files: the
    worker's only path to the harness, with none of the harness's other packages."""
    import bleu_impl

    from ..cases.implementations import BUNDLED_ROOT

    package = Path(__file__).resolve().parents[1]
    metric = Path(bleu_impl.__file__).resolve().parent
    entries = sorted(e.name for e in package.iterdir())  # a new module makes a new view
    key = hashlib.sha256(
        "\0".join([str(package), str(metric), str(BUNDLED_ROOT), *entries]).encode()
    ).hexdigest()[:16]
    view = cache_dir() / "harness" / key
    if (view / "conformance" / "fixtures").exists():
        return view
    view.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".view-", dir=view.parent))
    (scratch / "bleu_impl").symlink_to(metric)
    (scratch / "conformance").mkdir()
    for entry in package.iterdir():
        if entry.name != "fixtures":
            (scratch / "conformance" / entry.name).symlink_to(entry)
    (scratch / "conformance" / "fixtures").symlink_to(BUNDLED_ROOT)
    try:
        os.replace(scratch, view)
    except OSError:  # another process made it first
        shutil.rmtree(scratch, ignore_errors=True)
    return view


def pinned(spec: str) -> Adapter:
    """The adapter of the pinned release ``spec`` (``nltk==3.2.5``), in its environment."""
    found = parse_release(spec)
    if found is None:
        raise AdapterError("config", f"{spec}: not LIBRARY==VERSION of a live library")
    library, release = found
    python = environment(library, release)
    recipe = partial(LibraryAdapter, library, release=release)
    return WorkerAdapter(recipe, python=str(python), pythonpath=str(_harness_view()))
