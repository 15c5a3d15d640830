"""A short, stable string naming the profile and every knob (in the spirit of sacrebleu's),
and the shorter one naming only what differs from the profile (as sacrebleu prints it; under
the ``sacrebleu`` profile, exactly sacrebleu's own, naming the sacrebleu version reproduced)."""

from __future__ import annotations

import re
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
    profile: str,
    config: Config,
    *,
    nrefs: int | None = None,
    level: str = "corpus",
    short: bool = False,
) -> str:
    """``profile:P|n:4|w:uniform|tok:13a|...|v:VERSION`` for ``config`` under ``profile``
    (remembered per configuration: scoring many segments or configs builds it once each);
    given ``nrefs``, the short form in sacrebleu's style, ``nrefs:1|profile:P|case:mixed|
    tok:13a|smooth:exp``, each knob that differs from the profile's own setting at ``level``
    (``ref_length:shortest``), ``version:VERSION``. Under ``sacrebleu`` it is sacrebleu's
    signature, ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0`` (the version
    reproduced; ``short``: sacrebleu's ``--short`` keys, ``#:1|c:mixed|...|v:2.6.0``).

    >>> from bleu_impl import get_profile
    >>> signature("sacrebleu", get_profile("sacrebleu").resolve({"smoothing": "floor"}), nrefs=2)
    'nrefs:2|case:mixed|eff:no|tok:13a|smooth:floor[0.10]|version:2.6.0'
    """
    if nrefs is not None:
        defaults = get_profile(profile).resolve({}, level)
        if profile == "sacrebleu":
            return _sacrebleu(config, defaults, nrefs, short)
        return _short(profile, config, defaults, nrefs)
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


def _changed(config: Config, defaults: Config, shown: tuple[str, ...]) -> list[str]:
    """``name:value`` of each knob not in ``shown`` that differs from ``defaults``."""
    return [
        f"{k.name}:{'uniform' if v is None and k.name == 'weights' else _show(v, 'None')}"
        for k, v in ((k, getattr(config, k.name)) for k in KNOBS)
        if k.name not in shown and v != getattr(defaults, k.name)
    ]


def _short(profile: str, config: Config, defaults: Config, nrefs: int) -> str:
    case = "mixed" if config.lowercase is False else f"lc-{config.lowercase}"
    head = [f"nrefs:{nrefs}", f"profile:{profile}", f"case:{case}", f"tok:{config.tokenize}"]
    changed = _changed(config, defaults, ("lowercase", "tokenize", "smoothing"))
    return "|".join([*head, f"smooth:{config.smoothing}", *changed, f"version:{VERSION}"])


#: sacrebleu's signature keys (``metrics/bleu.py`` BLEUSignature) and their ``--short`` forms.
SACREBLEU_KEYS = {"nrefs": "#", "case": "c", "eff": "e", "tok": "tok", "smooth": "s"}

#: The knobs sacrebleu's signature shows (as case, eff, tok, smooth) or that do not change
#: what it computes; any other knob that differs is named after them.
_SACREBLEU_SHOWN = (
    "lowercase",
    "effective_order",
    "absent_order",
    "tokenize",
    "smoothing",
    "smoothing_value",
    "scale",
)


def reproduced_version(profile: str) -> str:
    """The version of the tool a profile reproduces, from its ``source`` (``v2.6.0``)."""
    found = re.search(r"\bv(\d+(?:\.\d+)+)\b", get_profile(profile).source)
    return found.group(1) if found else VERSION


def _sacrebleu(config: Config, defaults: Config, nrefs: int, short: bool) -> str:
    smooth: str = config.smoothing
    if smooth in ("floor", "add-k"):
        smooth += f"[{config.smoothing_param:.2f}]"
    values = {
        "nrefs": str(nrefs),
        "case": "mixed" if config.lowercase is False else "lc",
        "eff": "yes" if config.effective_order else "no",
        "tok": tokenizer_signature(config),
        "smooth": smooth,
    }
    pairs = [f"{SACREBLEU_KEYS[k] if short else k}:{v}" for k, v in values.items()]
    pairs += _changed(config, defaults, _SACREBLEU_SHOWN)
    version = reproduced_version("sacrebleu")
    return "|".join([*pairs, f"{'v' if short else 'version'}:{version}"])
