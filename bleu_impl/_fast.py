"""The exact fast path for segment statistics: integer n-gram keys counted with numpy.

Same numbers as the reference path (``bleu_impl.ngrams``), computed in chunks:

1. Tokenize a chunk of segments (13a in one regex pass over the whole chunk, see
   :mod:`bleu_impl.tokenizers.tok13a_batch`).
2. Give every token a *segment-local* id ``1..D`` (``D`` = distinct tokens in the segment's
   hypothesis and references together): a chunk-wide dict numbers the tokens, one sort of
   ``(segment, number, position)`` ranks them per segment. Equal tokens of a segment get
   equal ids and different tokens different ids, so the mapping is exact for any
   vocabulary, and ids stay small whatever the vocabulary size.
3. Pack, for every token position, ``(segment, id_0, ..., id_{N-1}, source)`` into one int64
   (``id_j`` = 0 past the end of the sentence; source 0 = hypothesis, r = reference r). The
   bit widths are checked; a segment too long to fit is counted by the reference path.
4. Sort the keys once. For every order n the positions sharing a segment and an n-gram are
   one contiguous run (prefix order), so hypothesis and per-reference counts are cumulative
   sums sampled at run boundaries; ``min(hyp, max_r ref)`` summed per segment is ``m_n``.

Every knob value of ``knobs.CHOICES`` is supported (:func:`supports` says so for a config;
a knob added later falls back to the reference path). Pieces that are
rare or not vectorisable go through the reference code: non-``str`` segments use the
reference tokenizer, ``intl``/``char`` the reference tokenizers per line; NLTK's
last-segment smoothing context is computed by the reference code for the final segment;
``ref_length`` rules run per segment unless the vectorised form applies; a segment too long
for the bit budget is counted by ``ngrams.segment_stats``.
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import fields
from fractions import Fraction
from typing import Any

import numpy as np

from .errors import InputError
from .inputs import CHUNK_SENTENCES, read_chunks
from .knobs import CHOICES, KNOB_NAMES, STATS_KNOBS, Config
from .ngrams import last_segment, needs_last, segment_stats
from .reflength import MULTI_BLEU_MISSING_LENGTH, REF_LENGTH_RULES
from .stats import BleuStats, LastSegment
from .tokenizers import Pipeline


def supports(config: Config) -> bool:
    """Whether the fast path computes statistics for ``config`` (else use the reference).

    It does for every valid :class:`Config`: every statistics knob (``STATS_KNOBS``) with any
    value of its ``CHOICES``. A config with a field it does not know (a knob added later, a
    subclass) or an enumerated value outside ``CHOICES`` goes to the reference path.
    """
    if tuple(f.name for f in fields(config)) != KNOB_NAMES:
        return False
    return all(getattr(config, name) in CHOICES[name] for name in _ENUMERATED_STATS_KNOBS)


_ENUMERATED_STATS_KNOBS = tuple(name for name in STATS_KNOBS if name in CHOICES)


class Chunk:
    """Per-segment statistics of consecutive segments as arrays (rows = segments)."""

    def __init__(
        self,
        counts: np.ndarray,
        hyp_len: np.ndarray,
        ref_len: list[int | Fraction] | np.ndarray,
        config: Config,
        last: LastSegment | None,
    ) -> None:
        self.counts = counts
        self.hyp_len = hyp_len
        self.ref_len = ref_len
        self.config = config
        self.last = last

    def __len__(self) -> int:
        return len(self.hyp_len)

    def totals(self) -> np.ndarray:
        """Hypothesis n-gram totals per segment and order (floored if configured)."""
        orders = np.arange(self.config.max_order, dtype=np.int64)
        totals = np.maximum(self.hyp_len[:, None] - orders[None, :], 0)
        if self.config.denominator_floor == "per-segment":
            totals = np.maximum(totals, 1)
        return totals

    def summed(self) -> BleuStats:
        """The sum over the chunk's segments."""
        n = self.config.max_order
        if not len(self):
            return BleuStats.zero(n)
        ref_len = self.ref_len
        if isinstance(ref_len, np.ndarray):
            ref_total: int | Fraction = int(ref_len.sum())
        else:
            ref_total = _exact_sum(ref_len)
        return BleuStats(
            tuple(int(x) for x in self.counts.sum(axis=0)),
            tuple(int(x) for x in self.totals().sum(axis=0)),
            int(self.hyp_len.sum()),
            ref_total,
            len(self),
            self.last,
        )

    def segments(self) -> Iterator[BleuStats]:
        """One :class:`BleuStats` per segment (``last`` is left to the caller)."""
        totals = self.totals().tolist()
        ref_len = self.ref_len
        refs = ref_len.tolist() if isinstance(ref_len, np.ndarray) else ref_len
        for c, t, h, r in zip(self.counts.tolist(), totals, self.hyp_len.tolist(), refs):
            yield BleuStats(tuple(c), tuple(t), h, r, 1, None)


