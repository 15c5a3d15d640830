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
4. :mod:`~bleu_impl.fast.corpus`: add the chunk sums (exact integers and Fractions).

One segment (``sentence_bleu``) is counted in pure Python (:mod:`~bleu_impl.fast.sentence`).
Pieces that are rare or not vectorisable use the reference code: token-sequence segments the
reference tokenizer, ``intl``/``char`` the reference tokenizers per line, NLTK's last-segment
smoothing context and segments too long for the 63-bit keys ``ngrams``, ``ref_length`` rules
``reflength`` per segment unless a vectorised form applies.
"""

from __future__ import annotations

from ..knobs import CHOICES, STATS_KNOBS, Config
from .corpus import corpus_stats
from .sentence import sentence_stats

__all__ = ["corpus_stats", "sentence_stats", "supports"]

_ENUMERATED_STATS_KNOBS = tuple(name for name in STATS_KNOBS if name in CHOICES)


def supports(config: Config) -> bool:
    """Whether the fast path computes statistics for ``config`` (else use the reference).

    It does for every valid :class:`Config`: every statistics knob (``STATS_KNOBS``) with any
    value of its ``CHOICES``. A subclass of ``Config`` (e.g. one with a knob added later) or
    an enumerated value outside ``CHOICES`` goes to the reference path.
    """
    if type(config) is not Config:
        return False
    return all(getattr(config, name) in CHOICES[name] for name in _ENUMERATED_STATS_KNOBS)
