"""bleu_impl: an exact BLEU whose every semantic choice is a knob, with named profiles.

Everything a caller needs is importable from here (see ``__all__``): scoring
(``corpus_bleu``, ``sentence_bleu``, ``sentence_scores`` for many sentences at once),
statistics (``corpus_stats``, ``sentence_stats``, ``iter_segment_stats``,
``parallel_corpus_stats``, ``StatsCache`` for one input under many configs,
``SharedCounts``/``sharing`` for many corpora that share lines, then ``score_stats``),
knobs and profiles (``make_config``, ``normalize_knob``, ``get_profile``), tokens
(``Pipeline``), the signature, and resampling (``segment_table``, ``bootstrap_stats``,
``paired_bootstrap_p``..., ``bleu_impl.resample``). ``bleu_impl.fast`` (the numpy fast
path, imported on first use) and ``bleu_impl.dask_bag`` (extra ``dask``) are subpackages
with their own public names.
"""

from .api import (
    Segment,
    corpus_bleu,
    corpus_stats,
    iter_segment_stats,
    sentence_bleu,
    sentence_stats,
)
from .errors import BleuError, DependencyError, EmulatedFailure, InputError, KnobError
from .knobs import (
    CHOICES,
    DOCS,
    KNOB_NAMES,
    LAST_SEGMENT_METHODS,
    NLTK_METHODS,
    STATS_KNOBS,
    STATS_ONLY_KNOBS,
    Config,
    make_config,
    normalize_knob,
)
from .macro import macro_result
from .parallel import parallel_corpus_stats
from .profiles import LEVELS, PROFILES, Profile, get_profile
from .reflength import reference_length
from .resample import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    DEFAULT_TRIALS,
    Interval,
    SegmentTable,
    bootstrap_interval,
    bootstrap_macro_means,
    bootstrap_macro_scores,
    bootstrap_scores,
    bootstrap_stats,
    paired_bootstrap_p,
    randomization_macro_scores,
    randomization_p,
    randomization_stats,
    resample_indices,
    segment_scores,
    segment_table,
)
from .score import BleuResult, score_stats, score_value
from .segment_scorer import ScorerPool, SegmentScorer, scoring_key
from .sentences import sentence_scores
from .shared import SharedCounts, sharing
from .signature import signature
from .stats import BleuStats
from .stats_cache import StatsCache
from .tokenizers import Pipeline, pipelines
from .version import VERSION as __version__

__all__ = [
    "CHOICES",
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_TRIALS",
    "DOCS",
    "KNOB_NAMES",
    "LAST_SEGMENT_METHODS",
    "LEVELS",
    "NLTK_METHODS",
    "PROFILES",
    "STATS_KNOBS",
    "STATS_ONLY_KNOBS",
    "BleuError",
    "BleuResult",
    "BleuStats",
    "Config",
    "DependencyError",
    "EmulatedFailure",
    "InputError",
    "Interval",
    "KnobError",
    "Pipeline",
    "Profile",
    "ScorerPool",
    "Segment",
    "SegmentScorer",
    "SegmentTable",
    "SharedCounts",
    "StatsCache",
    "__version__",
    "bootstrap_interval",
    "bootstrap_macro_means",
    "bootstrap_macro_scores",
    "bootstrap_scores",
    "bootstrap_stats",
    "corpus_bleu",
    "corpus_stats",
    "get_profile",
    "iter_segment_stats",
    "macro_result",
    "make_config",
    "normalize_knob",
    "paired_bootstrap_p",
    "parallel_corpus_stats",
    "pipelines",
    "randomization_macro_scores",
    "randomization_p",
    "randomization_stats",
    "reference_length",
    "resample_indices",
    "score_stats",
    "score_value",
    "scoring_key",
    "segment_scores",
    "segment_table",
    "sentence_bleu",
    "sentence_scores",
    "sentence_stats",
    "sharing",
    "signature",
]