def _exact_sum(values: list[int | Fraction]) -> int | Fraction:
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


# ----------------------------------------------------------------------------- tokenizing


class Tokenized:
    """A chunk's tokens: ``toks`` = [hyp_0, refs_0..., hyp_1, refs_1...], ``ks`` = refs per
    segment (``uniform``: the common count, or -1)."""

    def __init__(self, toks: list[list[str]], ks: list[int]) -> None:
        self.toks = toks
        self.ks = ks
        first = ks[0] if ks else 0
        self.uniform = first if all(k == first for k in ks) else -1
        self._offsets: list[int] | None = None

    def __len__(self) -> int:
        return len(self.ks)

    def segment(self, i: int) -> tuple[list[str], list[list[str]]]:
        """(hypothesis tokens, reference token lists) of segment ``i``."""
        if self.uniform >= 0:
            at = i * (self.uniform + 1)
        else:
            if self._offsets is None:
                offsets, pos = [], 0
                for k in self.ks:
                    offsets.append(pos)
                    pos += k + 1
                self._offsets = offsets
            at = self._offsets[i]
        return self.toks[at], self.toks[at + 1 : at + 1 + self.ks[i]]


def _tokenize_chunk(
    hyps: list[Any], refss: list[list[Any]], config: Config, start: int
) -> Tokenized:
    """Tokens of every hypothesis and reference, raising errors in the reference path's order
    (per segment: reference tokens, hypothesis tokens, then the reference-count checks)."""
    ks = [len(refs) for refs in refss]
    bad = len(ks)
    if config.missing_refs == "error" or config.ref_length == "single":
        single = config.ref_length == "single"
        bad = next((i for i, k in enumerate(ks) if k == 0 or (single and k != 1)), bad)
    lines: list[Any] = []
    append, extend = lines.append, lines.extend
    for hyp, refs in zip(hyps, refss):
        append(hyp)
        extend(refs)
    pipeline = Pipeline(config)
    if all(type(line) is str for line in lines):
        if bad < len(ks):
            _check_refs(ks[bad], config, start + bad)
        return Tokenized(pipeline.batch(lines), ks)
    # Some segments are token sequences: the reference tokenizer validates them, refs first.
    tokens = pipeline.segment
    for hyp, refs in zip(hyps[: bad + 1], refss[: bad + 1]):
        for seg in (*refs, hyp):
            if type(seg) is not str:
                tokens(seg)
    if bad < len(ks):
        _check_refs(ks[bad], config, start + bad)
    slots: list[Any] = []
    pending: list[str] = []
    for line in lines:
        if type(line) is str:
            slots.append(len(pending))
            pending.append(line)
        else:
            slots.append(list(tokens(line)))
    done = pipeline.batch(pending)
    return Tokenized([done[s] if type(s) is int else s for s in slots], ks)


def _check_refs(k: int, config: Config, index: int) -> None:
    """The reference path's per-segment reference-count errors, raised at the same segment."""
    if k == 0 and config.missing_refs == "error":
        raise InputError(f"segment {index}: no reference (missing_refs='error')")
    if k and config.ref_length == "single" and k != 1:
        REF_LENGTH_RULES["single"](0, [0] * k)


# ----------------------------------------------------------------------------- counting


