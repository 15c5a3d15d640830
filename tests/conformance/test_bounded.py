"""conformance.bounded: reading with a bound on what is held in memory."""

from __future__ import annotations

import io

import pytest

from conformance.bounded import TooLarge, bounded_lines, read_bounded


def test_lines_up_to_the_bound_are_read_with_their_ends():
    stream = io.BytesIO(b"abc\nde\nf")
    assert list(bounded_lines(stream, limit=4)) == [b"abc\n", b"de\n", b"f"]


def test_a_line_beyond_the_bound_names_its_number_and_is_not_read_whole():
    stream = io.StringIO("ok\n" + "x" * 100 + "\nnever")
    lines = bounded_lines(stream, limit=10)
    assert next(lines) == "ok\n"
    with pytest.raises(TooLarge) as caught:
        next(lines)
    assert caught.value.line == 2 and "longer than" in str(caught.value)
    assert stream.tell() == 3 + 11  # the rest of the line was never read


def test_a_file_beyond_the_bound_is_too_large_an_oserror(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 11)
    assert read_bounded(path, limit=11) == b"x" * 11
    with pytest.raises(OSError, match="larger than"):
        read_bounded(path, limit=10)
