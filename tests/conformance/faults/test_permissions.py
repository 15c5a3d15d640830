"""Fault injection: fixture folders the user may not read, and outputs into directories
the user may not write. An unreadable folder is a problem naming it and the reason (never a
silent skip, never "cannot write" a file that is only read); an unwritable output is a
clear error before the work. As root every file is readable and writable, so the checks run
with the effective uid of ``nobody``."""

from __future__ import annotations

import contextlib
import importlib
import os
import pkgutil
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.cases import load_fixtures
from conformance.cases.implementations import BUNDLED_ROOT

from ..helpers import MINI
from .common import GOOD, cli

TRIPWIRE = "tests.conformance.fakes.hostile:spin"  # would hang: never reached when checked first

NOBODY = 65534


def _import_everything() -> None:
    """Import every harness module (and what it imports, and the libraries they import inside
    functions) while still root: the commands import lazily, and root's Python installation may
    be unreadable by ``nobody``."""
    import conformance

    for info in pkgutil.walk_packages(conformance.__path__, prefix="conformance."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    for library in ("jsonschema", "numpy", "tabulate", "yaml"):
        importlib.import_module(library)


@contextlib.contextmanager
def unprivileged() -> Iterator[None]:
    """Run the block as ``nobody`` when this process is root (permissions bind nobody)."""
    if os.geteuid() != 0:
        yield
        return
    _import_everything()
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


def _readable_as_nobody(path: Path) -> bool:
    with unprivileged():
        return os.access(path, os.R_OK)


@pytest.fixture
def library() -> Iterator[Path]:
    """A world-readable folder with one good case file (pytest's tmp_path is private)."""
    if not _readable_as_nobody(BUNDLED_ROOT / "implementations.yaml"):
        pytest.skip("the bundled fixtures are not readable by an unprivileged user here")
    top = Path(tempfile.mkdtemp(prefix="bleu-unreadable-"))
    try:
        top.chmod(0o755)
        folder = top / "cases"
        folder.mkdir(mode=0o755)
        shutil.copy(MINI, folder / "good.yaml")
        (folder / "good.yaml").chmod(0o644)
        if not _readable_as_nobody(folder / "good.yaml"):
            pytest.skip("the temporary directory is not reachable by an unprivileged user")
        yield folder
    finally:
        for path in top.rglob("*"):
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(top)


def test_validate_on_an_unreadable_folder_names_it(capsys, library):
    assert cli(capsys, "validate", str(library))[0] == 0  # imports what it needs as root
    library.chmod(0)
    with unprivileged():
        status, out, err = cli(capsys, "validate", str(library))
    assert status == 1, err
    assert "cannot read this directory" in out and "Permission denied" in out
    assert "OK" not in out and "cannot write" not in err


def test_an_unreadable_subfolder_is_a_problem_and_the_rest_loads(library):
    hidden = library / "more"
    hidden.mkdir(mode=0o755)
    shutil.copy(MINI, hidden / "other.yaml")
    hidden.chmod(0)
    with unprivileged():
        loaded = load_fixtures([library])
    assert len(loaded.cases) == 4
    problems = [p for p in loaded.problems if p.file.endswith("more")]
    assert problems and "cannot read this directory" in problems[0].message


def test_run_next_to_an_unreadable_folder_exits_2_naming_it(capsys, library):
    locked = library.parent / "locked"
    locked.mkdir(mode=0o755)
    locked.chmod(0)
    assert cli(capsys, "run", "--impl", "bleu_impl", "--fixtures", str(library))[0] == 0
    with unprivileged():
        status, out, err = cli(
            capsys, "run", "--impl", "bleu_impl", "--fixtures", str(library),
            "--fixtures", str(locked),
        )  # fmt: skip
    assert status == 2
    assert "FIXTURE PROBLEMS: 1" in out and "100.0%" in out  # the good cases still ran
    assert "cannot write" not in err
    words = " ".join(out.split())  # the screen wraps at the terminal's width
    assert "locked" in words and "cannot read this directory" in words


def test_run_next_to_an_unreadable_fixture_file_exits_2_naming_it(capsys, library):
    locked = library / "zz.yaml"
    locked.write_text(MINI.read_text(encoding="utf-8").replace("id: mini.", "id: zz."))
    locked.chmod(0)
    argv = ["run", "--impl", "bleu_impl", "--fixtures", str(library / "good.yaml")]
    assert cli(capsys, *argv)[0] == 0  # imports what it needs as root
    with unprivileged():
        status, out, err = cli(capsys, *argv, "--fixtures", str(locked))
    assert status == 2
    assert "FIXTURE PROBLEMS: 1" in out and "100.0%" in out  # the good cases still ran
    assert "zz.yaml" in out and "cannot read" in out and "Permission denied" in out
    assert "fixture problem" in err and "cannot write" not in err


def test_validate_with_an_unreadable_root_is_a_problem(capsys, library):
    assert cli(capsys, "validate", "--root", str(BUNDLED_ROOT), str(library))[0] == 0
    root = library.parent / "root"
    root.mkdir(mode=0o755)
    root.chmod(0)
    with unprivileged():
        status, out, err = cli(capsys, "validate", "--root", str(root), str(library))
    assert status == 1, err
    assert "implementations.yaml" in out and "cannot read: Permission denied" in out
    assert "cannot write" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--output"],
        ["run", "--junit-xml"],
        ["run", "--update-baseline", "--baseline"],
        ["compare", "--impl", GOOD, "--output"],
        ["compare", "--impl", GOOD, "--report"],
    ],
)
def test_an_output_into_a_read_only_directory_fails_before_the_work(capsys, library, argv):
    readonly = library.parent / "readonly"
    readonly.mkdir(mode=0o555)
    target = str(readonly / "out")
    command, *options = argv
    assert cli(capsys, "validate", str(MINI))[0] == 0  # imports what it needs as root
    with unprivileged():
        status, out, err = cli(
            capsys, command, "--fixtures", str(MINI), "--impl", TRIPWIRE, *options, target
        )
    assert status == 2 and out == ""
    assert target in err and "Permission denied" in err
