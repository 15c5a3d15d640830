"""bench/identify.py: the table marks the target only on the rows that have one."""

from __future__ import annotations

from bench.identify import IdentifyRow, identify_table
from conformance.reporters.numbers import EMPTY


def test_table_marks_the_target_of_targeted_rows_only() -> None:
    rows = [
        IdentifyRow("nltk", 3.2, 2.9, "match: nltk"),
        IdentifyRow("sacrebleu", 12.0, 9.0, "match: sacrebleu"),
        IdentifyRow("zoo:x --generate 30", 14.0, 11.0, "match: ignite", targeted=False),
    ]
    lines = identify_table(rows).splitlines()
    assert lines[0].startswith("| command | wall s | CPU s | target (≤ 10 s wall)")
    assert lines[2] == "| `identify --impl nltk` | 3.2 | 2.9 | met | match: nltk |"
    assert "| 12.0 | 9.0 | NOT met |" in lines[3]
    assert lines[4] == (
        f"| `identify --impl zoo:x --generate 30` | 14.0 | 11.0 | {EMPTY} | match: ignite |"
    )
