"""Command-line syntax for knobs: ``--knob name=value`` and ``--profile``."""

from __future__ import annotations

import argparse
import functools
import typing
from typing import Any

from bleu_impl import CHOICES, DOCS, PROFILES, Config, KnobError, get_profile
from bleu_impl.knobs import KNOB_NAMES

_WORDS = {
    **{"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False},
    **{"none": None, "null": None, "default": None},
}


@functools.cache
def _types(name: str) -> frozenset[Any]:
    """The Python types a knob's declared type admits (``Literal[1, 100]`` admits int)."""
    hint = typing.get_type_hints(Config)[name]
    args = typing.get_args(hint) if typing.get_origin(hint) is not tuple else (hint,)
    found: set[Any] = set()
    for arg in args or (hint,):
        if typing.get_origin(arg) is tuple:
            found.add(tuple)
        elif isinstance(arg, type):
            found.add(arg)
        else:  # a Literal's value
            found.add(type(arg))
    return frozenset(found)


def parse_value(name: str, text: str) -> Any:
    """Turn the text of a knob value into the Python value bleu_impl validates, by the type
    the knob is declared with (``weights``: ``0.25,0.25``; a number; a word such as true or
    none); text it cannot read stays text, for bleu_impl to name."""
    lowered = text.strip().lower()
    types = _types(name)
    if tuple in types and lowered not in ("none", "uniform"):
        return [float(part) for part in text.split(",")]
    if lowered in _WORDS and not (name in CHOICES and lowered in CHOICES[name]):
        return _WORDS[lowered]
    for kind in (int, float):
        if kind in types:
            try:
                return kind(text)
            except ValueError:
                return text
    return text


def knob_pair(text: str) -> tuple[str, Any]:
    """argparse type for ``--knob name=value``."""
    name, sep, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected name=value, got {text!r}")
    if name not in KNOB_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown knob {name!r}; valid knobs: {', '.join(KNOB_NAMES)}"
        )
    return name, parse_value(name, value)


def add_knob_arguments(parser: argparse.ArgumentParser, default: str = "papineni2002") -> None:
    parser.add_argument(
        "--profile",
        default=default,
        choices=list(PROFILES),
        metavar="PROFILE",
        help=f"implementation semantics to use (default {default}; `bleu-conformance "
        "profiles` lists them)",
    )
    add_knob_option(
        parser,
        "override one knob, e.g. --knob smoothing=exp --knob lowercase=ascii "
        "(repeatable; `bleu-conformance profiles` lists knobs and values)",
    )


def add_knob_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--knob NAME=VALUE``, repeatable, into ``args.knob`` as (name, value) pairs."""
    parser.add_argument(
        "--knob", action="append", type=knob_pair, default=[], metavar="NAME=VALUE", help=help
    )


def knobs_from(args: argparse.Namespace) -> dict[str, Any]:
    return dict(args.knob)


def knob_help_lines() -> list[str]:
    """Each knob's meaning, then each of its values' (``bleu_impl.knobs.DOCS``)."""
    return [f"{name}: {DOCS[name]}" for name in KNOB_NAMES]


def _shown(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(f"{v:g}" for v in value)
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)


#: The profile that takes every knob (bleu_impl's generic profile, the paper).
GENERIC = "papineni2002"


def generic_command(profile: str) -> str:
    """``--profile papineni2002 --knob NAME=VALUE ...``: ``profile``'s knobs on the generic
    profile, which takes every knob (a setting the profile's tool cannot have starts here)."""
    mine = get_profile(profile).resolve({}).as_dict()
    base = get_profile(GENERIC).resolve({}).as_dict()
    knobs = [f"--knob {k}={_shown(v)}" for k, v in mine.items() if base.get(k) != v]
    return " ".join([f"--profile {GENERIC}", *knobs])


def knob_error_text(exc: Exception, profile: str) -> str:
    """A knob error as the command line should say it: a knob ``profile`` cannot take gets
    the command that starts from the generic profile with its knobs (bleu_impl's own advice
    is Python)."""
    text = str(exc)
    if not isinstance(exc, KnobError) or " For a setting " not in text:
        return text
    head = text.split(" For a setting ", 1)[0]
    return (
        f"{head} For a setting {profile} cannot have, start from its knobs on the generic "
        f"profile and add yours: {generic_command(profile)} --knob NAME=VALUE"
    )
