"""The version of bleu_impl, read from the installed distribution's metadata.

``pyproject.toml`` is the only place the number is written; a source tree that is not
installed reports :data:`UNKNOWN`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["DISTRIBUTION", "UNKNOWN", "VERSION"]

#: The distribution that ships bleu_impl (``[project] name`` in pyproject.toml).
DISTRIBUTION = "bleu-conformance"

#: The version reported when the distribution is not installed (a PEP 440 local version).
UNKNOWN = "0+unknown"

try:
    VERSION: str = version(DISTRIBUTION)
except PackageNotFoundError:  # pragma: no cover - running from an uninstalled source tree
    VERSION = UNKNOWN
