"""The cache directory: ``$BLEU_CONFORMANCE_CACHE``, else ``$XDG_CACHE_HOME/bleu-conformance``,
else ``~/.cache/bleu-conformance`` (pinned releases' environments, parsed case files)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CACHE_ENV", "cache_dir"]

CACHE_ENV = "BLEU_CONFORMANCE_CACHE"


def cache_dir() -> Path:
    """The cache directory, as the environment names it now."""
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bleu-conformance"
