"""Named profiles: documented bundles of knob values that reproduce known implementations.

One module per family of tools (:mod:`.paper`, :mod:`.perl`, :mod:`.nltk`, :mod:`.sacrebleu`,
:mod:`.google`, :mod:`.torchmetrics`); :mod:`.model` defines what a profile is.
"""

from .all_profiles import PROFILES, get_profile, resolve_cached
from .model import GENERIC, LEVELS, Option, Profile, Rule

__all__ = [
    "GENERIC",
    "LEVELS",
    "PROFILES",
    "Option",
    "Profile",
    "Rule",
    "get_profile",
    "resolve_cached",
]
