"""The public entry points: ``corpus_bleu`` and ``sentence_bleu`` over raw or tokenized text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .errors import InputError
from .knobs import Config
from .ngrams import segment_stats
from .profiles import Profile, get_profile
from .score import BleuResult, score_stats
from .stats import BleuStats
from .tokenizers import make_tokenizer

Segment = str | Sequence[str]


def _references_of(refs: Any, index: int) -> list[Segment]:
    """The references of segment ``index``; ``None`` entries are missing (dropped)."""
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


def iter_segment_stats(
    hypotheses: Iterable[Segment], references: Iterable[Any], config: Config
) -> Iterable[BleuStats]:
    """Yield the statistics of each segment; lazily, so memory stays bounded."""
    tokens = make_tokenizer(config)
    hyp_iter, ref_iter = iter(hypotheses), iter(references)
    index = 0
    while True:
        hyp = next(hyp_iter, _END)
        refs = next(ref_iter, _END)
        if hyp is _END and refs is _END:
            return
        if hyp is _END or refs is _END:
            longer = "references" if hyp is _END else "hypotheses"
            raise InputError(
                f"hypotheses and references differ in length: {longer} continue past segment "
                f"{index - 1} (segment {index} has no partner)"
            )
        if hyp is None:
            raise InputError(f"segment {index}: hypothesis is None")
        ref_tokens = [tokens(r) for r in _references_of(refs, index)]
        yield segment_stats(tokens(hyp), ref_tokens, config, index=index)
        index += 1


_END = object()


def corpus_stats(
    hypotheses: Iterable[Segment], references: Iterable[Any], config: Config
) -> BleuStats:
    """The summed statistics of a corpus (streaming: bounded memory).

    Uses the exact fast path (``bleu_impl._fast``, chunks of segments) when it supports
    ``config``, else sums ``iter_segment_stats``; both give identical statistics.
    """
    if _fast_supports(config):
        from ._fast import fast_corpus_stats

        return fast_corpus_stats(hypotheses, references, config)
    total = BleuStats.zero(config.max_order)
    for stats in iter_segment_stats(hypotheses, references, config):
        total = total + stats
    return total


def _fast_supports(config: Config) -> bool:
    """Whether the fast path handles ``config`` (imported lazily: numpy only when used)."""
    from ._fast import supports

    return supports(config)


def corpus_bleu(
    hypotheses: Iterable[Segment],
    references: Iterable[Any],
    *,
    profile: str | Profile = "papineni2002",
    **knobs: Any,
) -> BleuResult:
    """Corpus BLEU: ``references[i]`` is the list of references of ``hypotheses[i]``.

    Segments are str (tokenized by the ``tokenize`` knob) or token sequences (taken as given).
    """
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    config = prof.resolve(knobs, "corpus")
    return score_stats(corpus_stats(hypotheses, references, config), profile=prof, config=config)


def sentence_bleu(
    hypothesis: Segment,
    references: Sequence[Segment],
    *,
    profile: str | Profile = "papineni2002",
    **knobs: Any,
) -> BleuResult:
    """Sentence BLEU: the corpus formula on one segment, with the profile's sentence defaults."""
    from ._fastsent import resolve_cached, sentence_stats

    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    config = resolve_cached(prof, knobs, "sentence")
    stats = sentence_stats(hypothesis, references, config)
    return score_stats(stats, profile=prof, config=config)
