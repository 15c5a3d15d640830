"""Peers that need another Python than the bench's: each in a venv of its own under the cache.

sacrebleu-mojo publishes wheels for Python >= 3.12 only; the bench finds such a Python
(``BENCH_PYTHON312``, pyenv's, or ``python3.12`` on PATH), makes ``<cache>/venv-<package>``
with it once, pip-installs the package there, and runs ``bench.worker`` with that venv's
interpreter (the worker needs only the standard library and the package).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

__all__ = ["own_python"]

_CANDIDATES = ("python3.12", "python3.13")


def _base_python() -> str | None:
    chosen = os.environ.get("BENCH_PYTHON312")
    if chosen:
        return chosen
    pyenv = sorted(Path.home().glob(".pyenv/versions/3.1[2-9]*/bin/python"))  # not the shims
    if pyenv:
        return str(pyenv[0])
    found = [shutil.which(name) for name in _CANDIDATES]
    return next((f for f in found if f), None)


def own_python(cache: Path, package: str) -> tuple[str | None, str]:
    """The interpreter of a venv with ``package`` installed (made once), or None and why."""
    venv = cache / f"venv-{package}"
    python = venv / "bin" / "python"
    if (venv / "installed").exists():
        return str(python), ""
    base = _base_python()
    if base is None:
        return None, f"not installed: {package} needs Python >= 3.12 and none was found"
    for command in (
        [base, "-m", "venv", str(venv)],
        [str(python), "-m", "pip", "install", "-q", package],
    ):
        proc = subprocess.run(command, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            return None, f"not installed: `{' '.join(command[-3:])}` failed: {last[:200]}"
    (venv / "installed").write_text(package)
    return str(python), ""
