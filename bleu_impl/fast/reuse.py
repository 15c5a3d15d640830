"""Statistics of many corpora that share lines, under many configs, with the work shared.

A config's per-segment statistics are the clipped matches of its tokens (which depend on the
tokens, the highest order and the reference scope only), then cheap per-segment rules:
hypothesis lengths, totals, the chosen reference length, the last segment's data. A
:class:`Store` keeps the tokens of every line per tokenization (:class:`.lines.LineTokens`,
so systems scored on the same references tokenize those once) and the clipped matches of
every corpus per tokenization, order and scope -- and per content: two tokenizations that
split a corpus alike share them -- and applies the rules per config. The counting is the
fast path's own (:func:`.count.chunk_stats` on chunks of ``CHUNK_SENTENCES`` sentences,
:func:`.ref_pool_counts.pooled_counts`), so the statistics are the fast path's.

It takes what it can answer without an error: every line a ``str``, as many reference
lists as hypotheses, reference counts the config accepts, a config the fast path supports
(joined n-grams only when no token holds a space). Anything else is None: the caller
counts it the usual way (and raises the usual error). Memory is bounded: the remembered
lines take at most about ``budget`` bytes (a request that could pass it first forgets them;
a corpus that could take half of it is tokenized a chunk at a time and only its counts are
kept) and the counts at most about ``budget`` bytes of arrays (:class:`.counted.CountsCache`,
the least recently used forgotten first). A corpus whose lines all equal their ``rstrip()``
is counted once for ``line_prep`` "none" and "rstrip".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property, partial
from itertools import chain
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import CHUNK_SENTENCES, CUT_SCOPES
from ..knobs import Config
from ..ngrams import last_segment, needs_last
from ..tokenizers import Pipeline, pipelines
from . import supports_corpus
from .corpus_sums import gc_paused
from .count import ChunkStats, chunk_stats, ref_lengths
from .counted import Counted, CountsCache
from .ids import Vocabulary
from .lines import LINE_BYTES, POINTER_BYTES, TUPLE_BYTES, LineTokens, tokenization, unstripped
from .ref_pool_counts import (
    LAST_ORDER,
    chunked_token_ids,
    pool_ref_lengths,
    pooled_counts,
    pooled_lasts,
    token_ids,
)
from .tokens import ChunkTokens, interleave

__all__ = ["DEFAULT_BUDGET", "Store", "plain_inputs"]

#: Distinct corpora remembered (their ids are never reused).
_MAX_CORPORA = 1024

#: Bytes of remembered lines before they are forgotten (about), and of remembered counts.
#: About 320 MB at most in all.
DEFAULT_BUDGET = 160_000_000

#: A corpus of raw lines: hypotheses and each one's references.
Plain = tuple[list[str], list[list[str]]]


def plain_inputs(hypotheses: Any, references: Any) -> Plain | None:
    """The corpus as lists of ``str`` when it is one (lists or tuples of str, each
    hypothesis with a list or tuple of str references), else None."""
    if type(hypotheses) not in (list, tuple) or type(references) not in (list, tuple):
        return None
    if len(hypotheses) != len(references) or set(map(type, hypotheses)) - {str}:
        return None
    if set(map(type, references)) - {list, tuple}:
        return None
    if set(map(type, chain.from_iterable(references))) - {str}:
        return None
    return list(hypotheses), list(map(list, references))


def _counts_accepted(ks: list[int], config: Config) -> bool:
    """Whether the reference counts raise nothing under ``config``."""
    if config.ref_scope == "corpus":
        pool = sum(ks)
        return (pool > 0 or not ks) and (config.ref_length != "single" or pool == 1 or not ks)
    missing = config.missing_refs != "len-9999" and 0 in ks  # only its sentinel is counted
    return not missing and (config.ref_length != "single" or all(k <= 1 for k in ks))


def _spans(ks: list[int]) -> Iterator[tuple[int, int, int, int]]:
    """Consecutive segments of about ``CHUNK_SENTENCES`` sentences: (first segment, end,
    first sentence, end) of each."""
    start = at = 0
    while start < len(ks):
        stop, size = start, 0
        while stop < len(ks) and (size < CHUNK_SENTENCES or stop == start):
            size += ks[stop] + 1
            stop += 1
        yield start, stop, at, at + size
        start, at = stop, at + size


def _counted(chunks: Iterable[tuple[list[list[str]], list[int]]], order: int) -> Counted:
    """The clipped matches of tuple n-grams per segment of consecutive chunks (tokens in
    chunk order, references per segment), the sentence lengths and whether a token holds
    a space."""
    plain = Config(max_order=order, missing_refs="len-9999")
    counts, lens, spaced = [], [], False
    for toks, ks in chunks:
        counts.append(chunk_stats(ChunkTokens(toks, ks), plain).counts)
        lens.append(np.fromiter(map(len, toks), dtype=np.int64, count=len(toks)))
        spaced = spaced or " " in "\n".join(chain.from_iterable(toks))
    if not counts:
        return Counted.of(np.zeros((0, order), dtype=np.int64), np.zeros(0, np.int64), False)
    return Counted.of(np.concatenate(counts), np.concatenate(lens), spaced)


def _pooled_counted(
    hyps: tuple[NDArray[np.int64], NDArray[np.int64]],
    refs: tuple[NDArray[np.int64], NDArray[np.int64]],
    order: int,
) -> Counted:
    """Clipped matches against the pool from the token ids and lengths of the hypotheses
    and of the references (one vocabulary)."""
    ids, lens = np.concatenate([hyps[0], refs[0]]), np.concatenate([hyps[1], refs[1]])
    return Counted.of(pooled_counts(ids, lens, len(hyps[1]), order), lens, False)


@dataclass(frozen=True)
class _Request:
    """One corpus under one config: its lines, references per segment and pipelines."""

    hyps: list[str]
    refss: list[list[str]]
    ks: list[int]
    config: Config
    hyp_pipe: Pipeline
    ref_pipe: Pipeline

    @property
    def pooled(self) -> bool:
        return self.config.ref_scope == "corpus"

    @cached_property
    def bytes(self) -> int:
        """A bound on what remembering the corpus's lines takes: a line each, a tuple
        each, a pointer per token (tokens are at most characters)."""
        lines = len(self.hyps) + sum(self.ks)
        chars = sum(map(len, self.hyps)) + sum(map(len, self.flat))
        return (LINE_BYTES + TUPLE_BYTES) * lines + POINTER_BYTES * chars

    @cached_property
    def flat(self) -> list[str]:
        """Every reference, in order."""
        return [r for refs in self.refss for r in refs]


class Store:
    """Remembered tokens and clipped matches; :meth:`chunk` is a corpus's statistics."""

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self._tokens = LineTokens()
        self._corpora: dict[tuple[Any, ...], int] = {}  # corpus -> id (never reused)
        self._next_corpus = 0
        self._stripped: dict[int, bool] = {}  # corpus id -> every line equals its rstrip()
        # ("corpus", corpus id, tokenizations, ...) and ("content", content ids, ...)
        self._counted = CountsCache(budget)

    def chunk(self, hypotheses: Any, references: Any, config: Config) -> ChunkStats | None:
        """The corpus's per-segment statistics under ``config`` as one chunk (every
        segment's last data included), or None when it does not take them (the cyclic GC
        paused: the lines and tokens are millions of acyclic objects)."""
        with gc_paused():
            return self._chunk(hypotheses, references, config)

    def _chunk(self, hypotheses: Any, references: Any, config: Config) -> ChunkStats | None:
        plain = plain_inputs(hypotheses, references)
        if plain is None or not supports_corpus(config) or config.ref_scope in CUT_SCOPES:
            return None  # references cut (ref_scope): counted the usual way, on the cut input
        hyps, refss = plain
        ks = [len(r) for r in refss]
        if not hyps or not _counts_accepted(ks, config):
            return None
        request = _Request(hyps, refss, ks, config, *pipelines(config))
        streamed = 2 * request.bytes > self.budget  # its lines are not remembered
        if streamed and needs_last(config):
            return None
        counted = self._count(request, streamed)
        if counted is None:
            return None
        if request.pooled:
            return self._pooled(counted, len(hyps), sum(ks), config)
        return self._segments(counted, request)

    def _corpus(self, request: _Request) -> int:
        key = (tuple(request.hyps), tuple(request.flat), tuple(request.ks))
        found = self._corpora.get(key)
        if found is None:
            if len(self._corpora) >= _MAX_CORPORA:
                self._corpora.clear()  # their ids are not reused: their counts age out
                self._stripped.clear()
            found = self._corpora[key] = self._next_corpus
            self._next_corpus += 1
        return found

    def _ids(self, request: _Request) -> tuple[list[int], list[int]]:
        """The content ids of the hypotheses and of the references (flat, in order)."""
        if self._tokens.size + request.bytes > self.budget:
            self._tokens.clear()  # content ids start again: forget their counts too
            self._counted.forget("content")
        hyp_ids = self._tokens.ids(request.hyp_pipe, request.hyps)
        return hyp_ids, self._tokens.ids(request.ref_pipe, request.flat)

    def _count(self, request: _Request, streamed: bool) -> Counted | None:
        """The corpus's counts (remembered by corpus and tokenization, and by the tokens:
        tokenizations that split this corpus alike share them; a ``streamed`` corpus is
        tokenized a chunk at a time and its counts kept by corpus and tokenization only);
        None for joined n-grams of tokens with spaces."""
        config = request.config
        order = config.max_order
        if request.pooled and needs_last(config):
            order = max(order, LAST_ORDER)
        corpus = self._corpus(request)
        hyp_pipe, ref_pipe = request.hyp_pipe, request.ref_pipe
        if config.line_prep == "rstrip" and self._is_stripped(corpus, request):
            hyp_pipe, ref_pipe = unstripped(hyp_pipe), unstripped(ref_pipe)
        key = (
            "corpus",
            corpus,
            tokenization(hyp_pipe),
            tokenization(ref_pipe),
            request.pooled,
            order,
        )
        found = self._counted.get(key)
        if found is None and streamed:
            found = self._streamed(request, order)
            self._counted.put(key, found)
        if found is None:
            hyp_ids, ref_ids = self._ids(request)
            content = (
                "content",
                _packed(hyp_ids),
                _packed(ref_ids),
                _packed(request.ks),
                request.pooled,
                order,
            )
            found = self._counted.get(content)
            if found is None:
                found = self._counts(hyp_ids, ref_ids, request, order)
                self._counted.put(content, found)
            self._counted.put(key, found)
        if found.spaced and config.ngram_join != "none":
            return None  # joined n-grams of tokens with spaces are not tuple n-grams
        return found

    def _is_stripped(self, corpus: int, request: _Request) -> bool:
        """Whether every line of the corpus equals its ``rstrip()`` (remembered)."""
        found = self._stripped.get(corpus)
        if found is None:
            lines = chain(request.hyps, request.flat)
            found = self._stripped[corpus] = all(line == line.rstrip() for line in lines)
        return found

    def _counts(
        self, hyp_ids: list[int], ref_ids: list[int], request: _Request, order: int
    ) -> Counted:
        """The counts from the remembered tokens."""
        hyp_toks = list(map(list, self._tokens.tokens(hyp_ids)))
        ref_toks = list(map(list, self._tokens.tokens(ref_ids)))
        if request.pooled:
            vocab = Vocabulary()
            counted = _pooled_counted(token_ids(hyp_toks, vocab), token_ids(ref_toks, vocab), order)
            return replace(counted, spaced=any(" " in t for t in vocab))
        toks = interleave(hyp_toks, ref_toks, request.ks)
        spans = _spans(request.ks)
        return _counted(((toks[a:b], request.ks[s:e]) for s, e, a, b in spans), order)

    def _streamed(self, request: _Request, order: int) -> Counted:
        """The counts tokenizing a chunk at a time, nothing remembered."""
        if request.pooled:
            vocab = Vocabulary()
            hyps = chunked_token_ids(request.hyps, request.hyp_pipe, vocab)
            refs = chunked_token_ids(request.flat, request.ref_pipe, vocab)
            counted = _pooled_counted(hyps, refs, order)
            return replace(counted, spaced=any(" " in t for t in vocab))
        return _counted(map(partial(_chunk_tokens, request), _spans(request.ks)), order)

    def _segments(self, counted: Counted, request: _Request) -> ChunkStats:
        """Each segment against its own references."""
        config, ks, lens = request.config, request.ks, counted.lens
        k = np.asarray(ks, dtype=np.int64)
        hyp_len = lens[np.cumsum(k + 1) - (k + 1)]
        uniform = ks[0] if all(x == ks[0] for x in ks) else -1
        ref_len = ref_lengths(lens, ks, uniform, config)
        lasts = None
        if needs_last(config):
            hyp_ids, ref_ids = self._ids(request)
            refs_of = iter(self._tokens.tokens(ref_ids))
            lasts = [
                last_segment(h, [next(refs_of) for _ in range(n)], config)
                for h, n in zip(self._tokens.tokens(hyp_ids), ks)
            ]
        last = lasts[-1] if lasts else None
        return ChunkStats(counted.counts, hyp_len, ref_len, config, last, ks, lasts)

    def _pooled(self, counted: Counted, hyps: int, pool: int, config: Config) -> ChunkStats:
        """Every hypothesis against the pool of all references."""
        hyp_len = counted.lens[:hyps]
        lengths = counted.lens[hyps:].tolist()
        ref_len = pool_ref_lengths(hyp_len.tolist(), lengths, config)
        lasts = None
        if needs_last(config):
            lasts = pooled_lasts(counted.counts, hyp_len.tolist(), config)
        counts = counted.counts[:, : config.max_order]
        last = lasts[-1] if lasts else None
        return ChunkStats(counts, hyp_len, ref_len, config, last, [pool] * hyps, lasts)


def _chunk_tokens(
    request: _Request, span: tuple[int, int, int, int]
) -> tuple[list[list[str]], list[int]]:
    """The tokens of the segments ``span[0]:span[1]`` in chunk order, and their ``ks``."""
    start, stop = span[0], span[1]
    refss = request.refss[start:stop]
    hyp_toks = request.hyp_pipe.batch(request.hyps[start:stop])
    ref_toks = request.ref_pipe.batch([r for refs in refss for r in refs])
    ks = request.ks[start:stop]
    return interleave(hyp_toks, ref_toks, ks), ks


def _packed(values: list[int]) -> bytes:
    """A list of ints as an exact, compact dictionary key."""
    return np.asarray(values, dtype=np.int64).tobytes()