def _ref_lengths(
    chunk: Tokenized, lens: np.ndarray, config: Config
) -> list[int | Fraction] | np.ndarray:
    """The chosen reference length of every segment (vectorised for uniform counts)."""
    rule = config.ref_length
    k = chunk.uniform
    if k >= 1 and rule in ("closest", "closest-first", "shortest", "single"):
        table = lens.reshape(-1, k + 1)
        hyp, refs = table[:, 0], table[:, 1:]
        if rule in ("shortest", "single") or k == 1:
            return refs.min(axis=1)
        diff = np.abs(refs - hyp[:, None])
        if rule == "closest-first":
            return np.take_along_axis(refs, diff.argmin(axis=1)[:, None], axis=1)[:, 0]
        shift = np.int64(1) << np.int64(31)
        return (diff * shift + refs).min(axis=1) % shift
    fn = REF_LENGTH_RULES[rule]
    out: list[int | Fraction] = []
    for i in range(len(chunk)):
        hyp_toks, ref_toks = chunk.segment(i)
        if ref_toks:
            out.append(fn(len(hyp_toks), [len(r) for r in ref_toks]))
        else:
            out.append(MULTI_BLEU_MISSING_LENGTH)
    return out


def _local_ids(chunk: Tokenized, skip: set[int]) -> list[int]:
    """Segment-local token ids 1..L, flattened, for every segment not in ``skip``.

    Within a segment (hypothesis and references together) equal tokens share an id and
    different tokens get different ids: the id is the 1-based position of the token's last
    occurrence in the segment.
    """
    ids: list[int] = []
    extend = ids.extend
    toks = chunk.toks
    if chunk.uniform == 1 and not skip:
        it = iter(toks)
        for h, r in zip(it, it):
            both = h + r
            extend(map(dict(zip(both, range(1, len(both) + 1))).__getitem__, both))
        return ids
    for i in range(len(chunk)):
        if i in skip:
            continue
        h, rs = chunk.segment(i)
        both = list(h)
        for r in rs:
            both += r
        extend(map(dict(zip(both, range(1, len(both) + 1))).__getitem__, both))
    return ids


def _packed_counts(
    ids: np.ndarray | list[int], sent_len: np.ndarray, n_refs: np.ndarray, order: int, cap_bits: int
) -> np.ndarray:
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


class _Vocabulary(dict):
    """token -> id, numbering new tokens 0, 1, 2... on first lookup."""

    def __missing__(self, token: str) -> int:
        value = self[token] = len(self)
        return value


