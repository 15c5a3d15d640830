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


@pytest.mark.parametrize(
    ("argv", "absent"),
    [
        (["--version"], ("numpy", "jsonschema", "yaml", "conformance.adapters")),
        (["score", "-i", "HYP", "-r", "HYP"], ("jsonschema", "yaml", "conformance.adapters")),
    ],
)
def test_a_command_imports_only_what_it_uses(argv, absent, tmp_path) -> None:
    """Start-up: ``--version`` and ``score`` load no fixture loader (YAML, JSON Schema),
    no adapters, and ``--version`` not even numpy."""
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c\n", encoding="utf-8")
    probe = (
        "import contextlib, io, sys\nfrom conformance.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({[str(hyp) if a == 'HYP' else a for a in argv]!r})\n"
        f"print([m for m in {list(absent)!r} if m in sys.modules])"
    )
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[]"


#: What `score` never uses: the fixture library and its schema, YAML, the other commands'
#: reporters and engines, tabulate (it imports importlib.metadata), the intl tokenizer's regex.
NOT_FOR_SCORE = (
    "jsonschema",
    "yaml",
    "tabulate",
    "regex",
    "importlib.metadata",
    "conformance.cases",
    "conformance.engine",
    "conformance.adapters",
    "conformance.results.report",
    "conformance.reporters.compare_html",
    "conformance.reporters.run_text",
    "conformance.reporters.corpus_text",
)


def _imported(argv: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after running ``bleu-conformance argv``."""
    code = (
        "import sys\nfrom conformance.cli import main\ntry:\n    main(sys.argv[1:])\n"
        "except SystemExit:\n    pass\nprint('\\n'.join(sys.modules), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    )
    return set(done.stderr.split())


@pytest.mark.parametrize("help_only", [True, False], ids=["help", "two-lines"])
def test_score_imports_only_what_it_uses(tmp_path, help_only) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\na dog\n")
    ref.write_text("the cat sat on a mat\nthe dog\n")
    argv = ["score", "--help"] if help_only else ["score", "-i", str(hyp), "-r", str(ref)]
    modules = _imported(argv)
    assert "conformance.commands.score" in modules
    assert ("bleu_impl.fast" in modules) is not help_only  # numpy counts only a real input
    assert sorted(modules & set(NOT_FOR_SCORE)) == []
    assert not {m for m in modules if m.startswith("conformance.commands.")} - {
        "conformance.commands.score",
        "conformance.commands.options",
    }
