"""bleu_impl: an exact BLEU whose every semantic choice is a knob, with named profiles.

Everything a caller needs is importable from here (see ``__all__``): scoring
(``corpus_bleu``, ``sentence_bleu``), statistics (``corpus_stats``, ``sentence_stats``,
``iter_segment_stats``, ``parallel_corpus_stats``, then ``score_stats``), knobs and profiles
(``make_config``, ``normalize_knob``, ``get_profile``), tokens (``Pipeline``) and the
signature. ``bleu_impl.fast`` (the numpy fast path, imported on first use) and
``bleu_impl.dask_bag`` (extra ``dask``) are subpackages with their own public names.
"""

from .api import (
    Segment,
    corpus_bleu,
    corpus_stats,
    iter_segment_stats,
    sentence_bleu,
    sentence_stats,
)
from .errors import BleuError, EmulatedFailure, InputError, KnobError
from .knobs import (
    CHOICES,
    DOCS,
    KNOB_NAMES,
    LAST_SEGMENT_METHODS,
    NLTK_METHODS,
    STATS_KNOBS,
    Config,
    make_config,
    normalize_knob,
)
from .parallel import parallel_corpus_stats
from .profiles import LEVELS, PROFILES, Profile, get_profile
from .reflength import reference_length
from .score import BleuResult, score_stats
from .signature import signature
from .stats import BleuStats
from .tokenizers import Pipeline
from .version import VERSION as __version__

__all__ = [
    "CHOICES",
    "DOCS",
    "KNOB_NAMES",
    "LAST_SEGMENT_METHODS",
    "LEVELS",
    "NLTK_METHODS",
    "PROFILES",
    "STATS_KNOBS",
    "BleuError",
    "BleuResult",
    "BleuStats",
    "Config",
    "EmulatedFailure",
    "InputError",
    "KnobError",
    "Pipeline",
    "Profile",
    "Segment",
    "__version__",
    "corpus_bleu",
    "corpus_stats",
    "get_profile",
    "iter_segment_stats",
    "make_config",
    "normalize_knob",
    "parallel_corpus_stats",
    "reference_length",
    "score_stats",
    "sentence_bleu",
    "sentence_stats",
    "signature",
]
