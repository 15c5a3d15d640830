"""A corpus-wide reference pool (``ref_scope="corpus"``, fast-bleu) on the fast path.

Every hypothesis is clipped against the largest count of each n-gram in any one reference of
the whole corpus (:mod:`bleu_impl.ref_pool`, the reference path). Here in numpy: tokens get
corpus-wide ids; the n-grams of order n get ids by ranking the pairs (id of the (n-1)-gram
prefix, id of the last token), so any vocabulary fits in int64; per order, one sort of
(n-gram, reference line) gives the pool's maximum count of each n-gram, one sort of
(hypothesis, n-gram) the hypothesis counts, and ``m_n = sum_g min(count, pool max)``.
The reference length is the rule's choice among the pool's lengths
(:func:`~bleu_impl.ref_pool.pool_lengths`), a function of the hypothesis length alone.

Joined n-grams equal tuple n-grams without a token holding a space; with one, the
reference path counts the corpus. Errors come in the reference path's order: reading and
token sequences segment by segment (hypothesis, then its references), an empty pool, then
the reference-length rule at segment 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from ..inputs import CHUNK_SENTENCES, Segment, read_segments
from ..knobs import Config
from ..ngrams import needs_last
from ..ref_pool import pool_lengths, pooled_segment_stats
from ..reflength import REF_LENGTH_RULES, RefLength
from ..stats import LastSegment
from ..tokenizers import Pipeline, pipelines
from .chunks import from_rows
from .count import ChunkStats
from .ids import Vocabulary
from .tokens import mixed_tokens

__all__ = [
    "LAST_ORDER",
    "chunked_token_ids",
    "pool_ref_lengths",
    "pooled_chunk",
    "pooled_counts",
    "pooled_lasts",
    "token_ids",
]

#: NLTK methods 5-7 read the order-5 clipped count (``ngrams.last_segment``).
LAST_ORDER = 5


def _read(
    hypotheses: Iterable[Any], references: Iterable[Any], hyp: Pipeline, ref: Pipeline
) -> tuple[list[Segment], list[list[Segment]]]:
    """Every segment, with its token sequences checked in the reference path's order (a
    reading error after the segments before it are checked)."""
    hyps: list[Segment] = []
    refss: list[list[Segment]] = []
    try:
        for h, refs in read_segments(hypotheses, references):
            hyps.append(h)
            refss.append(refs)
    except InputError:
        _check_sequences(hyps, refss, hyp, ref)
        raise
    _check_sequences(hyps, refss, hyp, ref)
    return hyps, refss


def _check_sequences(
    hyps: list[Segment], refss: list[list[Segment]], hyp: Pipeline, ref: Pipeline
) -> None:
    for h, refs in zip(hyps, refss):
        if type(h) is not str:
            hyp.segment(h)
        for r in refs:
            if type(r) is not str:
                ref.segment(r)


def _gram_ids(
    ids: NDArray[np.int64], room: NDArray[np.int32], order: int
) -> Iterator[tuple[NDArray[np.int32], NDArray[np.int32], int]]:
    """Per order n: (start positions of the n-grams inside a line, their n-gram ids,
    the number of distinct ids); ``room``: tokens from each position to its line's end.
    Positions and ids are int32 (callers keep corpora below 2**31 tokens)."""
    vocab = int(ids.max()) + 1 if len(ids) else 1
    sel = np.arange(len(ids), dtype=np.int32)
    gram, distinct = ids.astype(np.int32), vocab
    yield sel, gram, distinct
    for n in range(1, order):
        keep = room[sel] > n
        sel = sel[keep]
        pair = gram[keep].astype(np.int64) * vocab + ids[sel + n]
        del keep
        uniq, inverse = np.unique(pair, return_inverse=True)
        del pair
        gram = inverse.reshape(-1).astype(np.int32)
        distinct = max(len(uniq), 1)
        del uniq, inverse
        yield sel, gram, distinct


def token_ids(
    lines: Iterable[Sequence[str]], vocab: Vocabulary
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The corpus-wide ids (``vocab``) of the lines' tokens, flat, and each line's length."""
    lines = list(lines)
    lens = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    ids = np.fromiter(
        map(vocab.__getitem__, itertools.chain.from_iterable(lines)),
        dtype=np.int64,
        count=int(lens.sum()),
    )
    return ids, lens


