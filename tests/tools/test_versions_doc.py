"""The release ranges the profiles declare are the ones the sweeps measured, and
docs/versions.md is the report of the sweeps' kept logs (``docs/versions/LIBRARY.jsonl``,
written by ``python -m tools.versions_doc`` from ``bleu-conformance versions`` logs)."""

from __future__ import annotations

import json

import pytest

from bleu_impl import PROFILES
from conformance.adapters.libraries import LIBRARIES, release_key
from conformance.cases import load_fixtures
from conformance.reporters import render
from conformance.results.log import read_log
from tools.versions_doc import KEPT, PATH, kept_log

SWEPT = {"nltk", "sacrebleu", "torchmetrics"}
RANGED = [p for p in PROFILES.values() if p.releases]
LIBRARY_OF = {lib.package: name for name, lib in LIBRARIES.items()}


def _classes(library: str):
    return read_log(KEPT / f"{library}.jsonl").behaviours


def test_the_three_histories_are_kept_and_swept_every_release():
    """Every release of each library once, on every bundled case and generated corpora."""
    assert {p.stem for p in KEPT.glob("*.jsonl")} == SWEPT
    bundled = len(load_fixtures().cases)
    for library in SWEPT:
        report = read_log(KEPT / f"{library}.jsonl")
        swept = [r for b in report.behaviours for r in b.releases]
        assert sorted(swept, key=release_key) == sorted(
            (r.release for r in report.releases), key=release_key
        )
        assert len(swept) == len(set(swept)) > 30  # every release once, in one class
        assert report.header is not None and report.header.params["cases"] >= bundled + 100


def test_the_page_is_the_report_of_the_kept_logs():
    page = PATH.read_text(encoding="utf-8")
    for library in sorted(SWEPT):
        assert render(read_log(KEPT / f"{library}.jsonl"), "markdown") in page


@pytest.mark.parametrize("profile", RANGED, ids=lambda p: p.name)
def test_a_profile_s_release_range_is_what_the_sweep_measured(profile):
    """The range is whole behaviour classes, each named by the profile, starting and ending
    at releases that ran; a class outside it that the profile also names reproduces it only
    where it answers and raises on more cases than any class inside (NLTK 3.2.1's
    ZeroDivisionError)."""
    package, first, last = profile.releases
    library = LIBRARY_OF.get(package)
    if library not in SWEPT:
        # not swept (compare-mt): one release, the one its source was read from
        assert first == last and first in profile.source
        return

    def inside(release: str) -> bool:
        return release_key(first) <= release_key(release) <= release_key(last)

    ran = [b for b in _classes(library) if not b.error]
    within = [b for b in ran if any(inside(r) for r in b.releases)]
    assert within, f"no release of {first}..{last} ran in the sweep"
    assert all(inside(r) for b in within for r in b.releases)
    assert {b.profile for b in within} == {profile.name}
    ends = {release_key(r) for b in within for r in (b.releases[0], b.releases[-1])}
    assert {release_key(first), release_key(last)} <= ends
    most = max(b.failed for b in within)
    assert all(b.failed > most for b in ran if b.profile == profile.name and b not in within)


@pytest.mark.parametrize("library", sorted(SWEPT))
def test_every_class_a_profile_reproduces_names_one_with_a_range(library):
    named = {b.profile for b in _classes(library) if b.profile}
    ranged = {p.name for p in RANGED}
    assert named <= ranged, named - ranged


def test_the_kept_log_leaves_out_the_answers_and_where_the_log_went(tmp_path):
    log = tmp_path / "full.jsonl"
    header = {"record": "header", "argv": ["versions", "nltk", "--output", "x.jsonl"]}
    header["params"] = {"library": "nltk"}
    release = {"record": "release", "library": "nltk", "release": "3.1", "answers": {"a": 1}}
    log.write_text("\n".join(json.dumps(r) for r in (header, release)) + "\n")
    kept = [json.loads(line) for line in kept_log(log, tmp_path).read_text().splitlines()]
    assert kept[0]["argv"] == ["versions", "nltk"]
    assert kept[1]["answers"] == {} and kept[1]["release"] == "3.1"
