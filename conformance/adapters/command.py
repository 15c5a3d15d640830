"""Adapter for a one-shot legacy command (e.g. ``multi-bleu.perl``) run once per case.

The hypotheses and references are written to files in a fresh temporary directory (one
line per segment; ``hyp``, and ``ref0``, ``ref1``... one file per reference stream, shorter
when the last segments have fewer references), the
command template is filled in and run with a timeout, and the score is read from its
standard output with a regular expression whose named group ``score`` (and optionally
``bp``, ``hyp_len``, ``ref_len``) is the number.

Template placeholders: ``{hyp}`` hypothesis file, ``{refs}`` all reference files (separate
arguments), ``{ref0}``, ``{ref1}``..., ``{ref_stem}`` (the common prefix ``DIR/ref``, as
multi-bleu.perl expects), ``{dir}`` the directory, ``{flags}`` flags chosen by knob values.
A non-zero exit status is the implementation failing on the input (a :class:`Failure`);
no match of the regex is garbage (an error).
"""

from __future__ import annotations

import shlex
import subprocess
import tempfile
import threading
from collections.abc import Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import regex as regex_module

from ..protocol import AdapterError, Answer, Failure, Request, read_answer
from .base import Adapter, Capabilities, canonical
from .declared import read_declaration
from .processes import describe_exit, kill_group, spawn
from .streams import MAX_OUTPUT, Capture
from .text import as_line, joinable, to_streams

#: multi-bleu.perl's line: ``BLEU = 50.46, 94.4/58.8/43.8/26.7 (BP=1.000, ratio=1.000, ...``
MULTI_BLEU_REGEX = (
    r"BLEU = (?P<score>[-\d.]+),[^(\n]{0,200}\(BP=(?P<bp>[\d.]+), ratio=[\d.]+, "
    r"hyp_len=(?P<hyp_len>\d+), ref_len=(?P<ref_len>\d+)\)"
)
DEFAULT_REGEX = r"(?P<score>[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
#: The groups of the output regex that are numbers of the answer.
_NUMBERS = ("score", "bp", "hyp_len", "ref_len")
#: Seconds a finished command's pipes may stay open (a daemon holding them is then killed).
_GRACE = 1.0


