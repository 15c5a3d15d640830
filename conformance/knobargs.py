"""Command-line syntax for knobs: ``--knob name=value`` and ``--profile``."""

from __future__ import annotations

import argparse
from typing import Any

from bleu_impl import CHOICES, DOCS, PROFILES
from bleu_impl.knobs import KNOB_NAMES

_WORDS = {"true": True, "yes": True, "false": False, "no": False, "none": None, "null": None}


def parse_value(name: str, text: str) -> Any:
    """Turn the text of a knob value into the Python value bleu_impl validates."""
    lowered = text.strip().lower()
    if name in ("weights",) and lowered not in ("none", "uniform"):
        return [float(part) for part in text.split(",")]
    if lowered in _WORDS and not (name in CHOICES and lowered in CHOICES[name]):
        return _WORDS[lowered]
    if name in ("max_order", "scale"):
        try:
            return int(text)
        except ValueError:
            return text
    if name in ("smoothing_value", "epsilon", "alpha", "k"):
        try:
            return float(text)
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


def add_knob_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        default="papineni2002",
        choices=list(PROFILES),
        metavar="PROFILE",
        help=f"implementation semantics to use (default papineni2002): {', '.join(PROFILES)}",
    )
    parser.add_argument(
        "--knob",
        action="append",
        type=knob_pair,
        default=[],
        metavar="NAME=VALUE",
        help="override one knob, e.g. --knob smoothing=exp --knob lowercase=ascii "
        "(repeatable; `bleu-conformance profiles` lists knobs and values)",
    )


def knobs_from(args: argparse.Namespace) -> dict[str, Any]:
    return dict(args.knob)


def knob_help_lines() -> list[str]:
    lines = []
    for name in KNOB_NAMES:
        values = CHOICES.get(name)
        shown = " | ".join(str(v) for v in values) if values else ""
        lines.append(f"{name}: {DOCS[name]}" + (f"  [{shown}]" if shown else ""))
    return lines
