"""Habits every command shares: --version, exit codes in --help, validated numbers, help
text on every option, and an internal error that never looks like a finding."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

import bleu_impl
from conformance import cli
from conformance.cli import SUBCOMMANDS, build_parser, main


def _status(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse exits by itself on usage errors, --help, --version
        return int(exc.code or 0)


def test_version(capsys) -> None:
    assert _status(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"bleu-conformance {bleu_impl.__version__}"


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_every_help_has_examples_and_the_same_exit_codes(command, capsys) -> None:
    assert _status([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out
    codes = out.split("exit codes:\n", 1)[1].splitlines()
    assert codes[0].startswith("  0  ")
    assert any(line.startswith("  2  ") for line in codes)
    assert [line[:5] for line in codes[-3:]] == ["  129", "  130", "  143"]
    assert any(line.startswith("  3  internal error") for line in codes)
    # 4 (too little checked) only where a command checks implementations
    assert any(line.startswith("  4  too little") for line in codes) == (
        command in ("run", "compare")
    )
    assert "site-packages" not in out


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_every_option_says_what_it_does(command) -> None:
    _, parsers = build_parser()
    silent = [
        "/".join(action.option_strings) or action.dest
        for action in parsers[command]._actions  # argparse keeps no public list
        if action.help != argparse.SUPPRESS and not (action.help or "").strip()
    ]
    assert silent == []


@pytest.mark.parametrize(
    "argv",
    [
        ["compare", "--jobs", "0"],
        ["compare", "--generate", "-5"],
        ["identify", "--impl", "nltk", "--generate", "-1"],
        ["identify", "--impl", "nltk", "--top", "0"],
        ["score", "-r", "ref.txt", "--jobs", "-2"],
        ["run", "--impl", "nltk", "--timeout", "-1"],
        ["run", "--impl", "nltk", "--timeout", "0"],
        ["run", "--impl", "nltk", "--timeout", "nan"],
        ["run", "--impl", "nltk", "--timeout", "inf"],
        ["run", "--impl", "nltk", "--timeout", "soon"],
        ["compare", "-r", "ref.txt", "-i", "a.txt", "--paired-bs-n", "0"],
        ["compare", "-r", "ref.txt", "-i", "a.txt", "--top", "-3"],
        ["score", "-r", "ref.txt", "--confidence", "--confidence-n", "0"],
        ["compare", "--scale", "100"],  # an option a command does not have
    ],
)
def test_bad_numbers_and_unknown_options_are_usage_errors(argv, capsys) -> None:
    assert _status(argv) == 2
    err = capsys.readouterr().err
    assert f"bleu-conformance {argv[0]}: error:" in err
    assert f"usage: bleu-conformance {argv[0]}" in err


def test_an_internal_error_is_exit_3_with_a_traceback_never_1(monkeypatch, capsys) -> None:
    def broken(args: argparse.Namespace) -> int:
        raise KeyError("a bug")

    real = cli.importlib.import_module

    def patched(name: str):
        module = real(name)
        if name == SUBCOMMANDS["profiles"]:
            monkeypatch.setattr(module, "run", broken)
        return module

    monkeypatch.setattr(cli.importlib, "import_module", patched)
    assert main(["profiles"]) == 3
    err = capsys.readouterr().err
    assert "Traceback" in err and "KeyError: 'a bug'" in err
    assert "internal error (exit 3)" in err and "not a verdict" in err


#: What no command's ``--help`` (nor ``--version``) loads: numbers, fixture files, their
#: schema, tables, clusters, torch; and what a real ``score`` of two lines does not use
#: either, besides numpy (``bleu_impl.fast`` counts with it).
NOT_FOR_SCORE = (
    "yaml",
    "jsonschema",
    "tabulate",
    "regex",
    "importlib.metadata",
    "dask",
    "torch",
    "conformance.cases.load",
    "conformance.reporters.compare_html",
    "conformance.reporters.run_text",
    "conformance.reporters.corpus_text",
)
NOT_FOR_HELP = ("numpy", "bleu_impl.fast", *NOT_FOR_SCORE)
#: Each command's own engine, which no other command loads.
ENGINES = {
    "compare": "conformance.engine.corpus.analysis",
    "identify": "conformance.engine.identify.identification",
    "versions": "conformance.engine.versions",
}
#: The commands whose ``--help`` and run load neither the engine nor the adapters.
LIGHT = ("score", "explain", "profiles", "validate", "report", "bench")
#: The command modules each command loads besides its own (``options`` for the others).
HELPERS = {
    "compare": ("compare_corpus", "compare_pairs", "logged", "options"),
    "identify": ("logged", "options"),
    "report": ("logged", "options"),
    "run": ("logged", "options"),
    "versions": ("logged", "options"),
}


def _imported(argv: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after running ``bleu-conformance argv``."""
    code = (
        "import contextlib, io, sys\nfrom conformance.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(sys.argv[1:])\nprint('\\n'.join(sys.modules), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    )
    return set(done.stderr.split())


@pytest.mark.parametrize(
    "argv",
    [["--version"], ["--help"], *([name, "--help"] for name in SUBCOMMANDS), ["score", "IN"]],
    ids=lambda argv: " ".join(argv),
)
def test_a_command_imports_only_what_it_uses(argv, tmp_path) -> None:
    """Start-up: a command loads its own module alone (``--help`` and ``--version`` none of
    the work's heavy modules; a real ``score`` not the fixtures, engine or adapters)."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\na dog\n")
    ref.write_text("the cat sat on a mat\nthe dog\n")
    if argv[-1] == "IN":
        argv = ["score", "-i", str(hyp), "-r", str(ref)]
    modules = _imported(argv)
    absent = NOT_FOR_SCORE if argv[-1] == str(ref) else NOT_FOR_HELP
    others = {engine for name, engine in ENGINES.items() if name != argv[0]}
    assert sorted(modules & {*absent, *others}) == []
    if argv[0] == "score":  # numpy counts a real input only
        assert ("bleu_impl.fast" in modules) is (argv[1] != "--help")
    if argv[0] in LIGHT or argv[0].startswith("-"):
        assert not {
            m for m in modules if m.startswith(("conformance.engine", "conformance.adapters"))
        }
    commands = {m.rpartition(".")[2] for m in modules if m.startswith("conformance.commands.")}
    own = {argv[0], *HELPERS.get(argv[0], ("options",))}
    assert commands <= own
