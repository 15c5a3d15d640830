"""Corpus statistics over a ``dask.bag`` of shards (``pip install bleu-conformance[dask]``).

A shard is ``(index, start, hypotheses, references)``: its position among the shards, the
index of its first segment (for error messages) and its parallel lists; or a
:class:`FileShard`, a range of lines of parallel files that the worker reads itself, so that
the task graph carries paths and byte offsets, never the corpus. Each shard becomes
one ``BleuStats`` on a worker; the client adds them in shard order, so the result equals
the single-process statistics exactly (``last`` and macro aggregation's per-segment parts
included). A configuration whose statistics are not sums over segments is refused
(:func:`unshardable`): ``ref_scope="corpus"`` (fast-bleu) scores every hypothesis against
every reference of the corpus, which no shard holds.

    import dask.bag as db
    from bleu_impl.dask_bag import bag_stats, shards
    bag = db.from_sequence(shards(hyps, refs, size=50_000), npartitions=8)
    stats = bag_stats(bag, config)
    pieces = file_shards("hyp.txt", ["ref0.txt", "ref1.txt"], parts=16)  # workers read them
    stats = bag_stats(db.from_sequence(pieces, npartitions=len(pieces)), config)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InputError, KnobError
from .inputs import Segment, read_chunks
from .knobs import Config
from .parallel import chunk_sum
from .stats import BleuStats

__all__ = [
    "FileShard",
    "Shard",
    "bag_stats",
    "file_shards",
    "merge",
    "shard_stats",
    "shards",
    "unshardable",
]

Shard = tuple[int, int, list[Segment], list[list[Segment]]]


def shards(
    hypotheses: Iterable[Any], references: Iterable[Any], size: int = 50_000
) -> Iterator[Shard]:
    """Cut a corpus into validated shards of about ``size`` sentences (hyps + refs)."""
    for index, (start, hyps, refss) in enumerate(read_chunks(hypotheses, references, size)):
        yield index, start, hyps, refss


@dataclass(frozen=True)
class FileShard:
    """Lines ``start..stop-1`` (0-based) of parallel files, shard number ``index``:
    ``spans`` holds ``(path, first byte, end byte)`` per file, the hypotheses' first."""

    index: int
    start: int
    stop: int
    spans: tuple[tuple[str, int, int], ...]

    def read(self) -> Shard:
        """The shard's lines as a :data:`Shard` (InputError naming the file and line)."""
        hyps, *refs = [self._lines(*span) for span in self.spans]
        refss = [list(r) for r in zip(*refs)] if refs else [[] for _ in hyps]
        return self.index, self.start, list(hyps), refss

    def _lines(self, path: str, begin: int, end: int) -> list[str]:
        with open(path, "rb") as stream:
            stream.seek(begin)
            data = stream.read(end - begin)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = self.start + data.count(b"\n", 0, exc.start) + 1
            raise InputError(f"{path}:{line}: invalid UTF-8 ({exc.reason})") from None
        if "\0" in text:  # as conformance.textio: UTF-16 without a byte-order mark, or binary
            line = self.start + text.count("\n", 0, text.index("\0")) + 1
            raise InputError(f"{path}:{line}: NUL byte: not a UTF-8 text file")
        lines = text.split("\n")
        if lines[-1] == "":  # the range ends with a line end
            lines.pop()
        if len(lines) != self.stop - self.start:
            raise InputError(f"{path}: changed while it was read (lines {self.start + 1}..)")
        return lines


_BLOCK = 1 << 20


def _scan(path: str, wanted: Sequence[int]) -> tuple[int, list[int]]:
    """``(lines of path, byte offset where each line in wanted starts)``; ``wanted``:
    ascending 0-based line numbers. One pass in blocks: memory stays bounded."""
    if path == "-" or path.endswith(".gz"):
        raise InputError(
            f"{path}: Dask workers read byte ranges of plain files; decompress it first "
            "(or read it in one process and pass the lines to shards())"
        )
    offsets: list[int] = []
    targets = iter(wanted)
    target = next(targets, None)
    lines = position = 0
    last = b"\n"
    try:
        with open(path, "rb") as stream:
            while block := stream.read(_BLOCK):
                newlines = block.count(b"\n")
                while target is not None and lines + newlines >= target:
                    at = -1  # line ``target`` starts after the target-th line end
                    for _ in range(target - lines):
                        at = block.find(b"\n", at + 1)
                    offsets.append(position + at + 1)
                    target = next(targets, None)
                lines += newlines
                position += len(block)
                last = block[-1:]
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return lines + (last != b"\n"), [*offsets, position]


def file_shards(
    hypothesis_path: str, reference_paths: Sequence[str], parts: int = 16
) -> list[FileShard]:
    """Cut parallel files into up to ``parts`` shards of consecutive lines, by a scan for
    line ends on the client (InputError when the files differ in length)."""
    paths = [hypothesis_path, *reference_paths]
    total = _scan(hypothesis_path, ())[0]
    cuts = sorted({total * k // parts for k in range(max(1, parts))} | {total})
    scanned = [_scan(path, cuts[:-1]) for path in paths]
    for path, (lines, _) in zip(paths, scanned):
        if lines != total:
            raise InputError(
                f"line count mismatch: {path} has {lines} lines but {hypothesis_path} has {total}"
            )
    return [
        FileShard(
            i, cuts[i], cuts[i + 1], tuple((p, o[i], o[i + 1]) for p, (_, o) in zip(paths, scanned))
        )
        for i in range(len(cuts) - 1)
    ]


def unshardable(config: Config) -> str | None:
    """Why ``config``'s corpus statistics are not the sum of its shards', or None."""
    if config.ref_scope != "segment":
        return (
            f"ref_scope={config.ref_scope!r} is not each segment's own references as given, "
            "which is all a shard is scored against: score it in one process (corpus_stats)"
        )
    return None


def _check(config: Config) -> None:
    why = unshardable(config)
    if why is not None:
        raise KnobError(f"cannot shard these statistics over Dask: {why}")


def shard_stats(shard: Shard | FileShard, config: Config) -> tuple[int, BleuStats]:
    """``(shard index, summed statistics)`` of one shard (KnobError: :func:`unshardable`)."""
    _check(config)
    index, start, hyps, refss = shard.read() if isinstance(shard, FileShard) else shard
    return index, chunk_sum(start, hyps, refss, config)


def merge(results: Iterable[tuple[int, BleuStats]], max_order: int) -> BleuStats:
    """Add shard statistics in shard order."""
    total = BleuStats.zero(max_order)
    for _, stats in sorted(results, key=lambda item: item[0]):
        total = total + stats
    return total


def bag_stats(bag: Any, config: Config, **compute_kwargs: Any) -> BleuStats:
    """Map a bag of shards to statistics on the workers and merge them on the client
    (KnobError, before any work, for a configuration that is :func:`unshardable`)."""
    _check(config)
    results = bag.map(shard_stats, config=config).compute(**compute_kwargs)
    return merge(results, config.max_order)
