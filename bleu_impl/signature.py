"""A short, stable string naming the profile and every knob (in the spirit of sacrebleu's),
and the shorter one naming only what differs from the profile (as sacrebleu prints it)."""

from __future__ import annotations

from functools import lru_cache

from .knobs import KNOBS, Config
from .profiles import get_profile
from .tokenizers.all_tokenizers import tokenizer_signature
from .tokenizers.spm import model_digest
from .version import VERSION

__all__ = ["VERSION", "signature"]

#: How a knob's value is shown when it is not shown as is: the tokenizer with the versions
#: that decide its tokens (sacrebleu's ``ja-mecab-0.996-IPA``), the model by name and digest.
_SHOWN = {
    "tokenize": tokenizer_signature,
    "spm_model": lambda config: (
        "none" if config.spm_model is None else model_digest(config.spm_model)
    ),
}


def _show(value: object, none: str = "default") -> str:
    if value is None:
        return none
    if value is False:
        return "no"
    if value is True:
        return "yes"
    if isinstance(value, tuple):
        return ",".join(f"{v:g}" for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def signature(
    profile: str, config: Config, *, nrefs: int | None = None, level: str = "corpus"
) -> str:
    """``profile:P|n:4|w:uniform|tok:13a|...|v:VERSION`` for ``config`` under ``profile``
    (remembered per configuration: scoring many segments or configs builds it once each);
    given ``nrefs``, the short form in sacrebleu's style, ``nrefs:1|profile:P|case:mixed|
    tok:13a|smooth:exp``, each knob that differs from the profile's own setting at ``level``
    (``ref_length:shortest``), ``version:VERSION``."""
    if nrefs is not None:
        return _short(profile, config, get_profile(profile).resolve({}, level), nrefs)
    try:
        return _remembered(profile, config)
    except TypeError:  # an unhashable value in a hand-built Config
        return _signature(profile, config)


@lru_cache(maxsize=1024)
def _remembered(profile: str, config: Config) -> str:
    return _signature(profile, config)


def _signature(profile: str, config: Config) -> str:
    parts = [f"profile:{profile}"]
    for knob in KNOBS:  # in declaration order, by abbreviation
        value = getattr(config, knob.name)
        if knob.name in _SHOWN:
            shown = _SHOWN[knob.name](config)
        else:
            shown = "uniform" if knob.name == "weights" and value is None else _show(value)
        parts.append(f"{knob.abbrev}:{shown}")
    parts.append(f"v:{VERSION}")
    return "|".join(parts)


def _short(profile: str, config: Config, defaults: Config, nrefs: int) -> str:
    case = "mixed" if config.lowercase is False else f"lc-{config.lowercase}"
    head = [f"nrefs:{nrefs}", f"profile:{profile}", f"case:{case}", f"tok:{config.tokenize}"]
    changed = [
        f"{k.name}:{'uniform' if v is None and k.name == 'weights' else _show(v, 'None')}"
        for k, v in ((k, getattr(config, k.name)) for k in KNOBS)
        if k.name not in ("lowercase", "tokenize", "smoothing") and v != getattr(defaults, k.name)
    ]
    return "|".join([*head, f"smooth:{config.smoothing}", *changed, f"version:{VERSION}"])
