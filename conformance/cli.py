"""The ``bleu-conformance`` command line: one subcommand per module, loaded on demand."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Sequence

from .adapters.processes import kill_all

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

exit codes: 0 success, 1 an unexpected result, 2 bad input or usage, 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM); an interrupted run's log stays readable.
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


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so every ``finally`` runs and every adapter's process
    group is killed (a KeyboardInterrupt is never taken for an implementation's error)."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if main_thread else None
    try:
        status = int(args.handler(args) or 0)
        sys.stdout.flush()
        return status
    except Terminated:
        print(f"bleu-conformance {args.command}: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print(f"bleu-conformance {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into `head`
        _quiet_stdout()
        return 0
    except OSError as exc:  # standard output on a full disk, a closed stream...
        _quiet_stdout()
        reason = exc.strerror or str(exc)
        where = f" {exc.filename}" if exc.filename else " (standard output?)"
        print(
            f"bleu-conformance {args.command}: error: cannot write{where}: {reason}",
            file=sys.stderr,
        )
        return 2
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
        kill_all()  # whatever an interruption left running


if __name__ == "__main__":
    sys.exit(main())
