"""The exact fast path: the reference path's statistics (``bleu_impl.ngrams``), fast.

A corpus is read in chunks of segments (:func:`bleu_impl.inputs.read_chunks`), and each chunk
goes through one module per step:

1. :mod:`~bleu_impl.fast.tokens`: tokenize the whole chunk at once (13a and zh in one pass
   over the chunk, :mod:`bleu_impl.tokenizers.tok13a_batch`, :mod:`bleu_impl.tokenizers.zh`;
   SentencePiece in one call; MeCab one line at a time under one lock) and check the
   reference counts;
2. :mod:`~bleu_impl.fast.ids`: give every token a *segment-local* id ``1..D`` (``D`` = distinct
   tokens in the segment's hypothesis and references together), exact for any vocabulary;
3. :mod:`~bleu_impl.fast.count`: pack ``(segment, n ids, source)`` per token position into one
   int64, sort once, and read the clipped matches of every order off the sorted runs;
4. :mod:`~bleu_impl.fast.corpus_sums`: add the chunk sums (exact integers and Fractions).

Steps 2 and 3 are done by the compiled kernel (:mod:`~bleu_impl.fast.kernel`, ``_kernel.c``:
a hash table per segment instead of ids and a sort) where ``pip install`` could build it;
numpy does them where not, or under ``BLEU_IMPL_NO_KERNEL=1``. For a chunk of raw lines
whose last tokenizing step is the split (one pipeline for both roles), the kernel also
splits the lines and runs 13a itself, so no ``str`` is made per token
(:func:`~bleu_impl.fast.tokens.chunk_texts`, :func:`~bleu_impl.fast.count.text_stats`).

Macro aggregation keeps every segment's row as a part (:meth:`ChunkStats.rows
<bleu_impl.fast.count.ChunkStats.rows>`); joined n-grams are tuple n-grams unless a token
sequence holds a token with a space (:mod:`~bleu_impl.fast.chunks`: that chunk is counted
by the reference code); a corpus-wide reference pool is counted in one piece
(:mod:`~bleu_impl.fast.ref_pool_counts`).

One segment (``sentence_bleu``) is counted in pure Python (:mod:`~bleu_impl.fast.sentence`).
Pieces that are rare or not vectorisable use the reference code: token-sequence segments the
reference tokenizer, ``intl``/``char`` the reference tokenizers per line, NLTK's last-segment
smoothing context, ``ref_length`` rules
``reflength`` per segment unless a vectorised form applies. A segment with too many distinct
tokens for the 63-bit keys is counted order by order (:mod:`~bleu_impl.fast.wide`).
"""

from __future__ import annotations

from dataclasses import replace

from ..knobs import CHOICES, KNOBS, STATS_KNOBS, Config
from ..ngrams import needs_last
from ..tokenizers import pipelines
from .corpus_sums import corpus_stats
from .kernel import KERNEL_SPLITS, counting_path, has_kernel
from .sentence import sentence_stats

__all__ = ["corpus_stats", "counted_by", "sentence_stats", "supports", "supports_corpus"]

_ENUMERATED_STATS_KNOBS = tuple(name for name in STATS_KNOBS if name in CHOICES)

#: knob -> the only value of it the per-segment fast path (``sentence_stats``,
#: ``tokenize_chunk`` + ``chunk_stats``) computes (declared ``fast="corpus"`` or ``"default"``).
_DECLINED = {knob.name: knob.default for knob in KNOBS if knob.fast != "all"}
#: The same for the knobs (``fast="corpus"``) of which ``corpus_stats`` and
#: ``segments.segment_arrays`` compute every value (:func:`supports_corpus`): per-segment
#: parts for a mean of segment scores, a corpus-wide reference pool, joined-string n-grams.
_CORPUS_ONLY = {knob.name: knob.default for knob in KNOBS if knob.fast == "corpus"}


def supports(config: Config) -> bool:
    """Whether the fast path computes statistics for ``config`` (else use the reference).

    It does for every valid :class:`Config`: every statistics knob (``STATS_KNOBS``) with any
    value of its ``CHOICES``, except a declined value (``_DECLINED``: macro aggregation, a
    corpus reference pool, joined n-grams). A subclass of ``Config`` (e.g. one with a knob
    added later) or an enumerated value outside ``CHOICES`` goes to the reference path.
    """
    if type(config) is not Config:
        return False
    if any(getattr(config, name) != value for name, value in _DECLINED.items()):
        return False
    return all(getattr(config, name) in CHOICES[name] for name in _ENUMERATED_STATS_KNOBS)


def supports_corpus(config: Config) -> bool:
    """Whether :func:`corpus_stats` and :func:`~bleu_impl.fast.segments.segment_arrays`
    compute statistics for ``config``: every config :func:`supports` takes, also with macro
    aggregation, a corpus-wide reference pool or joined n-grams."""
    if type(config) is not Config:
        return False
    if any(getattr(config, name) not in CHOICES[name] for name in _CORPUS_ONLY):
        return False
    return supports(replace(config, **_CORPUS_ONLY))


def counted_by(config: Config) -> str:
    """What counts a corpus's statistics under ``config`` here (``score --verbose``): the
    reference path, or the fast path with numpy or the kernel, and what the kernel takes
    (raw lines, 13a included, or Python's tokens) and why."""
    if not supports_corpus(config):
        return "the reference path (the fast path does not take this config)"
    if not has_kernel():
        return f"the fast path, with {counting_path()}"
    hyp, ref = pipelines(config)
    why = (
        "NLTK's last-segment smoothing reads tokens"
        if needs_last(config)
        else "hypotheses and references are tokenized apart"
        if hyp is not ref
        else "tokens are lowercased after the split"
        if not hyp.splits_last
        else f"it does not split split={config.split!r}"
        if config.split not in KERNEL_SPLITS
        else ""
    )
    if why:
        return f"the fast path, with the compiled kernel counting Python's tokens ({why})"
    if config.tokenize == "13a" and hyp.stage != "after-entities":
        return "the fast path, with the compiled kernel tokenizing (13a), splitting and counting"
    return "the fast path, with the compiled kernel splitting and counting Python's tokenized text"
