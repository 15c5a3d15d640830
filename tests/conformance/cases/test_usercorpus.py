"""The user's corpus files as read by ``compare -r/-i``: hostile but real file conventions.

Expected values come from sacrebleu (its command line reads files with ``newline="\\n"``
and ``line.rstrip()``; its library scores the same lines), never from our own reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cases.usercorpus import CorpusInputError, display_names, load_corpus

sacrebleu = pytest.importorskip("sacrebleu")

REF = ["Die Polizei bittet um Hinweise.", "Im Süden wird Schnee erwartet."]
SYS = ["Die Polizei bittet um Hilfe.", "Im Süden Schnee erwartet."]


def _write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def test_a_crlf_copy_of_a_reference_is_the_reference(tmp_path: Path) -> None:
    ref = _write(tmp_path / "ref.txt", "\n".join(REF).encode() + b"\n")
    copy = _write(tmp_path / "copy.txt", "\r\n".join(REF).encode() + b"\r\n")
    other = _write(tmp_path / "sys.txt", "\n".join(SYS).encode() + b"\n")
    # sacrebleu scores the CRLF copy 100: it is the reference given as a system
    crlf_lines = [line + "\r" for line in REF]
    assert sacrebleu.corpus_bleu(crlf_lines, [REF]).score == pytest.approx(100)
    with pytest.raises(CorpusInputError, match=r"copy\.txt is identical to reference"):
        load_corpus([ref], [other, copy])
    trailing = _write(tmp_path / "trail.txt", "\n".join(r + " \t" for r in REF).encode())
    with pytest.raises(CorpusInputError, match=r"trail\.txt is identical"):
        load_corpus([ref], [trailing])


def test_a_copy_of_a_reference_with_other_spacing_is_the_reference(tmp_path: Path) -> None:
    """Doubled spaces, tabs, leading spaces: every whitespace tokenizer (13a, intl, char,
    none) reads the same words, so every implementation scores it 100; it was compared."""
    ref = _write(tmp_path / "ref.txt", "\n".join(REF).encode() + b"\n")
    spaced = _write(
        tmp_path / "spaced.txt", "\n".join(" " + "\t ".join(r.split()) for r in REF).encode()
    )
    assert sacrebleu.corpus_bleu(
        [" " + "\t ".join(r.split()) for r in REF], [REF]
    ).score == pytest.approx(100)
    with pytest.raises(
        CorpusInputError, match=r"spaced\.txt is identical to reference .*ref\.txt .*spacing aside"
    ):
        load_corpus([ref], [spaced])


def test_a_reference_file_of_blank_lines_is_refused(tmp_path: Path) -> None:
    ref = _write(tmp_path / "ref.txt", b"\n  \n\t\n")
    other = _write(tmp_path / "ref2.txt", b"a cat\n\nthe dog\n")
    system = _write(tmp_path / "sys.txt", b"a cat\nsat\nthe dog\n")
    with pytest.raises(CorpusInputError, match=r"ref\.txt: every one of its 3 lines is blank"):
        load_corpus([other, ref], [system])
    # blank lines in some segments only, and a blank system, are inputs like any other
    assert load_corpus([other], [_write(tmp_path / "blank.txt", b"\n\n\n")]).segments == 3


@pytest.mark.parametrize(
    ("paths", "names"),
    [
        (["wmt/de.sys01.txt", "wmt/de.sys02.txt"], ("sys01", "sys02")),
        # WMT22 file names: the pair, "hyp" and the language are shared
        (
            ["o/generaltest2022.de-fr.hyp.LT22.fr", "o/generaltest2022.de-fr.hyp.Online-A.fr"],
            ("LT22", "Online-A"),
        ),
        # one output file per system folder: the folders name the systems
        (["runs/sysA/hyp.txt", "runs/sysB/hyp.txt"], ("sysA", "sysB")),
        (["/x/a/hyp.txt", "/x/b/hyp.txt", "/data/other.txt"], ("a/hyp", "b/hyp", "other")),
        (["a/b/out.txt", "c/b/out.txt"], ("a", "c")),
        (["-", "sys.txt"], ("<stdin>", "sys.txt")),
    ],
)
def test_display_names_tell_the_systems_apart_briefly(paths: list[str], names: tuple) -> None:
    """Two systems' files of the same name in different folders made every system's name
    its whole path (a 70-column table header for each of WMT22's systems)."""
    assert display_names(paths) == names
