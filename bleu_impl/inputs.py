"""The input contract: parallel hypotheses and references, read and validated in one place.

``hypotheses[i]`` is a segment (a ``str``, or a sequence of ``str`` tokens) and
``references[i]`` the list of its references (NLTK's orientation); a ``None`` reference is
missing and dropped. Both are read lazily, one segment at a time, so any iterables work and
memory stays bounded. Every error names the segment it is about; the token-level checks
(``bytes``, non-``str`` tokens) belong to the tokenizing pipeline.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, chain, islice, zip_longest
from typing import Any

from .errors import EmulatedFailure, InputError

__all__ = [
    "CHUNK_SENTENCES",
    "CUT_SCOPES",
    "Chunk",
    "Segment",
    "check_nesting",
    "cut_references",
    "read_chunks",
    "read_segments",
    "references_of",
]

#: A hypothesis or a reference: raw text, or tokens taken as given.
Segment = str | Sequence[str]

#: ``(index of the first segment, hypotheses, reference lists)`` of consecutive segments.
Chunk = tuple[int, list[Segment], list[list[Segment]]]

#: :func:`read_chunks` cuts a chunk after this many sentences (hypotheses + references).
#: Small chunks keep the fast path's arrays in cache and bound memory; measured fastest
#: around 2k-8k (bench/).
CHUNK_SENTENCES = 4_096


class _End(enum.Enum):
    """Marks an exhausted input in :func:`read_segments`."""

    END = enum.auto()


def references_of(refs: Any, index: int) -> list[Segment]:
    """The references of segment ``index``; ``None`` entries are missing (dropped)."""
    if type(refs) is list and None not in refs:  # the common case, without a copy
        return refs
    if isinstance(refs, str):
        raise InputError(
            f"segment {index}: references must be a list of references per segment "
            "(NLTK's orientation), got a bare string"
        )
    if refs is None:
        return []
    try:
        return [r for r in refs if r is not None]
    except TypeError:
        raise InputError(f"segment {index}: references must be a list, got {refs!r}") from None


#: The ``ref_scope`` values that cut each segment's references (:func:`cut_references`).
CUT_SCOPES = ("fewest", "non-empty")


def cut_references(
    hypotheses: Iterable[Any], references: Iterable[Any], scope: str
) -> tuple[list[Segment], list[list[Segment]]]:
    """The segments, each with the references ``ref_scope`` leaves it: ``fewest``, its
    first k, k the fewest any segment has (lm-evaluation-harness 0.4.13
    ``lm_eval/api/metrics.py`` transposes the reference lists with ``zip(*refs)``, which
    stops at the shortest, before ``sacrebleu.corpus_bleu``; k = 0 or no segment:
    ``IndexError``); ``non-empty``, those that are not ``""`` (sacrebleu 1.5.0-2.1.0
    ``x is not None and x != ""``; none left: its EOFError/RuntimeError)."""
    segments = list(read_segments(hypotheses, references))
    hyps = [hyp for hyp, _ in segments]
    if scope == "non-empty":
        kept = [[r for r in refs if len(r)] for _, refs in segments]
        if any(not refs for refs in kept):
            raise EmulatedFailure("missing-reference", "no non-empty reference for a segment")
        return hyps, kept
    fewest = min((len(refs) for _, refs in segments), default=0)
    if fewest == 0:  # no segment, or one without a reference
        raise EmulatedFailure("index-error", "zip(*refs) leaves no reference (IndexError)")
    return hyps, [refs[:fewest] for _, refs in segments]


def read_segments(
    hypotheses: Iterable[Any], references: Iterable[Any], first: int = 0
) -> Iterator[tuple[Segment, list[Segment]]]:
    """Yield ``(hypothesis, references)`` per segment; raise at the first invalid segment
    (segments numbered from ``first``).

    A segment is read only when the previous one has been consumed, so a caller that
    processes each segment before asking for the next sees errors in input order.
    """
    for name, value in (("hypotheses", hypotheses), ("references", references)):
        if isinstance(value, str | bytes):
            raise InputError(
                f"{name} must be a list with one entry per segment, got a single string "
                f"{value[:40]!r}; for one segment pass a one-item list (or use sentence_bleu)"
            )
    pairs = zip_longest(hypotheses, references, fillvalue=_End.END)
    for index, (hyp, refs) in enumerate(pairs, first):
        if hyp is _End.END or refs is _End.END:
            longer = "references" if hyp is _End.END else "hypotheses"
            raise InputError(
                f"hypotheses and references differ in length: {longer} continue past segment "
                f"{index - 1} (segment {index} has no partner)"
                f"{_transposed_hint(references, index, longer == 'hypotheses')}"
            )
        if hyp is None:
            raise InputError(f"segment {index}: hypothesis is None")
        segment_refs = references_of(refs, index)
        check_nesting(hyp, segment_refs, index)
        yield hyp, segment_refs


def _transposed_hint(references: Iterable[Any], paired: int, more_hypotheses: bool) -> str:
    """A hint when ``references`` has sacrebleu's shape, a list of reference streams
    (``refs[k][i]``: reference k of segment i), where ``refs[i]`` (segment i's references)
    was expected: its first item is as long as the hypotheses (more than the ``paired``
    segments when the hypotheses ran on, exactly ``paired`` when the references did)."""
    if not (isinstance(references, list) and references):
        return ""
    first = references[0]
    streams = isinstance(first, list | tuple) and len(first) != len(references)
    if streams and (len(first) > paired if more_hypotheses else len(first) == paired):
        return (
            f". Is it sacrebleu's shape, {len(references)} reference stream(s) of "
            f"{len(references[0])} lines each? bleu_impl takes references[i] = the references "
            "of segment i: pass [list(r) for r in zip(*streams)]"
        )
    return ""


def check_nesting(hyp: Segment, refs: list[Segment], index: int) -> None:
    """A raw hypothesis with a reference given as a token list whose tokens hold spaces:
    the references are nested one level too deep (tokens with spaces are legitimate when
    the hypothesis is a token list too: fast-bleu joins n-grams with spaces). A token that
    is itself a list or tuple: that segment is nested one level too deep."""
    if type(hyp) is str and all(type(ref) is str for ref in refs):
        return  # raw text throughout (the common case): nothing can be nested
    for what, segment in (("the hypothesis", hyp), *(("a reference", ref) for ref in refs)):
        nested = isinstance(segment, list | tuple) and segment  # the first token tells
        if nested and isinstance(segment[0], list | tuple):
            raise InputError(
                f"segment {index}: {what} holds a list where a token belongs (is it nested "
                "one level too deep? a segment is a string or a list of str tokens; "
                "references[i] is the list of segment i's references)"
            )
    if not isinstance(hyp, str):
        return
    for ref in refs:
        if isinstance(ref, str):
            continue
        spaced = next((t for t in ref if isinstance(t, str) and " " in t), None)
        if spaced is not None:
            raise InputError(
                f"segment {index}: a reference token contains a space: {spaced[:60]!r}, while "
                "the hypothesis is a string (is the reference list nested one level too deep? "
                "references[i] is the list of segment i's references, each a string or a "
                "list of tokens)"
            )


def read_chunks(
    hypotheses: Iterable[Any], references: Iterable[Any], limit: int = CHUNK_SENTENCES
) -> Iterator[Chunk]:
    """:func:`read_segments` grouped into chunks of about ``limit`` sentences.

    On invalid input the complete segments before the bad one are yielded first, then the
    error is raised, so a caller that processes chunk by chunk sees errors in input order.
    Two lists of equal length are read a chunk at a time while the chunks hold raw text
    only (:func:`_text_chunks`; the same chunks).
    """
    start = 0
    if isinstance(hypotheses, list) and isinstance(references, list):
        for start, hyps, refss in _text_chunks(hypotheses, references, limit):
            yield start, hyps, refss
            start += len(hyps)
        if start:  # the rest (lists of equal length: no length error names them)
            hypotheses = islice(hypotheses, start, None)
            references = islice(references, start, None)
    yield from _segment_chunks(hypotheses, references, limit, start)


def _text_chunks(
    hypotheses: list[Any], references: list[Any], limit: int
) -> Iterator[tuple[int, list[Segment], list[list[Segment]]]]:
    """The leading chunks of two lists (cut where :func:`_segment_chunks` cuts) in which
    every hypothesis is a ``str`` and every segment's references a list of ``str``: such a
    segment passes every check of :func:`read_segments`, so a chunk is checked by the set of
    its items' types, without a Python call per segment. Stops before the first other one."""
    start, size = 0, len(hypotheses)
    while start < size and size == len(references):
        refss = references[start : start + limit]
        hyps = hypotheses[start : start + limit]
        if {*map(type, hyps)} != {str} or {*map(type, refss)} != {list}:
            return
        if not {*map(type, chain.from_iterable(refss))} <= {str}:
            return
        counts = {*map(len, refss)}
        if len(counts) == 1:  # k references each: cut after ceil(limit / (k + 1)) segments
            end = max(1, -(-limit // (counts.pop() + 1)))
        else:
            sentences = enumerate(accumulate(map(len, refss)), 1)
            end = next((m for m, c in sentences if m + c >= limit), len(refss))
        yield start, hyps[:end], refss[:end]
        start += min(end, len(hyps))


def _segment_chunks(
    hypotheses: Iterable[Any], references: Iterable[Any], limit: int, first: int
) -> Iterator[Chunk]:
    """:func:`read_chunks` segment by segment, the first numbered ``first``."""
    start = index = first
    sentences = 0
    hyps: list[Segment] = []
    refss: list[list[Segment]] = []
    try:
        for hyp, refs in read_segments(hypotheses, references, first):
            hyps.append(hyp)
            refss.append(refs)
            sentences += 1 + len(refs)
            index += 1
            if sentences >= limit:
                yield start, hyps, refss
                start, hyps, refss, sentences = index, [], [], 0
    except InputError:
        if hyps:
            yield start, hyps, refss
        raise
    if hyps:
        yield start, hyps, refss
