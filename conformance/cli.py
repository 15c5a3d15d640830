"""The ``bleu-conformance`` command line: one subcommand per module, loaded on demand."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: subcommand -> module defining ``add_arguments(parser)`` and ``run(args) -> int``,
#: with the module docstring's first line as the subcommand's summary.
SUBCOMMANDS: dict[str, str] = {
    "score": "conformance.commands.score",
    "explain": "conformance.commands.explain",
    "profiles": "conformance.commands.profiles",
    "compare": "conformance.commands.compare",
    "identify": "conformance.commands.identify",
    "disagreements": "conformance.commands.disagreements",
    "validate": "conformance.commands.validate",
    "run": "conformance.commands.run",
    "report": "conformance.commands.report",
    "bench": "conformance.commands.bench",
}

EPILOG = """\
examples:
  bleu-conformance score -r ref.txt -i hyp.txt --profile sacrebleu
  bleu-conformance explain -r ref.txt -i hyp.txt --profile nltk --knob smoothing=nltk-method3
  bleu-conformance profiles            # every profile and knob, with its meaning

exit codes: 0 success, 1 an unexpected result, 2 bad input or usage.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bleu-conformance",
        description="Exact BLEU with every semantic choice as a knob; verify and compare "
        "BLEU implementations against a fixture library with provenance.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        summary = (module.__doc__ or "").strip().splitlines()[0]
        sub_parser = sub.add_parser(
            name,
            help=summary,
            description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(sub_parser)
        sub_parser.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # e.g. piped into `head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
