"""Case files parsed and schema-checked once, remembered across runs by their content.

Loading the bundled library is mostly YAML parsing and JSON Schema validation (about 3 s of
every command that loads it, measured with cProfile). A file whose text, schema, parser and
Python are unchanged parses and validates the same, so the data and line map of a file that
had no problem are kept, in ``marshal`` format, in ``parsed/`` under the cache directory
(``$BLEU_CONFORMANCE_CACHE``, else ``$XDG_CACHE_HOME/bleu-conformance``, else
``~/.cache/bleu-conformance``). A file with a YAML or schema problem is never kept (its
problems are found again each time); the checks of each case run on every load; a cache
that cannot be read or written is ignored.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..cachedir import CACHE_ENV, cache_dir
from . import yamlnodes
from .yamlnodes import YamlDocument

__all__ = ["CACHE_ENV", "recall", "remember"]

#: What else a parse depends on: the parser's source, Python and marshal's format.
_PARSER = hashlib.sha256(
    Path(yamlnodes.__file__).read_bytes() + f"{sys.version}|{marshal.version}".encode()
).digest()
_SCHEMAS: dict[int, tuple[dict[str, Any], bytes]] = {}


def _path(text: str, schema: dict[str, Any]) -> Path:
    found = _SCHEMAS.get(id(schema))
    if found is None or found[0] is not schema:
        digest = hashlib.sha256(json.dumps(schema, sort_keys=True).encode()).digest()
        found = _SCHEMAS[id(schema)] = (schema, digest)
    key = hashlib.sha256(_PARSER + found[1] + text.encode("utf-8", "surrogatepass"))
    return cache_dir() / "parsed" / f"{key.hexdigest()}.marshal"


def recall(text: str, schema: dict[str, Any]) -> YamlDocument | None:
    """The document ``text`` parsed to, when it was kept (then it passed ``schema``)."""
    try:
        data, lines = marshal.loads(_path(text, schema).read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return YamlDocument(data, lines)


def remember(text: str, schema: dict[str, Any], doc: YamlDocument) -> None:
    """Keep ``doc``, the problem-free parse of ``text`` that passed ``schema``."""
    try:
        payload = marshal.dumps((doc.data, doc.lines))
        path = _path(text, schema)
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as out:
            out.write(payload)
        os.replace(out.name, path)  # whole or not at all, whoever reads it meanwhile
    except (OSError, ValueError):  # unwritable, or a value marshal does not take
        return
