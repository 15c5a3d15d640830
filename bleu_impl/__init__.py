"""bleu_impl: an exact BLEU whose every semantic choice is a knob, with named profiles."""

from .api import corpus_bleu, corpus_stats, iter_segment_stats, sentence_bleu
from .errors import BleuError, EmulatedFailure, InputError, KnobError
from .knobs import CHOICES, DOCS, KNOB_NAMES, Config
from .profiles import PROFILES, Profile, get_profile
from .score import BleuResult, score_stats
from .signature import VERSION as __version__
from .stats import BleuStats

__all__ = [
    "CHOICES",
    "DOCS",
    "KNOB_NAMES",
    "PROFILES",
    "BleuError",
    "BleuResult",
    "BleuStats",
    "Config",
    "EmulatedFailure",
    "InputError",
    "KnobError",
    "Profile",
    "__version__",
    "corpus_bleu",
    "corpus_stats",
    "get_profile",
    "iter_segment_stats",
    "score_stats",
    "sentence_bleu",
]
