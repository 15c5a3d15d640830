"""A user's corpus: reference files and system files, read and checked, as cases.

One file per reference stream and one per system, one segment per line (UTF-8; ``-`` is
standard input, at most once; ``*.gz`` is decompressed). Every problem names the file (and
line): an unreadable or empty file, invalid UTF-8, a reference file of blank lines, files of
different lengths, a file given twice, a system identical to a reference. A system file that
cannot be read or has another length is left out of the comparison with that reason; every
other problem (and no system left) is a :class:`CorpusInputError`.
Each system becomes one :class:`~conformance.cases.Case` (corpus level, no expectations).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..textio import TextInputError, read_lines
from .model import Case

__all__ = ["CorpusInputError", "UserCorpus", "display_names", "load_corpus"]


class CorpusInputError(ValueError):
    """The files cannot be compared (a usage error: exit status 2)."""


@dataclass(frozen=True)
class UserCorpus:
    """Reference streams and system outputs, all of the same number of lines."""

    reference_files: tuple[str, ...]
    system_files: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]  # references[k][i]: stream k, line i
    outputs: tuple[tuple[str, ...], ...]  # outputs[j][i]: system j, line i
    unread: tuple[tuple[str, str], ...] = ()  # (system file, why it is not compared)

    @property
    def segments(self) -> int:
        return len(self.references[0]) if self.references else 0

    @property
    def names(self) -> tuple[str, ...]:
        """Short system names: the file names without what they all share."""
        return display_names(self.system_files)

    def case(self, system: int, knobs: Mapping[str, Any] | None = None) -> Case:
        """System ``system`` as a corpus-level case on these references."""
        refs = list(zip(*self.references))
        return Case.from_texts(
            self.names[system],
            list(self.outputs[system]),
            refs,
            config=knobs,
            tags=("user-corpus",),
            file=self.system_files[system],
            source="user corpus",
            description=f"{self.system_files[system]} against " + ", ".join(self.reference_files),
        )


def display_names(paths: Sequence[str]) -> tuple[str, ...]:
    """File names without the dot-, dash-, underscore- or slash-separated parts they all
    share (``wmt/de.sys01.txt``, ``wmt/de.sys02.txt`` -> ``sys01``, ``sys02``). Files of the
    same name in different folders (``sysA/hyp.txt``, ``sysB/hyp.txt`` -> ``sysA``,
    ``sysB``) keep as many of their last folders as tell them apart, the others their file
    name; the unshortened names when shortening would make two equal or one empty."""
    names = _distinct_tails(paths)
    parts = [re.split(r"(?<=[/._-])", n) for n in names]
    if len(names) > 1:
        head = 0
        while all(len(p) > head + 1 and p[head] == parts[0][head] for p in parts):
            head += 1
        tail = 0
        while all(len(p) > head + tail + 1 and p[-1 - tail] == parts[0][-1 - tail] for p in parts):
            tail += 1
        short = ["".join(p[head : len(p) - tail]).rstrip("/._-") for p in parts]
        if all(short) and len(set(short)) == len(short):
            return tuple(short)
    return tuple(names)


def _distinct_tails(paths: Sequence[str]) -> list[str]:
    """Each path's file name, with as many of its last folders as it takes to tell it from
    the others; the whole paths when no tail does."""
    components = [["<stdin>"] if p == "-" else p.replace(os.sep, "/").split("/") for p in paths]
    depth = [1] * len(paths)
    while True:
        tails = ["/".join(c[-d:]) for c, d in zip(components, depth)]
        clashing = [i for i, t in enumerate(tails) if tails.count(t) > 1]
        if not clashing:
            return tails
        grown = [i for i in clashing if depth[i] < len(components[i])]
        if not grown:
            return ["<stdin>" if p == "-" else p for p in paths]
        for i in grown:
            depth[i] += 1


def _read(path: str) -> tuple[str, ...]:
    try:
        lines = read_lines(path)
    except TextInputError as exc:
        raise CorpusInputError(str(exc)) from None
    if not lines:
        raise CorpusInputError(f"{_shown(path)}: empty file (no lines): nothing to score")
    return tuple(lines)


def _shown(path: str) -> str:
    return "<stdin>" if path == "-" else path


#: ASCII spacing only: a no-break space or an ideographic space is text to 13a.
_SPACING = re.compile("[ \t\r\v\f]+")


def _words(line: str) -> list[str]:
    return [word for word in _SPACING.split(line) if word]


def _check_paths(reference_files: Sequence[str], system_files: Sequence[str]) -> None:
    if not reference_files:
        raise CorpusInputError("no reference file: give one -r FILE per reference stream")
    if not system_files:
        raise CorpusInputError("no system file: give one -i FILE per system")
    every = [*reference_files, *system_files]
    if every.count("-") > 1:
        raise CorpusInputError("standard input (-) can be read only once")
    seen: set[str] = set()
    for path in every:
        key = path if path == "-" else os.path.realpath(path)
        if key in seen:
            raise CorpusInputError(f"{path}: given twice (each file is one stream or system)")
        seen.add(key)


def _length_problem(named: Sequence[tuple[str, tuple[str, ...]]]) -> str:
    """Why the files do not all have as many lines as the first ("" when they do)."""
    first_name, first = named[0]
    for name, lines in named[1:]:
        if len(lines) != len(first):
            short, long = sorted(((name, lines), (first_name, first)), key=lambda x: len(x[1]))
            return (
                f"line count mismatch: {_shown(short[0])} has {len(short[1])} lines but "
                f"{_shown(long[0])} has {len(long[1])} (line {len(short[1]) + 1} of "
                f"{_shown(long[0])} has no partner); every file needs one line per segment"
            )
    return ""


def _system(path: str, first: tuple[str, tuple[str, ...]]) -> tuple[str, ...] | str:
    """A system file's lines, or why it cannot be compared (unreadable, empty, invalid
    UTF-8, of another length than the first reference file)."""
    try:
        lines = _read(path)
    except CorpusInputError as exc:
        return str(exc)
    return _length_problem([first, (path, lines)]) or lines


def load_corpus(reference_files: Sequence[str], system_files: Sequence[str]) -> UserCorpus:
    """Read and check the files (CorpusInputError says what is wrong, where). A system file
    that cannot be compared is left out with why (``unread``); the others are compared."""
    _check_paths(reference_files, system_files)
    references = tuple(_read(p) for p in reference_files)
    for path, lines in zip(reference_files, references):
        if not any(line.strip() for line in lines):
            raise CorpusInputError(
                f"{_shown(path)}: every one of its {len(lines)} lines is blank: a reference "
                "file without text gives every system 0 in every implementation (is it the "
                "right file?)"
            )
    problem = _length_problem(list(zip(reference_files, references)))
    if problem:
        raise CorpusInputError(problem)
    read = {p: _system(p, (reference_files[0], references[0])) for p in system_files}
    unread = tuple((p, why) for p, why in read.items() if isinstance(why, str))
    if len(unread) == len(system_files):  # nothing left to compare
        raise CorpusInputError("; ".join(why for _, why in unread))
    system_files = [p for p in system_files if not isinstance(read[p], str)]
    outputs = tuple(lines for lines in read.values() if not isinstance(lines, str))
    # Compared word by word: a copy of a reference with CRLF line ends, trailing, doubled or
    # leading spaces or tabs is the same words to every whitespace tokenizer and scores 100.
    words = [[_words(line) for line in ref] for ref in references]
    for sys_path, lines in zip(system_files, outputs):
        for ref_path, ref in zip(reference_files, words):
            if [_words(line) for line in lines] == ref:
                raise CorpusInputError(
                    f"{_shown(sys_path)} is identical to reference {_shown(ref_path)} (all "
                    f"{len(ref)} lines, spacing aside): a system scored against "
                    "itself gets 100 by construction; is a reference given as a system (-i) "
                    "by mistake?"
                )
    return UserCorpus(tuple(reference_files), tuple(system_files), references, outputs, unread)
