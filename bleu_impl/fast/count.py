"""Counting a tokenized chunk: clipped matches by one sort of packed n-gram keys.

For every token position, ``(segment, id_0, ..., id_{N-1}, source)`` is packed into one
int64 (``id_j`` = the segment-local id of the token j places on, 0 past the end of the
sentence; source 0 = hypothesis, r = reference r). The bit widths are checked; a segment with
too many distinct tokens to fit is counted order by order (:mod:`~bleu_impl.fast.wide`).
After one sort, the
positions sharing a segment and an n-gram are one contiguous run for every order n (prefix
order), so hypothesis and per-reference counts are cumulative sums sampled at run
boundaries, and ``min(hyp, max_r ref)`` summed per segment is ``m_n``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from ..knobs import Config
from ..ngrams import last_segment, needs_last
from ..reflength import MULTI_BLEU_MISSING_LENGTH, REF_LENGTH_RULES, RefLength
from ..stats import BleuStats, LastSegment, counted_stats
from ..tokenizers import Pipeline
from .ids import dense_local_ids, local_ids
from .kernel import kernel_counts, kernel_text_counts
from .tokens import ChunkTokens, uniform
from .wide import wide_counts

__all__ = ["ChunkStats", "chunk_stats", "ref_lengths", "text_stats"]


class ChunkStats:
    """Per-segment statistics of consecutive segments as arrays (rows = segments): clipped
    ``counts``, hypothesis lengths, chosen reference lengths, the references per segment
    (``ks``), the last segment's data (``last``) and, when asked for, every segment's
    (``lasts``)."""

    def __init__(
        self,
        counts: NDArray[np.int64],
        hyp_len: NDArray[np.int64],
        ref_len: list[RefLength] | NDArray[np.int64],
        config: Config,
        last: LastSegment | None,
        ks: Sequence[int],
        lasts: list[LastSegment] | None = None,
    ) -> None:
        self.counts = counts
        self.hyp_len = hyp_len
        self.ref_len = ref_len
        self.config = config
        self.last = last
        self.ks = ks
        self.lasts = lasts

    @property
    def missing(self) -> int:
        """Segments without a reference (``missing_refs="len-9999"``)."""
        return list(self.ks).count(0)

    def __len__(self) -> int:
        return len(self.hyp_len)

    def totals(self) -> NDArray[np.int64]:
        """Hypothesis n-gram totals per segment and order (floored if configured)."""
        orders = np.arange(self.config.max_order, dtype=np.int64)
        totals: NDArray[np.int64] = np.maximum(self.hyp_len[:, None] - orders[None, :], 0)
        if self.config.denominator_floor == "per-segment":
            totals = np.maximum(totals, 1)
        return totals

    def summed(self, *, parts: bool = False) -> BleuStats:
        """The sum over the chunk's segments (with ``parts``: carrying every segment's
        statistics, as the reference path sums them under ``aggregation="macro"``)."""
        n = self.config.max_order
        if not len(self):
            return BleuStats.zero(n)
        ref_len = self.ref_len
        if isinstance(ref_len, np.ndarray):
            ref_total: RefLength = int(ref_len.sum())
        else:
            ref_total = _exact_sum(ref_len)
        return BleuStats(
            tuple(int(x) for x in self.counts.sum(axis=0)),
            tuple(int(x) for x in self.totals().sum(axis=0)),
            int(self.hyp_len.sum()),
            ref_total,
            len(self),
            self.last,
            self.missing,
            tuple(self.rows()) if parts else None,
        )

    def rows(self) -> list[BleuStats]:
        """Every segment's statistics, as ``ngrams.segment_stats`` gives them (``last``
        needs ``lasts`` when the config carries it)."""
        ref_len = self.ref_len
        refs = ref_len.tolist() if isinstance(ref_len, np.ndarray) else ref_len
        lasts: Sequence[LastSegment | None] = self.lasts or [None] * len(self)
        if needs_last(self.config) and self.lasts is None:
            raise ValueError("rows() of a chunk counted without every segment's last data")
        return [
            counted_stats(tuple(c), tuple(t), h, r, last, 0 if k else 1)
            for c, t, h, r, last, k in zip(
                self.counts.tolist(),
                self.totals().tolist(),
                self.hyp_len.tolist(),
                refs,
                lasts,
                self.ks,
            )
        ]


def _exact_sum(values: list[RefLength]) -> RefLength:
    """Sum ints and Fractions exactly; Fractions grouped by denominator (fast)."""
    ints = 0
    by_den: dict[int, int] = {}
    for v in values:
        if type(v) is int:
            ints += v
        else:
            by_den[v.denominator] = by_den.get(v.denominator, 0) + v.numerator
    if not by_den:
        return ints
    total: Fraction = Fraction(ints)
    for den, num in by_den.items():
        total += Fraction(num, den)
    return total


def ref_lengths(
    lens: NDArray[np.int64], ks: Sequence[int], uniform: int, config: Config
) -> list[RefLength] | NDArray[np.int64]:
    """The chosen reference length of every segment from the sentence lengths (``lens``:
    hypothesis then its ``ks[i]`` references, per segment; ``uniform``: the common ``k`` or
    -1), vectorised for uniform counts."""
    rule = config.ref_length
    k = uniform
    if k >= 1 and rule in ("closest", "closest-first", "shortest", "single", "closest-9999"):
        table = lens.reshape(-1, k + 1)
        hyp, refs = table[:, 0], table[:, 1:]
        if rule in ("shortest", "single") or (k == 1 and rule != "closest-9999"):
            shortest: NDArray[np.int64] = refs.min(axis=1)
            return shortest
        diff = np.abs(refs - hyp[:, None])
        if rule == "closest-first":
            return np.take_along_axis(refs, diff.argmin(axis=1)[:, None], axis=1)[:, 0]
        shift = np.int64(1) << np.int64(31)
        key = (diff * shift + refs).min(axis=1)
        if rule == "closest-9999":  # multi-bleu's initial (difference, length)
            key = np.minimum(key, MULTI_BLEU_MISSING_LENGTH * shift + MULTI_BLEU_MISSING_LENGTH)
        closest: NDArray[np.int64] = key % shift
        return closest
    fn = REF_LENGTH_RULES[rule]
    out: list[RefLength] = []
    sizes = lens.tolist()
    at = 0
    for k_i in ks:
        if k_i:
            out.append(fn(sizes[at], sizes[at + 1 : at + 1 + k_i]))
        else:
            out.append(MULTI_BLEU_MISSING_LENGTH)
        at += k_i + 1
    return out


def _packed_counts(
    ids: NDArray[np.int64] | list[int],
    sent_len: NDArray[np.int64],
    n_refs: NDArray[np.int64],
    order: int,
    cap_bits: int,
) -> NDArray[np.int64]:
    """Clipped matches (segments x orders) of the packed segments, by one sort.

    Orders are processed from 1 up; after order n only positions in a run (same segment,
    same n-gram) holding both hypothesis and reference positions are kept: a longer
    n-gram can only match where its prefix matched, and the sorted order survives.
    """
    segs = len(n_refs)
    counts = np.zeros((segs, order), dtype=np.int64)
    total = len(ids)
    if not total or not segs:
        return counts
    kmax = int(n_refs.max())
    src_bits = max(1, kmax.bit_length())
    loc = np.zeros(total + order, dtype=np.int64)
    loc[:total] = ids
    bits = min(cap_bits, max(1, int(loc.max()).bit_length()))
    per_seg = n_refs + 1
    sent_seg = np.repeat(np.arange(segs, dtype=np.int64), per_seg)
    first = np.cumsum(per_seg) - per_seg
    sent_src = np.arange(len(sent_len), dtype=np.int64) - np.repeat(first, per_seg)
    rem = np.repeat(np.cumsum(sent_len), sent_len) - np.arange(total, dtype=np.int64)
    key = (np.repeat(sent_seg, sent_len) << bits) | loc[:total]
    for j in range(1, order):
        key <<= bits
        key |= np.where(rem > j, loc[j : j + total], 0)
    del rem, loc
    key <<= src_bits
    key |= np.repeat(sent_src, sent_len)
    key.sort()
    src_mask = (1 << src_bits) - 1
    token_mask = (1 << bits) - 1
    for n in range(1, order + 1):
        size = len(key)
        if not size:
            break
        shift = (order - n) * bits + src_bits
        starts = np.flatnonzero((key[1:] ^ key[:-1]) >= (1 << shift))
        starts += 1
        starts = np.concatenate(([0], starts))
        ends = np.append(starts[1:], size)
        src = key & src_mask
        hyp_cs = np.zeros(size + 1, dtype=np.int32)
        np.cumsum(src == 0, out=hyp_cs[1:])
        hyp_c = hyp_cs[ends] - hyp_cs[starts]
        if kmax == 1:
            ref_c = (ends - starts) - hyp_c
        else:
            ref_c = np.zeros(len(starts), dtype=np.int32)
            ref_cs = np.zeros(size + 1, dtype=np.int32)
            for r in range(1, kmax + 1):
                np.cumsum(src == r, out=ref_cs[1:])
                np.maximum(ref_c, ref_cs[ends] - ref_cs[starts], out=ref_c)
        del src
        matched = np.minimum(hyp_c, ref_c)
        head = key[starts] >> shift
        keep = (matched > 0) & ((head & token_mask) != 0)  # no run past a sentence end
        counts[:, n - 1] = np.bincount(
            head[keep] >> (n * bits), weights=matched[keep], minlength=segs
        ).astype(np.int64)
        if n < order:
            key = key[np.repeat(keep, ends - starts)]
    return counts


def _numpy_counts(
    chunk: ChunkTokens,
    lens: NDArray[np.int64],
    ks: NDArray[np.int64],
    hyp_at: NDArray[np.int64],
    order: int,
) -> NDArray[np.int64]:
    """Clipped matches (segments x orders) without the kernel: dense local ids, then one
    sort of packed keys (:func:`_packed_counts`); too wide segments by :func:`wide_counts`."""
    segs = len(chunk)
    src_bits = max(1, int(ks.max(initial=0)).bit_length())
    seg_bits = max(1, (segs - 1).bit_length())
    bits = (63 - seg_bits - src_bits) // order
    cap = (1 << bits) - 1 if bits > 0 else 0
    seg_total = np.add.reduceat(lens, hyp_at) if len(lens) else np.zeros(0, dtype=np.int64)
    seg_start = np.cumsum(seg_total) - seg_total
    dense = dense_local_ids(chunk, seg_total, seg_start)
    if dense is None:
        skip = set(np.flatnonzero(seg_total > cap).tolist())
        ids: NDArray[np.int64] | list[int] = local_ids(chunk, skip)
    else:
        ids, distinct = dense
        skip = set(np.flatnonzero(distinct > cap).tolist())
        if skip:
            kept = np.ones(segs, dtype=bool)
            kept[list(skip)] = False
            ids = ids[np.repeat(kept, seg_total)]
    if skip:
        kept = np.ones(segs, dtype=bool)
        kept[list(skip)] = False
        sent_kept = np.repeat(kept, ks + 1)
        packed = _packed_counts(ids, lens[sent_kept], ks[kept], order, bits)
        counts: NDArray[np.int64] = np.zeros((segs, order), dtype=np.int64)
        counts[kept] = packed
        for row in sorted(skip):  # too many distinct tokens for one key: order by order
            counts[row] = wide_counts(*chunk.segment(row), order)
    else:
        counts = _packed_counts(ids, lens, ks, order, bits)
    return counts


def chunk_stats(chunk: ChunkTokens, config: Config, *, every_last: bool = False) -> ChunkStats:
    """Statistics of a tokenized chunk (reference counts already checked; each segment
    against its own references, n-grams as tuples: under a joined config no token may hold
    a space, see :func:`~bleu_impl.fast.chunks.count_chunk`). ``every_last``: keep every
    segment's last-segment data (``lasts``) when the config carries it."""
    order = config.max_order
    segs = len(chunk)
    lens = np.fromiter(map(len, chunk.toks), dtype=np.int64, count=len(chunk.toks))
    ks = np.array(chunk.ks, dtype=np.int64)
    hyp_at = np.cumsum(ks + 1) - (ks + 1)
    counts = kernel_counts(chunk.toks, chunk.ks, order)
    if counts is None:
        counts = _numpy_counts(chunk, lens, ks, hyp_at, order)
    lasts = None
    if needs_last(config) and every_last:
        lasts = [last_segment(*chunk.segment(i), config) for i in range(segs)]
    last = None
    if needs_last(config) and segs:
        last = lasts[-1] if lasts else last_segment(*chunk.segment(segs - 1), config)
    return _finished(counts, lens, chunk.ks, chunk.uniform, config, last, lasts)


