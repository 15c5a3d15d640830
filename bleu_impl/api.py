"""The public entry points: ``corpus_bleu`` and ``sentence_bleu`` over raw or tokenized text."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .inputs import Segment, read_segments
from .knobs import Config
from .ngrams import segment_stats
from .profiles import Profile, get_profile, resolve_cached
from .score import BleuResult, score_stats
from .stats import BleuStats
from .tokenizers import make_tokenizer


def iter_segment_stats(
    hypotheses: Iterable[Segment], references: Iterable[Any], config: Config
) -> Iterator[BleuStats]:
    """Yield the statistics of each segment; lazily, so memory stays bounded."""
    tokens = make_tokenizer(config)
    for index, (hyp, refs) in enumerate(read_segments(hypotheses, references)):
        ref_tokens = [tokens(r) for r in refs]
        yield segment_stats(tokens(hyp), ref_tokens, config, index=index)


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
    from ._fastsent import sentence_stats

    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    config = resolve_cached(prof, knobs, "sentence")
    stats = sentence_stats(hypothesis, references, config)
    return score_stats(stats, profile=prof, config=config)
