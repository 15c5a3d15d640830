"""Output files: checked before the work, written atomically."""

from __future__ import annotations

import pytest

from conformance.outputs import OutputError, check_writable, write_atomic


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "report.xml"
    target.write_text("old report", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "half a report, then a lone surrogate \ud800")
    assert target.read_text(encoding="utf-8") == "old report"
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("where", ["missing/out.txt", "file.txt/out.txt", "."])
def test_unwritable_targets_are_named(tmp_path, where):
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="--output"):
        check_writable(tmp_path / where, "--output")