class CommandAdapter(Adapter):
    """Run a command template once per case and parse its output."""

    separate_process = True

    def __init__(
        self,
        template: str,
        *,
        regex: str = DEFAULT_REGEX,
        stdin: str | None = None,
        flags: Mapping[str, str] | None = None,
        cwd: str | None = None,
        where: str = "cmd",
        **declared: Any,
    ) -> None:
        if not isinstance(template, str) or not template.strip():
            raise AdapterError("config", f"{where}: template must be a command line")
        try:
            words = shlex.split(template)
        except ValueError as exc:
            raise AdapterError("config", f"{where}: template {template!r}: {exc}") from None
        self.template = template
        if not isinstance(regex, str):
            raise AdapterError("config", f"{where}: regex must be a string, got {regex!r}")
        try:  # the regex package: a match can be given a timeout
            self.regex = regex_module.compile(regex, regex_module.MULTILINE | regex_module.V0)
        except regex_module.error as exc:
            raise AdapterError("config", f"invalid output regex {regex!r}: {exc}") from None
        if "score" not in self.regex.groupindex:
            raise AdapterError("config", f"output regex {regex!r} has no (?P<score>...) group")
        if stdin not in (None, "hyp"):
            raise AdapterError("config", f"stdin must be 'hyp' or empty, got {stdin!r}")
        self.stdin = stdin
        self.flags = _checked_flags(flags, where)
        self.cwd = cwd
        fields = read_declaration(
            {"levels": ["corpus"], **{k: v for k, v in declared.items() if v is not None}}, where
        )
        knobs = dict(fields.pop("knobs", None) or {})
        for key in self.flags:  # a flag "lowercase=ascii" makes that knob value settable
            knob, _, value = key.partition("=")
            allowed = knobs.get(knob, ())
            knobs[knob] = None if allowed is None else (*allowed, _parse_value(value))
        self.capabilities = Capabilities(
            **{"name": words[0], **fields},
            knobs=knobs,
            inputs=frozenset({"raw", "tokenized"}),
        )

    def check(self, request: Request) -> str | None:
        reason = super().check(request)
        if reason is None and request.input_format == "tokenized" and not joinable(request):
            reason = "a line-based command cannot take tokens containing whitespace"
        texts = [*request.hypotheses, *(r for rs in request.references for r in rs)]
        if reason is None and any(isinstance(t, str) and ("\n" in t or "\r" in t) for t in texts):
            reason = "a line-based command cannot take a segment containing a line break"
        if reason is None and any(None in stream for stream in _file_streams(request)):
            reason = (
                "a reference file cannot skip a line: only the last segments can lack a "
                "reference (a shorter file)"
            )
        return reason

    def _flags(self, config: Mapping[str, Any]) -> list[str]:
        out: list[str] = []
        for key, flag in self.flags.items():
            knob, _, value = key.partition("=")
            if knob in config and canonical(knob, config[knob]) == canonical(
                knob, _parse_value(value)
            ):
                out.extend(shlex.split(flag))
        return out

    def _argv(self, directory: Path, n_refs: int, config: Mapping[str, Any]) -> list[str]:
        refs = [str(directory / f"ref{k}") for k in range(n_refs)]
        singles = {
            "hyp": str(directory / "hyp"),
            "ref_stem": str(directory / "ref"),
            "dir": str(directory),
            **{f"ref{k}": path for k, path in enumerate(refs)},
        }
        argv: list[str] = []
        for word in shlex.split(self.template):
            if word == "{refs}":
                argv.extend(refs)
            elif word == "{flags}":
                argv.extend(self._flags(config))
            else:
                try:
                    argv.append(word.format(**singles))
                except (KeyError, IndexError) as exc:
                    raise AdapterError(
                        "config", f"unknown placeholder {exc} in command template {word!r}"
                    ) from None
        return argv

    def run(self, request: Request) -> Answer:
        streams = _file_streams(request)
        with tempfile.TemporaryDirectory(prefix="bleu-conformance-") as tmp:
            directory = Path(tmp)
            (directory / "hyp").write_text(
                "".join(as_line(h) + "\n" for h in request.hypotheses), encoding="utf-8"
            )
            for k, stream in enumerate(streams):
                (directory / f"ref{k}").write_text(
                    "".join(as_line(r) + "\n" for r in stream), encoding="utf-8"
                )
            argv = self._argv(directory, len(streams), request.complete)
            stdout, stderr, returncode = self._execute(argv, directory)
        if returncode != 0:
            detail = (stderr.strip() or stdout.strip()).splitlines()[-1:] or [""]
            return Answer(
                failure=Failure(
                    kind=None,
                    message=f"{describe_exit(returncode)}: {detail[0][:200]}",
                    stderr=stderr,
                ),
                stderr=stderr,
            )
        timeout = self.capabilities.timeout
        try:  # a pattern that backtracks on the output is bounded by the case's timeout
            match = self.regex.search(stdout, timeout=timeout)
        except TimeoutError:
            message = (
                f"the output regex did not finish within {timeout:g}s on {len(stdout):,} characters"
            )
            raise AdapterError("timeout", message, stderr) from None
        if match is None:
            raise AdapterError(
                "garbage",
                f"output does not match {self.regex.pattern!r}: {stdout[:300]!r}",
                stderr,
            )
        groups = match.groupdict()
        try:  # ``1e999`` reads as inf: garbage
            printed = {k: float(groups[k]) for k in _NUMBERS if groups.get(k) is not None}
        except ValueError:
            raise AdapterError("garbage", f"not a number in {match.group(0)!r}", stderr) from None
        return read_answer(printed, stderr)

    def _execute(self, argv: list[str], directory: Path) -> tuple[str, str, int]:
        """Run ``argv`` in its own process group and read its output with bounded memory;
        on timeout the whole group is killed. Once the command has exited, a daemon it
        left holding its output open is killed (it does not turn the case into a
        timeout), and stdout beyond :data:`~.streams.MAX_OUTPUT` is garbage."""
        timeout = self.capabilities.timeout
        try:
            with ExitStack() as stack:
                stdin: Any = subprocess.DEVNULL
                if self.stdin == "hyp":
                    stdin = stack.enter_context((directory / "hyp").open("rb"))
                proc = spawn(argv, stdin=stdin, stdout=-1, stderr=-1, cwd=self.cwd)
        except OSError as exc:
            raise AdapterError("crash", f"cannot run {shlex.join(argv)}: {exc}") from None
        try:
            assert proc.stdout is not None and proc.stderr is not None
            capture = Capture(proc.stdout, proc.stderr)
            done = capture.overflowed  # set by the output overflowing or the command ending
            threading.Thread(target=_set_when_done, args=(proc, done), daemon=True).start()
            if not done.wait(timeout):
                kill_group(proc)
                capture.wait(_GRACE)
                raise AdapterError(
                    "timeout",
                    f"{shlex.join(argv)} did not finish within {timeout:g}s (killed)",
                    capture.stderr.text(),
                ) from None
            if capture.overflow or not capture.wait(_GRACE):  # or a child holds the pipes
                kill_group(proc)
                capture.wait(_GRACE)
        except BaseException:  # interrupted: leave nothing running
            kill_group(proc)
            raise
        kill_group(proc)  # a daemon it left behind
        if capture.overflow:
            raise AdapterError(
                "garbage",
                f"{shlex.join(argv)} wrote more than {MAX_OUTPUT // 2**20} MiB to stdout",
                capture.stderr.text(),
            )
        return capture.stdout, capture.stderr.text(), proc.returncode


def _checked_flags(flags: Any, where: str) -> dict[str, str]:
    """``{"knob=value": "--flag"}``, each knob known and each value valid for it."""
    if flags is None:
        return {}
    if not isinstance(flags, Mapping):
        raise AdapterError("config", f"{where}: flags must map 'knob=value' to a flag")
    for key, flag in flags.items():
        knob, eq, value = str(key).partition("=")
        if not eq or not isinstance(flag, str):
            raise AdapterError("config", f'{where}: flags: {key!r}: want "knob=value": "--flag"')
        read_declaration({"knobs": {knob: [_parse_value(value)]}}, f"{where}: flags")
    return dict(flags)


def _file_streams(request: Request) -> list[list[Any]]:
    """Reference files, one per stream: a segment without a k-th reference has no line in
    file k, which a file can only express at its end (``None`` marks one in the middle)."""
    streams = to_streams(request.references)
    for stream in streams:
        while stream and stream[-1] is None:
            stream.pop()
    return streams


def _parse_value(text: str) -> Any:
    """Knob values in flag keys: ``true``/``false`` and integers, else the string."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return int(text) if text.strip().isdigit() else text.strip()


def _set_when_done(proc: subprocess.Popen[Any], done: threading.Event) -> None:
    proc.wait()
    done.set()
