"""A chunk's tokens: every hypothesis and reference of consecutive segments, tokenized at once.

Raw ``str`` segments go through :meth:`Pipeline.batch <bleu_impl.tokenizers.Pipeline.batch>`
in one call; token sequences through :meth:`Pipeline.segment
<bleu_impl.tokenizers.Pipeline.segment>`. Errors are raised in the reference path's order
(per segment: reference tokens, hypothesis tokens, then the reference-count checks).
"""

from __future__ import annotations

from itertools import chain
from typing import cast

from ..errors import InputError
from ..inputs import Segment
from ..knobs import Config
from ..reflength import REF_LENGTH_RULES
from ..tokenizers import Pipeline, pipelines

__all__ = ["ChunkTokens", "chunk_texts", "interleave", "mixed_tokens", "tokenize_chunk", "uniform"]


def uniform(ks: list[int]) -> int:
    """The common number of references of the segments, or -1 when they differ."""
    first = ks[0] if ks else 0
    return first if all(k == first for k in ks) else -1


class ChunkTokens:
    """A chunk's tokens: ``toks`` = [hyp_0, refs_0..., hyp_1, refs_1...], ``ks`` = refs per
    segment (``uniform``: the common count, or -1)."""

    def __init__(self, toks: list[list[str]], ks: list[int]) -> None:
        self.toks = toks
        self.ks = ks
        self.uniform = uniform(ks)
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


def chunk_texts(
    hyps: list[Segment], refss: list[list[Segment]], config: Config, start: int
) -> tuple[list[str], list[int], Pipeline] | None:
    """A chunk of raw lines prepared for tokenizing (``lines`` in the layout of
    :class:`ChunkTokens`, by :meth:`Pipeline.prepared`), ``ks``, and the pipeline that
    tokenizes them (:meth:`~Pipeline.unsplit`, then :meth:`~Pipeline.split_texts`); None
    (nothing done) unless every segment is a ``str``, one pipeline serves both roles and
    splitting is its last step."""
    hyp_pipeline, ref_pipeline = pipelines(config)
    if hyp_pipeline is not ref_pipeline or not hyp_pipeline.splits_last:
        return None
    if {*map(type, hyps)} != {str} or not {*map(type, chain.from_iterable(refss))} <= {str}:
        return None
    lines = cast("list[str]", [x for hyp, refs in zip(hyps, refss) for x in (hyp, *refs)])
    ks = list(map(len, refss))
    _check_count(ks, _first_bad_count(ks, config), config, start)
    return hyp_pipeline.prepared(lines), ks, hyp_pipeline


def tokenize_chunk(
    hyps: list[Segment], refss: list[list[Segment]], config: Config, start: int
) -> ChunkTokens:
    """The tokens of a chunk whose first segment has index ``start``; invalid token
    sequences and reference counts raise the reference path's errors in its order."""
    ks = [len(refs) for refs in refss]
    bad = _first_bad_count(ks, config)
    lines: list[Segment] = []
    for hyp, refs in zip(hyps, refss):
        lines.append(hyp)
        lines.extend(refs)
    hyp_pipeline, ref_pipeline = pipelines(config)
    if all(type(line) is str for line in lines):
        _check_count(ks, bad, config, start)
        if hyp_pipeline is ref_pipeline:
            return ChunkTokens(hyp_pipeline.batch(cast("list[str]", lines)), ks)
        return ChunkTokens(_by_role(cast("list[str]", lines), ks, hyp_pipeline, ref_pipeline), ks)
    # Some segments are token sequences: the reference tokenizer validates them, refs first.
    for hyp, refs in zip(hyps[: bad + 1], refss[: bad + 1]):
        for seg in (*refs, hyp):
            if type(seg) is not str:
                hyp_pipeline.segment(seg)
    _check_count(ks, bad, config, start)
    if hyp_pipeline is ref_pipeline:
        return ChunkTokens(mixed_tokens(lines, hyp_pipeline), ks)
    hyp_toks = mixed_tokens(list(hyps), hyp_pipeline)
    ref_toks = mixed_tokens([r for refs in refss for r in refs], ref_pipeline)
    return ChunkTokens(interleave(hyp_toks, ref_toks, ks), ks)


def _by_role(
    lines: list[str], ks: list[int], hyp_pipeline: Pipeline, ref_pipeline: Pipeline
) -> list[list[str]]:
    """Hypotheses and references tokenized by their own pipelines, back in chunk order."""
    is_hyp = [False] * len(lines)
    at = 0
    for k in ks:
        is_hyp[at] = True
        at += k + 1
    hyp_toks = hyp_pipeline.batch([x for x, h in zip(lines, is_hyp) if h])
    ref_toks = ref_pipeline.batch([x for x, h in zip(lines, is_hyp) if not h])
    return interleave(hyp_toks, ref_toks, ks)


def interleave(
    hyp_toks: list[list[str]], ref_toks: list[list[str]], ks: list[int]
) -> list[list[str]]:
    """[hyp_0, refs_0..., hyp_1, refs_1...] from the hypotheses and the references."""
    out: list[list[str]] = []
    refs = iter(ref_toks)
    for hyp, k in zip(hyp_toks, ks):
        out.append(hyp)
        out.extend(next(refs) for _ in range(k))
    return out


def mixed_tokens(lines: list[Segment], pipeline: Pipeline) -> list[list[str]]:
    """Tokens of raw lines (one batch) and of token sequences (one by one), in order."""
    slots: list[int | list[str]] = []
    pending: list[str] = []
    for line in lines:
        if type(line) is str:
            slots.append(len(pending))
            pending.append(line)
        else:
            slots.append(list(pipeline.segment(line)))
    done = pipeline.batch(pending)
    return [done[s] if isinstance(s, int) else s for s in slots]


def _first_bad_count(ks: list[int], config: Config) -> int:
    """The first segment whose reference count the config rejects, or ``len(ks)``."""
    # the chunk counters know one sentinel, multi-bleu's 9999; count_chunk sends a chunk
    # with a missing reference under any other value to the reference path
    missing = config.missing_refs != "len-9999"
    single = config.ref_length == "single"
    if not missing and not single:
        return len(ks)
    return next(
        (i for i, k in enumerate(ks) if (missing and k == 0) or (single and k > 1)), len(ks)
    )


def _check_count(ks: list[int], bad: int, config: Config, start: int) -> None:
    """Raise the reference path's error for segment ``bad`` (if any), at the same index."""
    if bad == len(ks):
        return
    if ks[bad] == 0:
        raise InputError(
            f"segment {start + bad}: no reference (missing_refs='error')", "missing-reference"
        )
    REF_LENGTH_RULES["single"](0, [0] * ks[bad])  # raises the rule's own error