def _dense_local_ids(
    chunk: Tokenized, seg_total: np.ndarray, seg_start: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Segment-local ids (1..distinct tokens of the segment) of every token, and the number
    of distinct tokens per segment; None if the sort key would not fit in 63 bits.

    Tokens get chunk-wide ids from a dict; one sort of ``(segment, id, position)`` then
    ranks each segment's distinct ids, and the position in the key puts the rank back.
    """
    total = int(seg_total.sum())
    segs = len(seg_total)
    vocab = _Vocabulary()
    ids = np.fromiter(
        map(vocab.__getitem__, itertools.chain.from_iterable(chunk.toks)),
        dtype=np.int64,
        count=total,
    )
    id_bits = max(1, (len(vocab) - 1).bit_length())
    pos_bits = max(1, int(seg_total.max(initial=1)).bit_length())
    seg_bits = max(1, (segs - 1).bit_length())
    if seg_bits + id_bits + pos_bits > 63:
        return None
    seg_of = np.repeat(np.arange(segs, dtype=np.int64), seg_total)
    begin = np.repeat(seg_start, seg_total)  # the segment's first flat index, per token
    key = (seg_of << (id_bits + pos_bits)) | (ids << pos_bits)
    key |= np.arange(total, dtype=np.int64) - begin
    del ids, seg_of
    key.sort()  # segments keep their blocks: sizes and order are unchanged
    pair = key >> pos_bits
    new = np.empty(total, dtype=bool)
    new[:1] = True
    np.not_equal(pair[1:], pair[:-1], out=new[1:])
    del pair
    rank = np.cumsum(new, dtype=np.int64)
    del new
    local = np.empty(total, dtype=np.int64)
    local[begin + (key & ((1 << pos_bits) - 1))] = rank - rank[begin] + 1
    distinct = np.zeros(segs, dtype=np.int64)
    full = seg_total > 0
    first, last = seg_start[full], (seg_start + seg_total - 1)[full]
    distinct[full] = rank[last] - rank[first] + 1
    return local, distinct


def chunk_stats(chunk: Tokenized, config: Config) -> Chunk:
    """Statistics of a tokenized chunk (reference counts already checked)."""
    order = config.max_order
    segs = len(chunk)
    lens = np.fromiter(map(len, chunk.toks), dtype=np.int64, count=len(chunk.toks))
    ks = np.array(chunk.ks, dtype=np.int64)
    hyp_at = np.cumsum(ks + 1) - (ks + 1)
    hyp_len = lens[hyp_at]
    src_bits = max(1, int(ks.max(initial=0)).bit_length())
    seg_bits = max(1, (segs - 1).bit_length())
    bits = (63 - seg_bits - src_bits) // order
    cap = (1 << bits) - 1 if bits > 0 else 0
    seg_total = np.add.reduceat(lens, hyp_at) if len(lens) else np.zeros(0, dtype=np.int64)
    seg_start = np.cumsum(seg_total) - seg_total
    dense = _dense_local_ids(chunk, seg_total, seg_start)
    if dense is None:
        skip = set(np.flatnonzero(seg_total > cap).tolist())
        ids: np.ndarray | list[int] = _local_ids(chunk, skip)
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
        counts = np.zeros((segs, order), dtype=np.int64)
        counts[kept] = packed
        for row in sorted(skip):
            hyp_toks, ref_toks = chunk.segment(row)
            counts[row] = segment_stats(hyp_toks, ref_toks, config).counts
    else:
        counts = _packed_counts(ids, lens, ks, order, bits)
    ref_len = _ref_lengths(chunk, lens, config)
    last = None
    if needs_last(config) and segs:
        last = last_segment(*chunk.segment(segs - 1), config)
    return Chunk(counts, hyp_len, ref_len, config, last)


# ----------------------------------------------------------------------------- public


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic GC: the fast path allocates millions of acyclic lists and strs,
    and generation scans over them would otherwise cost as much as the counting."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def iter_chunks(
    hypotheses: Iterable[Any],
    references: Iterable[Any],
    config: Config,
    limit: int = CHUNK_SENTENCES,
) -> Iterator[tuple[Tokenized, Chunk]]:
    """Tokens and statistics chunk by chunk (streaming: one chunk in memory at a time)."""
    for start, hyps, refss in read_chunks(hypotheses, references, limit):
        with _gc_paused():
            tokenized = _tokenize_chunk(hyps, refss, config, start)
            del hyps, refss
            stats = chunk_stats(tokenized, config)
        yield tokenized, stats


def fast_corpus_stats(
    hypotheses: Iterable[Any],
    references: Iterable[Any],
    config: Config,
    limit: int = CHUNK_SENTENCES,
) -> BleuStats:
    """Corpus statistics identical to summing ``iter_segment_stats`` (bounded memory)."""
    total = BleuStats.zero(config.max_order)
    with _gc_paused():
        for start, hyps, refss in read_chunks(hypotheses, references, limit):
            tokenized = _tokenize_chunk(hyps, refss, config, start)
            del hyps, refss
            total = total + chunk_stats(tokenized, config).summed()
            del tokenized
    return total


def fast_segment_stats(
    hypotheses: Iterable[Any],
    references: Iterable[Any],
    config: Config,
    limit: int = CHUNK_SENTENCES,
) -> Iterator[BleuStats]:
    """Per-segment statistics identical to ``iter_segment_stats`` (for tests and tools)."""
    with_last = needs_last(config)
    for tokenized, chunk in iter_chunks(hypotheses, references, config, limit):
        for i, stats in enumerate(chunk.segments()):
            if with_last:
                last = last_segment(*tokenized.segment(i), config)
                stats = BleuStats(stats.counts, stats.totals, stats.hyp_len, stats.ref_len, 1, last)
            yield stats