def chunked_token_ids(
    lines: Sequence[Segment], pipeline: Pipeline, vocab: Vocabulary
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """:func:`token_ids` of the lines' tokens, tokenized a chunk at a time (no token list
    of the whole corpus is kept)."""
    parts = [
        token_ids(mixed_tokens(list(lines[at : at + CHUNK_SENTENCES]), pipeline), vocab)
        for at in range(0, len(lines), CHUNK_SENTENCES)
    ]
    if not parts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def pooled_counts(
    ids: NDArray[np.int64], lens: NDArray[np.int64], hyps: int, order: int
) -> NDArray[np.int64]:
    """Clipped matches (hypotheses x orders) against the pool: ``ids`` the corpus-wide
    token ids of the lines (``lens`` tokens each), the first ``hyps`` lines hypotheses,
    the others the pool's references."""
    counts = np.zeros((hyps, order), dtype=np.int64)
    if not len(ids) or not hyps:
        return counts
    if len(ids) >= 2**31:
        raise OverflowError("a corpus-wide pool of 2**31 tokens or more")
    lines = len(lens)
    line_of = np.repeat(np.arange(lines, dtype=np.int32), lens)
    room = (np.repeat(np.cumsum(lens), lens) - np.arange(len(ids))).astype(np.int32)
    hyp_tokens = int(lens[:hyps].sum())  # the hypotheses' tokens come first
    for n, (sel, gram, distinct) in enumerate(_gram_ids(ids, room, order), start=1):
        split = int(np.searchsorted(sel, hyp_tokens))  # sel is increasing
        best = np.zeros(distinct, dtype=np.int64)
        if split < len(sel):  # (n-gram, line) pairs sorted by n-gram: a run per n-gram
            ref_key = gram[split:].astype(np.int64) * lines + line_of[sel[split:]]
            uniq, per_line = np.unique(ref_key, return_counts=True)
            del ref_key
            grams = uniq // lines
            starts = np.flatnonzero(np.r_[True, grams[1:] != grams[:-1]])
            best[grams[starts]] = np.maximum.reduceat(per_line, starts)
            del uniq, per_line, grams, starts
        hyp_key = line_of[sel[:split]].astype(np.int64) * distinct + gram[:split]
        uniq, per_hyp = np.unique(hyp_key, return_counts=True)
        del hyp_key
        clipped = np.minimum(per_hyp, best[uniq % distinct])
        counts[:, n - 1] = np.bincount(uniq // distinct, weights=clipped, minlength=hyps).astype(
            np.int64
        )
    return counts


def pool_ref_lengths(hyp_len: list[int], ref_lens: list[int], config: Config) -> list[RefLength]:
    """Each hypothesis's reference length: the rule among the pool's lengths (``ref_lens``:
    every reference's), once per distinct hypothesis length (first for segment 0's, which
    raises the rule's error)."""
    rule = REF_LENGTH_RULES[config.ref_length]
    lengths = pool_lengths(ref_lens, config.ref_length)
    chosen: dict[int, RefLength] = {}
    for c in hyp_len:
        if c not in chosen:
            chosen[c] = rule(c, lengths)
    return [chosen[c] for c in hyp_len]


def pooled_lasts(
    counts: NDArray[np.int64], hyp_len: list[int], config: Config
) -> list[LastSegment]:
    """``ngrams.last_segment`` of every hypothesis against the pool: unfloored n-gram
    totals of orders 1..max(N, 5) and the order-5 (matches, max(1, total))."""
    top = max(config.max_order, LAST_ORDER)
    return [
        LastSegment(
            tuple(max(0, c - n + 1) for n in range(1, top + 1)),
            (m5, max(1, c - LAST_ORDER + 1)),
        )
        for c, m5 in zip(hyp_len, counts[:, LAST_ORDER - 1].tolist())
    ]


def pooled_chunk(
    hypotheses: Iterable[Any], references: Iterable[Any], config: Config, *, every_last: bool
) -> ChunkStats:
    """Every hypothesis's statistics against the pool of all references, as one chunk
    (``every_last``: every segment's last-segment data when the config carries it)."""
    hyp_pipeline, ref_pipeline = pipelines(config)
    hyps, refss = _read(hypotheses, references, hyp_pipeline, ref_pipeline)
    vocab = Vocabulary()
    hyp_ids, hyp_lens = chunked_token_ids(hyps, hyp_pipeline, vocab)
    ref_ids, ref_lens = chunked_token_ids([r for refs in refss for r in refs], ref_pipeline, vocab)
    if not len(ref_lens) and hyps:
        raise InputError(
            "segment 0: no reference in the corpus (ref_scope='corpus')", "missing-reference"
        )
    ks = [len(ref_lens)] * len(hyps)
    if config.ngram_join != "none" and any(" " in token for token in vocab):
        rows = list(pooled_segment_stats(hyps, refss, replace(config, aggregation="corpus")))
        return from_rows(rows, ks, config)
    del vocab
    last = needs_last(config)
    order = max(config.max_order, LAST_ORDER) if last else config.max_order
    ids, lens = np.concatenate([hyp_ids, ref_ids]), np.concatenate([hyp_lens, ref_lens])
    del hyp_ids, ref_ids
    counts = pooled_counts(ids, lens, len(hyps), order)
    hyp_len = hyp_lens.tolist()
    ref_len = pool_ref_lengths(hyp_len, ref_lens.tolist(), config)
    lasts = pooled_lasts(counts, hyp_len, config) if last and hyp_len else None
    return ChunkStats(
        counts[:, : config.max_order],
        hyp_lens,
        ref_len,
        config,
        lasts[-1] if lasts else None,
        ks,
        lasts if every_last else None,
    )
