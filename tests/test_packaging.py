"""The packages people install: the wheel built from the sdist, installed with its runtime
dependencies only into a fresh virtual environment, works from a directory outside the
checkout, and every example of the README, of the docs that detail it and of every
command's --help runs there; the metric's own wheel (metric/: bleu-impl) installs alone
with numpy and regex and scores as the harness does.

The build and the environment are made once per session and cached under pytest's cache
directory, keyed by the content of everything that goes into the package (a fresh clone, as
in CI, builds them once: about half a minute). Examples that only scale the work with a
number (``--generate 200``) run with a small one: the code paths are the same.
"""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGED = ("bleu_impl", "conformance", "fixtures", "pyproject.toml", "README.md", "LICENSE")
PACKAGED += ("MANIFEST.in", "setup.py", "metric/pyproject.toml", "metric/README.md")
METRIC = ROOT / "metric"
SUBCOMMANDS = (
    "score",
    "explain",
    "profiles",
    "compare",
    "identify",
    "disagreements",
    "validate",
    "run",
    "report",
    "bench",
    "versions",
)
#: Live libraries that are optional extras: in the runtime-only environment an example
#: using one must fail cleanly and say what to install.
OPTIONAL = {"sacrebleu": r"--impl[ =]sacrebleu\b", "torchmetrics": r"--impl[ =]torchmetrics\b"}


# --- static checks (fast) -----------------------------------------------------------------


def _pyproject(folder: Path = ROOT) -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    return tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_package_list_is_the_source_tree() -> None:
    """Every package directory is installed (an explicit list, because fixtures/ is mapped
    to conformance.fixtures); bench/, tests/ and tools/ are not."""
    config = _pyproject()["tool"]["setuptools"]
    found = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ("bleu_impl", "conformance")
        for path in (ROOT / top).rglob("__init__.py")
    }
    assert set(config["packages"]) == found | {"conformance.fixtures"}
    assert config["package-dir"] == {"conformance.fixtures": "fixtures"}


