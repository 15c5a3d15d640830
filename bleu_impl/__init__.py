"""bleu_impl: an exact BLEU whose every semantic choice is a knob, with named profiles.

What a BLEU user needs is importable from here (see ``__all__``): scoring (``corpus_bleu``,
``sentence_bleu``, ``sentence_scores`` for many sentences at once), statistics
(``corpus_stats``, ``iter_segment_stats``, then ``score_stats``), knobs and profiles
(``make_config``, ``CHOICES``, ``DOCS``, ``get_profile``), tokens (``Pipeline``), the
signature, the errors, and a bootstrap confidence interval (``segment_table``,
``bootstrap_scores``, ``bootstrap_interval``). Documented submodules hold the rest:
``bleu_impl.knobs`` (the knob vocabulary), ``bleu_impl.reflength`` (the reference-length
rules), ``bleu_impl.resample`` (significance tests), ``bleu_impl.bulk`` (scoring in bulk: one
input under many configs, many corpora sharing lines, many processes) and
``bleu_impl.dask_bag`` (extra ``dask``).
"""

from .api import corpus_bleu, corpus_stats, iter_segment_stats, sentence_bleu
from .errors import BleuError, EmulatedFailure, InputError, KnobError
from .knobs import CHOICES, DOCS, Config, make_config
from .profiles import PROFILES, Profile, get_profile
from .resample import bootstrap_interval, bootstrap_scores, segment_table
from .score import BleuResult, score_stats
from .sentences import sentence_scores
from .signature import signature
from .stats import BleuStats
from .tokenizers import Pipeline
from .version import VERSION as __version__

__all__ = [
    "CHOICES",
    "DOCS",
    "PROFILES",
    "BleuError",
    "BleuResult",
    "BleuStats",
    "Config",
    "EmulatedFailure",
    "InputError",
    "KnobError",
    "Pipeline",
    "Profile",
    "__version__",
    "bootstrap_interval",
    "bootstrap_scores",
    "corpus_bleu",
    "corpus_stats",
    "get_profile",
    "iter_segment_stats",
    "make_config",
    "score_stats",
    "segment_table",
    "sentence_bleu",
    "sentence_scores",
    "signature",
]
