"""List the profiles (with their sources and flag mappings) and every knob with its values.

examples:
  bleu-conformance profiles
  bleu-conformance profiles --profile mteval-v13a     # one profile's resolved knobs
"""

from __future__ import annotations

import argparse

import bleu_impl
from bleu_impl import PROFILES

from ..knobargs import knob_help_lines
from ..reporters.textgrid import grid, wrap
from .options import terminal_width

EXIT_CODES = {0: "listed"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        choices=list(PROFILES),
        metavar="PROFILE",
        help="show one profile in full: its options, rules and resolved knobs "
        f"({', '.join(PROFILES)})",
    )


def run(args: argparse.Namespace) -> int:
    width = terminal_width()

    def say(line: str, indent: str = "") -> None:
        print(wrap(line, width, indent + "    ") if len(line) > width else line)

    if args.profile:
        profile = bleu_impl.get_profile(args.profile)
        say(f"{profile.name}: {profile.summary}")
        say(f"source: {profile.source}")
        if profile.options is None:
            print("  options: every knob (the generic profile)")
        else:
            print("  options (knobs the tool lets you set; any other knob is refused):")
            for knob, option in profile.options.items():
                values = "" if option.values is None else f" in {list(option.values)}"
                say(f"    {knob}{values}: {option.flag}", "    ")
        for rule in profile.rules:
            say(f"  rule: when {dict(rule.when)} then {dict(rule.then)}: {rule.why}", "  ")
        for level in ("corpus", "sentence"):
            config = profile.resolve({}, level)
            print(f"\n{level} level:")
            rows = [
                [knob, "" if value is None else value]
                for knob, value in sorted(config.as_dict().items())
            ]
            print(grid(["knob", "value"], rows, width=width))
        return 0
    rows = [[p.name, p.summary, p.source] for p in PROFILES.values()]
    print(grid(["profile", "semantics", "source"], rows, width=width, weights=(1, 3, 1.5)))
    print("\nknobs:")
    for line in knob_help_lines():
        say(f"  {line}", "  ")
    return 0