def test_readme_links_work_on_the_package_index() -> None:
    """The README is the long description: a relative link would be broken on the index."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    assert [link for link in links if not link.startswith(("https://", "#"))] == []
    urls = _pyproject()["project"]["urls"]
    assert all(link.startswith(urls["Homepage"]) for link in links if "github.com" in link)


def test_metadata_declares_license_typing_and_extras() -> None:
    project = _pyproject()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Typing :: Typed" in project["classifiers"]
    assert {"sacrebleu", "torchmetrics"} <= set(project["optional-dependencies"])
    assert (ROOT / "bleu_impl" / "py.typed").is_file()
    assert (ROOT / "conformance" / "py.typed").is_file()


def test_the_metric_distribution_is_the_bleu_impl_package() -> None:
    """metric/ builds the one copy of bleu_impl (a link to it) with the harness's own
    dependencies of the metric, tokenizer extras and version source."""
    metric, harness = _pyproject(METRIC), _pyproject()
    assert (METRIC / "bleu_impl").resolve() == ROOT / "bleu_impl"
    assert (METRIC / "LICENSE").resolve() == ROOT / "LICENSE"
    packages = harness["tool"]["setuptools"]["packages"]
    assert metric["tool"]["setuptools"]["packages"] == [p for p in packages if "bleu_impl" in p]
    wanted = [d for d in harness["project"]["dependencies"] if d.startswith(("regex", "numpy"))]
    assert metric["project"]["dependencies"] == wanted
    extras = metric["project"]["optional-dependencies"]
    assert set(extras) == {"ja", "ko", "spm", "dask"}
    assert extras == {name: harness["project"]["optional-dependencies"][name] for name in extras}
    assert metric["tool"]["setuptools"]["dynamic"] == harness["tool"]["setuptools"]["dynamic"]


# --- the build (slow, cached) -------------------------------------------------------------


def _fingerprint() -> str:
    digest = hashlib.sha256(sys.version.encode())
    for name in PACKAGED:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in files:
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(str(file.relative_to(ROOT)).encode())
                digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


@pytest.fixture(scope="session")
def cache_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = getattr(request.config, "cache", None)
    base = cache.mkdir("bleu-conformance-wheel") if cache else tmp_path_factory.mktemp("wheel")
    key = _fingerprint()
    for old in base.iterdir():  # one build per source state is enough
        if old.name != key:
            shutil.rmtree(old, ignore_errors=True)
    return base / key


@dataclass(frozen=True)
class Built:
    wheel: Path
    sdist: Path
    log: str


@pytest.fixture(scope="session")
def built(cache_dir: Path) -> Built:
    """``python -m build``: the sdist, then the wheel built from it (isolated, as pip does)."""
    dist = cache_dir / "dist"
    log_file = cache_dir / "build.log"
    with _exclusive(f"build-{cache_dir.name}"):  # workers share the tree the sdist is made in
        if not list(dist.glob("*.whl")):
            _build(dist, log_file)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    return Built(wheel, sdist, log_file.read_text(encoding="utf-8"))


@contextlib.contextmanager
def _exclusive(name: str) -> Iterator[None]:
    """An exclusive lock across pytest-xdist workers: setuptools stages the sdist in the
    source tree, and the workers share the cached wheel environment, so two workers
    building or installing at once break each other's work."""
    lock = Path(tempfile.gettempdir()) / f"bleu-conformance-{name}.lock"
    with lock.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _build(dist: Path, log_file: Path, source: Path = ROOT) -> None:
    """``python -m build`` of ``source`` into ``dist`` (its output kept in ``log_file``)."""
    shutil.rmtree(dist, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    log_file.write_text(proc.stdout + proc.stderr, encoding="utf-8")


@pytest.mark.slow
def test_build_has_no_warnings(built: Built) -> None:
    warnings = [line for line in built.log.splitlines() if re.search(r"warn|deprecat", line, re.I)]
    assert warnings == []


@pytest.mark.slow
def test_wheel_and_sdist_carry_the_fixture_library(built: Built) -> None:
    library = sorted(
        p.relative_to(ROOT / "fixtures").as_posix()
        for p in (ROOT / "fixtures").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    names = zipfile.ZipFile(built.wheel).namelist()
    assert [n for n in library if f"conformance/fixtures/{n}" not in names] == []
    tops = {n.split("/")[0] for n in names if not n.startswith("bleu_conformance-")}
    assert tops == {"bleu_impl", "conformance"}  # no generic top-level bench, fixtures, tests
    assert {"bleu_impl/py.typed", "conformance/py.typed"} <= set(names)
    assert "conformance/schemas/protocol.schema.json" in names  # the protocol's contract
    (info,) = {n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA")}
    metadata = zipfile.ZipFile(built.wheel).read(f"{info}/METADATA").decode()
    assert "License-Expression: MIT" in metadata and "Project-URL: Issues," in metadata
    assert f"{info}/licenses/LICENSE" in names
    with tarfile.open(built.sdist) as sdist:
        members = {m.split("/", 1)[1] for m in sdist.getnames() if "/" in m}
    assert {f"fixtures/{n}" for n in library} <= members
    assert {"LICENSE", "README.md", "docs/runner.md", "tests/test_packaging.py"} <= members


# --- the installed wheel, outside the checkout (slow, cached) -----------------------------


@dataclass(frozen=True)
class Env:
    bin: Path
    python: Path
    pytest_path: Path  # pytest installed beside (not into) the environment, for the plugin


@pytest.fixture(scope="session")
def wheel_env(built: Built, cache_dir: Path) -> Env:
    """A fresh venv with the wheel and its runtime dependencies only (no extras)."""
    venv = cache_dir / "venv"
    with _exclusive(f"venv-{cache_dir.name}"):
        if not (venv / "ready").exists():
            _make_wheel_env(venv, built.wheel, cache_dir / "pytest", pip=True)
    return Env(venv / "bin", venv / "bin" / "python", cache_dir / "pytest")


@pytest.fixture(scope="session")
def sacrebleu_env(built: Built, cache_dir: Path) -> Env:
    """A fresh venv with the wheel and its ``[sacrebleu]`` extra, for the examples naming it."""
    venv = cache_dir / "venv-sacrebleu"
    with _exclusive(f"venv-sacrebleu-{cache_dir.name}"):
        if not (venv / "ready").exists():
            _make_wheel_env(venv, Path(f"{built.wheel}[sacrebleu]"), pip=True)
    return Env(venv / "bin", venv / "bin" / "python", cache_dir / "pytest")


#: uv, installed by the test extra beside this python (venv and pip take ten times longer)
UV = shutil.which("uv", path=str(Path(sys.executable).parent)) or "uv"


def _uv(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([UV, *args], capture_output=True, text=True, check=False)


def _make_wheel_env(
    venv: Path, wheel: Path, target: Path | None = None, *, pip: bool = False
) -> None:
    """A venv with ``wheel`` installed, and pytest installed into ``target`` (if given),
    made by uv from the indexes pip is configured with; ``pip``: with pip in it too, as in
    a user's environment (``versions`` lists releases with it)."""
    from conformance.adapters.releases import pip_config_flags

    shutil.rmtree(venv, ignore_errors=True)
    python = str(venv / "bin" / "python")
    install = ["pip", "install", "-q", "--python", python, "--index-strategy", "unsafe-best-match"]
    install += pip_config_flags()
    seed = ["--seed"] if pip else []
    steps = [["venv", "-q", *seed, "--python", sys.executable, str(venv)], [*install, str(wheel)]]
    if target:
        steps.append([*install, "--target", str(target), "pytest"])
    for step in steps:
        proc = _uv(*step)
        assert proc.returncode == 0, proc.stderr[-3000:]
    (venv / "ready").touch()


def _shell(env: Env, command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = cwd / ".bin"  # `pytest` = the environment's python with pytest beside it
    if not bin_dir.exists():
        bin_dir.mkdir()
        wrapper = bin_dir / "pytest"
        wrapper.write_text(f'#!/bin/sh\nexec "{env.python}" -m pytest "$@"\n', encoding="utf-8")
        wrapper.chmod(0o755)
    variables = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CI")
    }
    own = str(Path(sys.executable).parent)  # the test environment's commands stay out
    path = [p for p in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep) if p != own]
    variables.update(
        PATH=os.pathsep.join([str(bin_dir), str(env.bin), *path]),
        PYTHONPATH=str(env.pytest_path),
        NO_COLOR="1",
        COLUMNS="120",
    )
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=variables,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


HYP = "The cat sat on the mat.\nHello there, general Kenobi!\nIt rained all day long.\n"
REFS = (
    "The cat is on the mat.\nHello there general Kenobi !\nIt was raining all day.\n",
    "There is a cat on the mat.\nHi there, Kenobi!\nAll day long it rained.\n",
)


#: Texts for the documented examples in other languages (hyp.LANG, ref.LANG).
OTHER_LANGUAGES = {
    "zh": ("猫坐在垫子上。\n今天下雨了。\n", "猫在垫子上。\n今天一直在下雨。\n"),
    "ja": ("猫がマットの上に座った。\n", "猫はマットの上にいる。\n"),
    "sw": ("Paka ameketi juu ya mkeka.\n", "Paka yuko juu ya mkeka.\n"),
}


def _workspace(path: Path) -> Path:
    """A directory with the files the examples name: texts, a user's metric, examples/."""
    path.mkdir(parents=True)
    for name in ("hyp.txt", "big.txt", "sys1.txt", "sys2.txt"):
        (path / name).write_text(HYP, encoding="utf-8")
    (path / "sys3.txt.gz").write_bytes(gzip.compress(HYP.encode()))
    for language, (hyp, ref) in OTHER_LANGUAGES.items():
        (path / f"hyp.{language}").write_text(hyp, encoding="utf-8")
        (path / f"ref.{language}").write_text(ref, encoding="utf-8")
    for name, text in (("ref.txt", REFS[0]), ("ref0.txt", REFS[0]), ("ref1.txt", REFS[1])):
        (path / name).write_text(text, encoding="utf-8")
    (path / "mypkg").mkdir()
    (path / "mypkg" / "__init__.py").write_text("", encoding="utf-8")
    shutil.copy(ROOT / "examples" / "naive_bleu.py", path / "mypkg" / "metrics.py")
    shutil.copytree(ROOT / "examples", path / "examples")
    (path / "my-cases").mkdir()
    shutil.copy(ROOT / "fixtures" / "papineni2002" / "paper-examples.yaml", path / "my-cases")
    shutil.copy(ROOT / "fixtures" / "papineni2002" / "paper-examples.yaml", path / "my-cases.yaml")
    (path / "my-library").mkdir()
    for name in ("implementations.yaml", "tags.yaml"):
        shutil.copy(ROOT / "fixtures" / name, path / "my-library")
    shutil.copytree(ROOT / "fixtures" / "schema", path / "my-library" / "schema")
    return path


def help_examples(env: Env, tmp: Path) -> dict[str, list[str]]:
    """Each command's --help examples, read from the installed command."""
    found = {}
    for command in ("", *SUBCOMMANDS):
        proc = _shell(env, f"bleu-conformance {command} --help", tmp)
        assert proc.returncode == 0, proc.stderr
        block = proc.stdout.split("\nexamples:\n", 1)[1].split("\n\n", 1)[0]
        block = re.sub(r" \\\n\s*", " ", block)  # a wrapped example is one command
        found[command or "root"] = [
            line.strip() for line in block.splitlines() if line.strip()[:1] not in ("", "#")
        ]
    return found


#: The documents whose command examples run from the wheel (the README's details are in docs/).
DOCUMENTED = ("README.md", "docs/commands.md", "docs/bleu_impl.md")


def documented_examples(document: str) -> list[str]:
    text = (ROOT / document).read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, re.S)
    return [
        line.strip()
        for block in blocks
        for line in re.sub(r"\\\n\s*", "", block).splitlines()  # continued lines joined
        if line.startswith(("bleu-conformance ", "pytest "))
    ]


#: Examples test_the_main_jobs_work_from_the_wheel runs as they are (and checks closely).
MAIN_JOBS = (
    "bleu-conformance compare",
    "bleu-conformance disagreements",
    "bleu-conformance disagreements --check",
)


def _scaled(command: str) -> str:
    """The example with less work and the same code paths: ``--generate 2``, and fixture
    commands without a selection limited to the paper's cases (``-k paper``; not corpus
    mode, ``-r``)."""
    parts = []
    for part in re.sub(r"--generate \d+", "--generate 2", command).split("&&"):
        selected = re.search(r"(^|\s)(-k|--tag|--fixtures|--replay|-r)\s", part)
        if not selected:
            part = re.sub(r"(bleu-conformance (compare|identify|run))\b", r"\1 -k paper", part)
        parts.append(part)
    return "&&".join(parts).replace("/tmp/", "./")


def _allowed(command: str, extras: frozenset[str]) -> tuple[set[int], tuple[str, ...]]:
    """Exit statuses an example may end with in an environment holding the optional
    libraries ``extras``, and texts one of which its output must contain."""
    for name, pattern in OPTIONAL.items():
        if re.search(pattern, command) and name not in extras:  # not installed here
            # (a baseline example after one that could not record it finds none)
            return {1, 2}, (f"pip install {name}", "no baseline at")
    if re.search(r"tokenize=ja-mecab|-l \w+-ja\b", command):  # MeCab is the [ja] extra
        return {2}, ("pip install 'bleu-conformance[ja]'",)
    if re.search(r"tokenize=(spm|flores)", command):  # the [spm] extra and a model file
        return {2}, ("pip install 'bleu-conformance[spm]'", "spm_model")
    if command.startswith("bleu-conformance bench"):
        return {2}, ("not part of the installed package",)
    if "multi-bleu.yaml" in command:  # needs the Moses script next to it
        return {1}, ("",)
    return {0, 1}, ("",)  # 1: findings, e.g. the naive BLEU of the examples fails cases


def _run_examples(
    env: Env, commands: list[str], cwd: Path, extras: frozenset[str] = frozenset()
) -> list[str]:
    """The problems of running ``commands`` in ``env``, which has the optional libraries
    ``extras`` installed (an example naming one of them must then really run)."""
    problems = []
    for command in commands:
        if command.split("#")[0].strip() in MAIN_JOBS:
            continue
        proc = _shell(env, _scaled(command), cwd)
        output = proc.stdout + proc.stderr
        statuses, needed = _allowed(command, extras)
        crashed = "Traceback" in proc.stderr  # (stdout may quote a tested library's own)
        if proc.returncode not in statuses or crashed or not any(t in output for t in needed):
            problems.append(f"$ {command}\n(exit {proc.returncode})\n{output[-1500:]}")
    return problems


@pytest.mark.slow
def test_every_documented_example_runs_from_the_wheel(wheel_env: Env, tmp_path: Path) -> None:
    """Documented and --help examples, from a directory outside the checkout, with only the
    runtime dependencies: no traceback; an optional library missing says what to install."""
    groups = help_examples(wheel_env, tmp_path)
    groups.update({document: documented_examples(document) for document in DOCUMENTED})
    workspaces = {name: _workspace(tmp_path / name.replace("/", "-")) for name in groups}
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures = [
            pool.submit(_run_examples, wheel_env, commands, workspaces[name])
            for name, commands in groups.items()
        ]
        problems = [problem for future in futures for problem in future.result()]
    assert problems == [], "\n\n".join(problems)
    assert sum(len(commands) for commands in groups.values()) > 40


@pytest.mark.slow
def test_examples_naming_sacrebleu_run_with_its_extra(
    sacrebleu_env: Env, wheel_env: Env, tmp_path: Path
) -> None:
    """The examples that name ``--impl sacrebleu`` (and no other optional library), from the
    wheel with ``[sacrebleu]`` installed: they run (exit 0, or 1 for findings), no install
    hint, no traceback."""
    groups = help_examples(wheel_env, tmp_path)
    groups.update({document: documented_examples(document) for document in DOCUMENTED})
    others = [p for name, p in OPTIONAL.items() if name != "sacrebleu"]
    naming = [
        command
        for commands in groups.values()
        for command in commands
        if re.search(OPTIONAL["sacrebleu"], command)
        and not any(re.search(p, command) for p in others)
    ]
    problems = _run_examples(
        sacrebleu_env, naming, _workspace(tmp_path / "sacrebleu"), frozenset({"sacrebleu"})
    )
    assert problems == [], "\n\n".join(problems)
    assert len(naming) >= 3, naming


@pytest.mark.slow
def test_the_main_jobs_work_from_the_wheel(wheel_env: Env, tmp_path: Path) -> None:
    """What failed from the wheel before the fixtures were package data."""
    work = _workspace(tmp_path / "work")
    version = _shell(wheel_env, "bleu-conformance --version", work)
    assert version.returncode == 0 and version.stdout.startswith("bleu-conformance 0")
    compare = _shell(wheel_env, "bleu-conformance compare", work)  # the README's main job
    assert compare.returncode == 0, compare.stderr
    assert "nltk" in compare.stdout and "zero_match" in compare.stdout
    run = _shell(wheel_env, "bleu-conformance run --impl nltk --format json -q", work)
    assert run.returncode == 0, run.stderr
    files = {result["file"] for result in json.loads(run.stdout)["results"]}
    assert files and all(file.startswith("fixtures/") for file in files)  # not site-packages
    (work / "docs").mkdir()  # the committed page, checked by the wheel's own build of it
    shutil.copy(ROOT / "docs" / "disagreements.md", work / "docs" / "disagreements.md")
    checked = _shell(wheel_env, "bleu-conformance disagreements --check -q", work)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    validate = _shell(wheel_env, "bleu-conformance validate", work)
    assert validate.returncode == 0 and validate.stdout.startswith("OK: ")


@pytest.mark.slow
def test_pytest_plugin_from_the_wheel_checks_the_bundled_library(
    wheel_env: Env, tmp_path: Path
) -> None:
    work = _workspace(tmp_path / "work")
    proc = _shell(wheel_env, "pytest --bleu-impl=bleu_impl -k paper -v -p no:cacheprovider", work)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "fixtures/papineni2002/paper-examples.yaml::paper.ex1.c1.modified-precision PASSED" in (
        proc.stdout
    )


# --- the metric alone: bleu-impl (metric/pyproject.toml; slow, cached) ---------------------


@pytest.fixture(scope="session")
def metric_built(cache_dir: Path) -> Built:
    """``python -m build metric``: bleu-impl's sdist, then its wheel built from it."""
    dist = cache_dir / "metric-dist"
    log_file = cache_dir / "metric-build.log"
    with _exclusive(f"metric-build-{cache_dir.name}"):
        if not list(dist.glob("*.whl")):
            _build(dist, log_file, METRIC)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    return Built(wheel, sdist, log_file.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def metric_python(metric_built: Built, cache_dir: Path) -> Path:
    """The python of a fresh venv with bleu-impl's wheel alone installed."""
    venv = cache_dir / "metric-venv"
    with _exclusive(f"metric-venv-{cache_dir.name}"):
        if not (venv / "ready").exists():
            _make_wheel_env(venv, metric_built.wheel)
    return venv / "bin" / "python"


#: Run by the metric's venv and by the harness's (this test's): the harness dependencies that
#: cannot be imported, every bleu_impl module imported, and every profile's score of a corpus.
PROBE = """
import importlib, json, pkgutil, sys
import bleu_impl
absent = []
for name in ("yaml", "nltk", "tabulate", "jsonschema", "tqdm"):
    try:
        importlib.import_module(name)
    except ImportError:
        absent.append(name)
modules = sorted(m.name for m in pkgutil.walk_packages(bleu_impl.__path__, "bleu_impl."))
for module in modules:
    importlib.import_module(module)
from bleu_impl.fast.kernel import counting_path
hyps, refs = json.load(sys.stdin)
scores = {}
for name in bleu_impl.PROFILES:
    try:
        result = bleu_impl.corpus_bleu(hyps, refs, profile=name)
        scores[name] = [result.score, result.signature]
    except bleu_impl.BleuError as exc:
        scores[name] = [type(exc).__name__, str(exc)]
print(json.dumps({"absent": absent, "modules": modules, "scores": scores, "path": counting_path()}))
"""


def _probe(python: Path) -> dict:
    corpus = [HYP.splitlines(), [list(r) for r in zip(*(t.splitlines() for t in REFS))]]
    proc = subprocess.run(
        [str(python), "-c", PROBE],
        input=json.dumps(corpus),
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),  # not the checkout: its bleu_impl/ would be imported
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.mark.slow
def test_the_metric_installs_alone_and_scores_as_the_harness(
    metric_built: Built, metric_python: Path
) -> None:
    """bleu-impl's wheel pulls numpy and regex only; without the harness's dependencies
    every bleu_impl module imports, and every profile scores a corpus exactly as the
    harness's environment does (same scores, signatures and errors)."""
    assert not re.search(r"warn|deprecat", metric_built.log, re.I)
    listed = _uv("pip", "list", "--python", str(metric_python), "--format", "json")
    assert listed.returncode == 0, listed.stderr
    installed = {p["name"].lower() for p in json.loads(listed.stdout)} - {"pip", "setuptools"}
    assert installed == {"bleu-impl", "numpy", "regex"}
    alone, harness = _probe(metric_python), _probe(Path(sys.executable))
    assert alone["absent"] == ["yaml", "nltk", "tabulate", "jsonschema", "tqdm"]
    assert "bleu_impl.bulk" in alone["modules"] and alone["modules"] == harness["modules"]
    assert alone["scores"] == harness["scores"]
    assert alone["path"] == "the compiled kernel"  # built by the metric's own setup.py
    assert sum(isinstance(s[0], float) for s in alone["scores"].values()) > 10
    readme = (METRIC / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", readme, re.S)
    ran = subprocess.run(
        [str(metric_python), "-c", example], capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0, ran.stderr


@pytest.mark.slow
def test_the_two_wheels_carry_the_same_bleu_impl(built: Built, metric_built: Built) -> None:
    """bleu-conformance carries bleu_impl too (its `pip install -e .` needs nothing off the
    index): the same files, byte for byte, at the same version."""

    def files(wheel: Path) -> dict[str, bytes]:
        with zipfile.ZipFile(wheel) as archive:
            return {n: archive.read(n) for n in archive.namelist() if n.startswith("bleu_impl/")}

    # the compiled kernel in both, built apart (its bytes carry the build directory)
    ours, theirs = files(metric_built.wheel), files(built.wheel)
    kernels = {n for n in ours if n.startswith("bleu_impl/fast/_kernel.") and n.endswith(".so")}
    assert len(kernels) == 1 and kernels == {n for n in theirs if n.endswith(".so")}
    assert {n: b for n, b in ours.items() if n not in kernels} == {
        n: b for n, b in theirs.items() if n not in kernels
    }
    versions = {w.name.split("-")[1] for w in (built.wheel, metric_built.wheel)}
    assert len(versions) == 1
    with tarfile.open(metric_built.sdist) as sdist:
        members = {m.split("/", 1)[1] for m in sdist.getnames() if "/" in m}
    assert {"LICENSE", "README.md", "pyproject.toml", "bleu_impl/__init__.py"} <= members
    assert {"setup.py", "bleu_impl/fast/_kernel.c"} <= members


@pytest.mark.slow
def test_without_a_compiler_the_metric_installs_and_counts_with_numpy(tmp_path: Path) -> None:
    """No C compiler (``CC=false``): the build warns and goes on, the wheel has no kernel,
    and bleu_impl counts with numpy."""
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), METRIC],
        env={**os.environ, "CC": "false"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = tmp_path.glob("*.whl")
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".so")]
    venv = tmp_path / "venv"
    _make_wheel_env(venv, wheel)
    probe = "from bleu_impl.fast.kernel import counting_path; print(counting_path())"
    ran = subprocess.run(
        [str(venv / "bin" / "python"), "-c", probe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert ran.stdout.startswith("numpy (the compiled kernel is not built")
