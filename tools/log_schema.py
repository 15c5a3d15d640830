"""Write conformance/schemas/log.schema.json from the records' type hints.

usage: python -m tools.log_schema   (tests/conformance/results/test_log.py checks it is current)
"""

from __future__ import annotations

import json
from pathlib import Path

from conformance.results.codec import json_schema
from conformance.results.records import RECORDS

PATH = Path(__file__).resolve().parent.parent / "conformance" / "schemas" / "log.schema.json"


def text() -> str:
    schema = json_schema(RECORDS, "A line of a bleu-conformance log (format version 3)")
    return json.dumps(schema, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(text(), encoding="utf-8")
    print(f"wrote {PATH}")
