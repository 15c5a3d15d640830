"""Reading the user's text files: encodings that are not UTF-8 are errors naming the file
and the line, with the encoding when a byte-order mark or NUL bytes give it away."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.textio import TextInputError, read_lines

TEXT = "Die Polizei bittet um Hinweise.\nThe police ask for help.\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_file_with_a_utf16_or_utf32_byte_order_mark_is_named_as_such(
    tmp_path: Path, encoding: str
) -> None:
    path = tmp_path / "sys.txt"
    data = TEXT.encode(encoding)
    if encoding == "utf-16-be":  # Python writes no mark for an explicit byte order
        data = b"\xfe\xff" + data
    path.write_bytes(data)
    name = "UTF-32" if "32" in encoding else "UTF-16"
    with pytest.raises(TextInputError, match=rf"sys\.txt:1: starts with a {name} byte-order mark"):
        read_lines(str(path))


def test_utf16_without_a_mark_is_not_read_as_text(tmp_path: Path) -> None:
    # ASCII text in UTF-16-LE is valid UTF-8 byte for byte: every other byte is NUL
    path = tmp_path / "sys.txt"
    path.write_bytes("the police ask for help .\nthanks\n".encode("utf-16-le"))
    with pytest.raises(TextInputError, match=r"sys\.txt:1: NUL byte at byte 1 of the line"):
        read_lines(str(path))


def test_latin1_names_the_line_and_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "sys.txt"
    path.write_bytes(TEXT.replace("bittet", "bittet für").encode("latin-1"))
    with pytest.raises(TextInputError, match=r"sys\.txt:1: invalid UTF-8 .*must be UTF-8"):
        read_lines(str(path))


def test_a_utf8_byte_order_mark_stays_as_sacrebleu_reads_it(tmp_path: Path) -> None:
    """sacrebleu opens files as ``utf-8`` (not ``utf-8-sig``): the mark is text of line 1."""
    path = tmp_path / "ref.txt"
    path.write_bytes(b"\xef\xbb\xbf" + TEXT.encode("utf-8"))
    with open(path, encoding="utf-8", newline="\n") as handle:  # sacrebleu's smart_open
        want = [line.rstrip("\n") for line in handle]
    assert read_lines(str(path)) == want
    assert want[0].startswith("\ufeff")
