"""The fast path of ``sentence_bleu``: one segment, pure Python, cached knob resolution.

For a single segment numpy's fixed costs outweigh its speed, so the statistics come from
``collections.Counter`` over ``zip``-built n-grams (the same multisets as
``ngrams.clipped_matches``), tokenization from :func:`bleu_impl._fast13a.line_tokenizer`,
and the resolved :class:`Config` of a (profile, knobs) pair is remembered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ._fast import last_segment, needs_last, supports
from ._fast13a import line_tokenizer
from .errors import InputError
from .knobs import Config
from .profiles import Profile
from .reflength import MULTI_BLEU_MISSING_LENGTH, REF_LENGTH_RULES
from .stats import BleuStats
from .tokenizers import make_tokenizer

_RESOLVED: dict[tuple[int, str, tuple[tuple[str, Any], ...]], tuple[Profile, Config]] = {}
_RESOLVED_MAX = 256


def resolve_cached(profile: Profile, knobs: Mapping[str, Any], level: str) -> Config:
    """``profile.resolve(knobs, level)``, remembered for hashable knob values."""
    try:
        key = (id(profile), level, tuple(sorted(knobs.items())))
        hash(key)
    except TypeError:
        return profile.resolve(knobs, level)
    hit = _RESOLVED.get(key)
    if hit is not None and hit[0] is profile:
        return hit[1]
    config = profile.resolve(knobs, level)
    if len(_RESOLVED) >= _RESOLVED_MAX:
        _RESOLVED.clear()
    _RESOLVED[key] = (profile, config)  # holding the profile keeps its id unique
    return config


@lru_cache(maxsize=64)
def _tokenizers(config: Config) -> tuple[Any, Any]:
    return line_tokenizer(config), make_tokenizer(config)


def _grams(tokens: Sequence[str], n: int) -> Counter[Any]:
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[i:] for i in range(n))))


def _clipped(hyp: Sequence[str], refs: list[Sequence[str]], n: int) -> int:
    if len(hyp) < n:
        return 0
    hyp_counts = _grams(hyp, n)
    if len(refs) == 1:
        ref_max = _grams(refs[0], n)
    else:
        ref_max = Counter()
        for ref in refs:
            ref_max |= _grams(ref, n)
    return sum((hyp_counts & ref_max).values())


def sentence_stats(hypothesis: Any, references: Any, config: Config) -> BleuStats:
    """The statistics of one segment, identical to ``corpus_stats([h], [refs], config)``."""
    if not supports(config):
        from .api import corpus_stats

        return corpus_stats([hypothesis], [references], config)
    from .api import _references_of

    if hypothesis is None:
        raise InputError("segment 0: hypothesis is None")
    ref_list = _references_of(references, 0)
    line, generic = _tokenizers(config)
    refs = [line(r) if type(r) is str else generic(r) for r in ref_list]
    hyp = line(hypothesis) if type(hypothesis) is str else generic(hypothesis)
    order = config.max_order
    counts = tuple(_clipped(hyp, refs, n) for n in range(1, order + 1))
    totals = tuple(max(0, len(hyp) - n + 1) for n in range(1, order + 1))
    if config.denominator_floor == "per-segment":
        totals = tuple(max(1, t) for t in totals)
    if refs:
        ref_len = REF_LENGTH_RULES[config.ref_length](len(hyp), [len(r) for r in refs])
    elif config.missing_refs == "len-9999":
        ref_len = MULTI_BLEU_MISSING_LENGTH
    else:
        raise InputError("segment 0: no reference (missing_refs='error')")
    last = last_segment(hyp, refs, config) if needs_last(config) else None
    return BleuStats(counts, totals, len(hyp), ref_len, 1, last)
