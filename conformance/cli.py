"""The ``bleu-conformance`` command line: one subcommand per module, loaded on demand."""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import importlib.util
import os
import signal
import sys
import threading
import traceback
from collections.abc import Sequence

from bleu_impl import __version__

#: subcommand -> module defining ``add_arguments(parser)``, ``run(args) -> int`` and
#: ``EXIT_CODES`` (its meaning of 0, 1 and 2), with the module docstring as its description.
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
    "versions": "conformance.commands.versions",
}

EPILOG = """\
examples:
  bleu-conformance compare             # bleu_impl (the paper) vs NLTK on every bundled fixture
  bleu-conformance run --impl sacrebleu
  bleu-conformance score -i hyp.txt -r ref.txt --profile sacrebleu
  bleu-conformance explain -r ref.txt -i hyp.txt --profile nltk --knob smoothing=nltk-method3
  bleu-conformance profiles            # every profile and knob, with its meaning

`bleu-conformance COMMAND --help` shows a command's options, examples and exit codes.

exit codes (every command): 0 success; 1 findings (failures, problems, the emulated tool
failing); 2 bad usage or input; 3 internal error (a bug in bleu-conformance, never a verdict
about the implementation under test); 130 interrupted (Ctrl-C), 143 terminated (SIGTERM),
129 hung up (SIGHUP): an interrupted run's log stays readable.
"""


def _summary(module_name: str) -> str:
    """The first line of a command module's docstring, read from its source (not imported:
    ``bleu-conformance --help`` lists every command without loading what each runs)."""
    spec = importlib.util.find_spec(module_name)
    assert spec is not None and spec.origin is not None, module_name
    with open(spec.origin, encoding="utf-8") as source:
        doc = ast.get_docstring(ast.parse(source.read())) or ""
    return doc.strip().splitlines()[0]


def build_parser(
    only: str | None = None,
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The root parser and each subcommand's parser (``only``: that subcommand's alone, or
    every command's summary alone for ``""``, so a command imports its own module and not
    every other's)."""
    from .commands.options import HelpFormatter, exit_codes_epilog

    parser = argparse.ArgumentParser(
        prog="bleu-conformance",
        description="Exact BLEU with every semantic choice as a knob; verify and compare "
        "BLEU implementations against a fixture library with provenance.",
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"bleu-conformance {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    parsers = {}
    for name, module_name in SUBCOMMANDS.items():
        if only == "":
            sub.add_parser(name, help=_summary(module_name))
        if only is not None and name != only:
            continue
        module = importlib.import_module(module_name)
        summary = (module.__doc__ or "").strip().splitlines()[0]
        sub_parser = sub.add_parser(
            name,
            help=summary,
            description=module.__doc__,
            formatter_class=HelpFormatter,
        )
        module.add_arguments(sub_parser)  # may set an epilog of its own: the codes go last
        codes = exit_codes_epilog(module.EXIT_CODES)
        sub_parser.epilog = f"{sub_parser.epilog}\n{codes}" if sub_parser.epilog else codes
        sub_parser.set_defaults(handler=module.run)
        parsers[name] = sub_parser
    return parser, parsers


def _issues_url() -> str:
    from importlib.metadata import PackageNotFoundError, metadata  # ~50 ms: on a crash only

    try:
        urls = metadata("bleu-conformance").get_all("Project-URL") or []
    except PackageNotFoundError:  # pragma: no cover - an uninstalled source tree
        urls = []
    found = [url.split(",", 1)[1].strip() for url in urls if url.lower().startswith("issues,")]
    return found[0] if found else "the project's issue tracker"


def internal_error(command: str) -> int:
    """Print the traceback of the exception being handled and what it means; exit 3."""
    from .commands.options import EXIT_INTERNAL

    traceback.print_exc()
    print(
        f"\nbleu-conformance {command}: internal error (exit {EXIT_INTERNAL}): this is a bug "
        "in bleu-conformance, not a verdict about the implementation under test. Please "
        f"report it with the traceback above: {_issues_url()}",
        file=sys.stderr,
    )
    return EXIT_INTERNAL


class Terminated(KeyboardInterrupt):
    """SIGTERM (or SIGHUP: the terminal or the session went away), raised like Ctrl-C so
    every ``finally`` runs and every adapter's process group is killed (a
    KeyboardInterrupt is never taken for an implementation's error)."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, frame: object) -> None:
    raise Terminated(signum)


#: Signals that end a command like SIGTERM: its adapters' process groups are killed (each
#: leads its own session, so a closed terminal's SIGHUP never reaches them).
_ENDING = tuple(s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _named(argv: Sequence[str]) -> str | None:
    """The one subcommand ``argv`` needs a parser for: the command it names (its first
    word), else ``""`` (``--help``, ``--version``, a usage error: the summaries suffice)."""
    return argv[0] if argv and argv[0] in SUBCOMMANDS else ""


def main(argv: Sequence[str] | None = None) -> int:
    parser, parsers = build_parser(_named(sys.argv[1:] if argv is None else argv))
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "passthrough", False):
        parsers[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    args.argv = tuple(sys.argv[1:] if argv is None else argv)  # what a log's header records
    main_thread = threading.current_thread() is threading.main_thread()
    previous = {s: signal.signal(s, _terminate) for s in _ENDING} if main_thread else {}
    try:
        status = int(args.handler(args) or 0)
        sys.stdout.flush()
        return status
    except Terminated as stop:
        name = "" if stop.signum == signal.SIGTERM else f" ({signal.Signals(stop.signum).name})"
        print(f"bleu-conformance {args.command}: terminated{name}", file=sys.stderr)
        return 128 + int(stop.signum)
    except KeyboardInterrupt:
        print(f"bleu-conformance {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into `head`
        _quiet_stdout()
        return 0
    except OSError as exc:  # standard output on a full disk, a closed stream...
        _quiet_stdout()
        reason = exc.strerror or str(exc)
        # a file named by the error may have been read, not written: name it neutrally
        what = f"{exc.filename}" if exc.filename else "cannot write (standard output?)"
        print(f"bleu-conformance {args.command}: error: {what}: {reason}", file=sys.stderr)
        return 2
    except Exception:
        return internal_error(args.command)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        processes = sys.modules.get("conformance.adapters.processes")
        if processes is not None:  # whatever an interruption left running
            processes.kill_all()


if __name__ == "__main__":
    sys.exit(main())
