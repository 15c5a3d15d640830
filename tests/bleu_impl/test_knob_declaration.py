"""Adding a knob is one declaration: a throwaway knob per stage, declared in ``Config`` in a
copy of the package, shows in every table derived from the declarations (``profiles``, the
profiles' resolution, validation, the signature, the statistics cache's and the segment
scorer's keys), each at its stage and nowhere else."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bleu_impl

#: knob -> (signature abbreviation, stage, the values the fast path computes)
THROWN = {
    "thrown_tokens": ("xtok", "tokens", "all"),
    "thrown_counts": ("xcount", "counts", "all"),
    "thrown_pooled": ("xpool", "counts", "corpus"),
    "thrown_slow": ("xslow", "counts", "default"),
    "thrown_precision": ("xprec", "precision", "all"),
    "thrown_factor": ("xfactor", "factor", "all"),
    "thrown_score": ("xscore", "score", "all"),
    "thrown_shown": ("xshown", "presentation", "all"),
}

#: Run in the copy: what each table makes of configs with the knob at "a" and at "b".
SCRIPT = """
import contextlib, io, json, sys
import bleu_impl
from bleu_impl import KnobError, fast, get_profile, make_config, signature
from bleu_impl.bulk import scoring_key
from bleu_impl.segment_scorer import factor_key, precision_key
from bleu_impl.stats_cache import _plan  # the statistics cache's keys of a config
from conformance.cli import main

def printed(*argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(list(argv))
    return out.getvalue()

def error(run):
    try:
        run()
    except KnobError as exc:
        return str(exc)

generic = get_profile("papineni2002")
seen = {
    "package": bleu_impl.__file__,
    "listing": printed("profiles"),
    "resolved": printed("profiles", "--profile", "papineni2002"),
}
for name in sys.argv[1:]:
    a, b = generic.resolve({}), generic.resolve({name: "b"})
    seen[name] = {
        "value": getattr(b, name),
        "signatures": [signature("p", a), signature("p", b)],
        "stats": _plan(a).stats != _plan(b).stats,
        "tokens": _plan(a).tokens != _plan(b).tokens,
        "precision": precision_key(a) != precision_key(b),
        "factor": factor_key(a) != factor_key(b),
        "scoring": scoring_key(a) != scoring_key(b),
        "fast": [check(c) for check in (fast.supports, fast.supports_corpus) for c in (a, b)],
        "refused": error(lambda: get_profile("sacrebleu").resolve({name: "b"})),
        "invalid": error(lambda: make_config({name: "c"})),
    }
print(json.dumps(seen))
"""


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The script's findings in a copy of bleu_impl whose ``Config`` declares ``THROWN``
    after its last knob."""
    root = tmp_path_factory.mktemp("thrown")
    package = root / "bleu_impl"
    shutil.copytree(
        Path(bleu_impl.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    source = (package / "knobs.py").read_text(encoding="utf-8")
    end = "    def as_dict(self) -> dict[str, Any]:\n"  # the first method after the knobs
    assert source.count(end) == 1
    declared = "".join(
        f'    {name}: Literal["a", "b"] = knob("a", "{abbrev}", "{stage}", "a {stage} knob", '
        f'fast="{fast}", meanings={{"a": "the first", "b": "the second"}})\n'
        for name, (abbrev, stage, fast) in THROWN.items()
    )
    (package / "knobs.py").write_text(source.replace(end, declared + "\n" + end), encoding="utf-8")
    (root / "thrown.py").write_text(SCRIPT, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(root / "thrown.py"), *THROWN],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    found: dict[str, Any] = json.loads(run.stdout)
    assert Path(found["package"]).parent == package  # the copy, not the installed package
    return found


@pytest.mark.parametrize("name", THROWN)
def test_a_declared_knob_is_listed_and_resolved(seen: dict[str, Any], name: str) -> None:
    stage = THROWN[name][1]
    assert f"  {name}: a {stage} knob; a = the first; b = the second\n" in seen["listing"]
    assert any(line.split() == [name, "a"] for line in seen["resolved"].splitlines())
    assert seen[name]["value"] == "b"
    assert seen[name]["invalid"] == f"invalid value 'c' for knob {name!r}: expected one of: a, b"
    if stage == "presentation":  # every profile accepts how a score is shown
        assert seen[name]["refused"] is None
    else:
        assert f"profile 'sacrebleu' has no option for knob {name!r}" in seen[name]["refused"]


@pytest.mark.parametrize("name", THROWN)
def test_a_declared_knob_is_in_the_signature(seen: dict[str, Any], name: str) -> None:
    """Shown after the other knobs, whose part of the signature is unchanged."""
    default = bleu_impl.signature("p", bleu_impl.make_config({}))
    head, version = default.rsplit("|", 1)
    thrown = [f"{abbrev}:a" for abbrev, _, _ in THROWN.values()]
    before, after = seen[name]["signatures"]
    assert before == "|".join([head, *thrown, version])
    assert after == before.replace(f"|{THROWN[name][0]}:a|", f"|{THROWN[name][0]}:b|")


@pytest.mark.parametrize("name", THROWN)
def test_a_declared_knob_is_in_the_keys_of_its_stage(seen: dict[str, Any], name: str) -> None:
    """The statistics (and token) keys hold the knobs the statistics depend on; the
    scorer's keys those scoring reads, the memo keys those of an order's precision and of
    the precision factor."""
    stage = THROWN[name][1]
    assert seen[name]["tokens"] == (stage == "tokens")
    assert seen[name]["stats"] == (stage in ("tokens", "counts"))
    assert seen[name]["scoring"] == (stage not in ("tokens", "counts"))
    assert seen[name]["precision"] == (stage == "precision")
    assert seen[name]["factor"] == (stage in ("precision", "factor"))


@pytest.mark.parametrize("name", THROWN)
def test_the_fast_path_declines_what_a_knob_declares(seen: dict[str, Any], name: str) -> None:
    """[supports, supports_corpus] of the knob at its default and at the other value."""
    declared = THROWN[name][2]
    assert seen[name]["fast"] == [True, declared == "all", True, declared != "default"]


@pytest.mark.parametrize("declared", bleu_impl.knobs.KNOBS, ids=lambda k: k.name)
def test_every_value_of_every_knob_has_a_one_line_meaning(declared: Any) -> None:
    """An enumerated knob explains each of its values, a flag both; a number, weights or a
    path has no list of values and explains itself in ``doc``."""
    flag = declared.values is None and isinstance(declared.default, bool)
    values = (True, False) if flag else declared.values or ()
    assert set(declared.meanings) == set(values)
    assert all(m and "\n" not in m for m in declared.meanings.values())
    for value, meaning in declared.meanings.items():
        assert f"{value} = {meaning}" in bleu_impl.knobs.DOCS[declared.name]
