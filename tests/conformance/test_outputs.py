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


def test_a_symbolic_link_is_followed_not_replaced(tmp_path):
    real = tmp_path / "shared" / "baseline.json"
    real.parent.mkdir()
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "baseline.json"
    link.symlink_to(real)
    check_writable(link, "--baseline")
    write_atomic(link, "new", "--baseline")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in real.parent.iterdir()) == ["baseline.json"]


def test_a_link_to_an_open_descriptor_is_written_through_it(tmp_path):
    """``--report /dev/stdout > file``: /dev/stdout links to /proc/self/fd/1, a regular file
    then; replacing the link would swap the system's /dev/stdout for a file."""
    redirected = tmp_path / "redirected.txt"
    with redirected.open("w", encoding="utf-8") as stream:
        stream.write("table\n")
        stream.flush()
        link = tmp_path / "stdout"
        link.symlink_to(f"/proc/self/fd/{stream.fileno()}")
        check_writable(link, "--report")
        write_atomic(link, "report\n", "--report")
        assert link.is_symlink()
    assert redirected.read_text(encoding="utf-8") == "table\nreport\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["redirected.txt", "stdout"]