def text_stats(lines: list[str], ks: list[int], pipeline: Pipeline) -> ChunkStats | None:
    """Statistics of a chunk of prepared raw lines (:func:`~bleu_impl.fast.tokens.
    chunk_texts`) tokenized by ``pipeline`` (13a: by the kernel, unless it lowercases between
    13a's steps), split and counted by the kernel; None where it does not take them (no
    kernel, a ``split`` it does not know, NLTK's last-segment data, a too long segment)."""
    config = pipeline.config
    if needs_last(config):
        return None
    raw = config.tokenize == "13a" and pipeline.stage != "after-entities"
    texts = lines if raw else pipeline.unsplit(lines)
    counted = kernel_text_counts(texts, ks, config.max_order, config.split, tokenize_13a=raw)
    if counted is None:
        return None
    counts, lens = counted
    return _finished(counts, lens, ks, uniform(ks), config, None, None)


def _finished(
    counts: NDArray[np.int64],
    lens: NDArray[np.int64],
    ks: list[int],
    common: int,
    config: Config,
    last: LastSegment | None,
    lasts: list[LastSegment] | None,
) -> ChunkStats:
    """A chunk's statistics from its clipped matches and sentence lengths (``common``:
    the references every segment has, or -1)."""
    hyp_at = np.cumsum(np.array(ks, dtype=np.int64) + 1) - 1 - np.array(ks, dtype=np.int64)
    ref_len = ref_lengths(lens, ks, common, config)
    return ChunkStats(counts, lens[hyp_at], ref_len, config, last, ks, lasts)
