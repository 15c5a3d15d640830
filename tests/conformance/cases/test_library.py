"""The bundled fixture library validates cleanly and meets the content floor."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
import yaml

from conformance.cases import iter_expectations, load_fixtures
from conformance.cases.implementations import BUNDLED_ROOT, load_registry
from conformance.cases.load import load_schema

#: The real Perl scripts' outputs (a copy of the shared ground truth; see tests/data/README.md).
GROUNDTRUTH = Path(__file__).resolve().parents[2] / "data" / "perl_scripts.json"


@pytest.fixture(scope="module")
def library():
    return load_fixtures()


def test_library_has_no_problems(library) -> None:
    assert library.problems == ()


def test_content_floor(library) -> None:
    pairs = list(iter_expectations(library.cases))
    assert len(library.cases) >= 100
    assert len(pairs) >= 500
    keys = Counter(e.key for _, e in pairs)
    for key in (
        "papineni2002",
        "mteval-v13a",
        "mteval-v14-c",
        "multi-bleu-detok-lc",
        "nltk>=3.3",
        "nltk>=3.6.6",
        "nltk-3.2.2",
        "nltk-3.1",
        "sacrebleu>=2",
    ):
        assert keys[key] > 0, key


def test_ids_unique_and_every_case_has_provenance(library) -> None:
    ids = [c.id for c in library.cases]
    assert len(ids) == len(set(ids))
    for case, exp in iter_expectations(library.cases):
        assert case.source.strip()
        assert "bleu_impl" not in (exp.source or "") + case.source


def test_paper_worked_examples_are_present(library) -> None:
    by_id = {c.id: c for c in library.cases}
    paper = {k: by_id[k].expected["papineni2002"] for k in by_id if k.startswith("paper.")}
    assert (
        paper["paper.ex1.c1.modified-precision"].counts,
        paper["paper.ex1.c1.modified-precision"].totals,
    ) == ((17, 10), (18, 17))
    assert (
        paper["paper.ex1.c2.modified-precision"].counts,
        paper["paper.ex1.c2.modified-precision"].totals,
    ) == ((8, 1), (14, 13))
    assert paper["paper.ex2.the-the-the.lowercased"].counts == (2,)
    assert paper["paper.ex3.of-the"].counts == (2, 1)
    assert paper["paper.bp.refs-12-15-17"].bp == 1.0
    assert by_id["nltk.doc.modified-precision.the-the-the"].expected["nltk>=3.3"].counts == (2,)
    case_sensitive = by_id["edge.paper-ex2.case-sensitive"].expected
    assert case_sensitive["nltk>=3.3"].counts == (1,)
    assert case_sensitive["sacrebleu>=2"].counts == (1,)
    assert by_id["edge.paper-ex2.lowercased"].expected["sacrebleu>=2"].counts == (2,)


def test_seed_numbers_are_present(library) -> None:
    scores = {(c.id, e.key): e.score for c, e in iter_expectations(library.cases)}
    assert scores[("seed004.c1", "nltk>=3.3")] == pytest.approx(0.7453559924999299, rel=1e-15)
    assert scores[("seed004.c2", "nltk>=3.3")] == pytest.approx(0.18174699151949172, rel=1e-15)
    assert scores[("seed000.ship.it-is-a-ship", "nltk-3.2.2")] == 0.8408964152537145
    assert scores[("seed001.bleu.hyp1", "nltk-3.1")] == 0.5045666840058485


def test_perl_crashes_are_error_expectations(library) -> None:
    by_id = {c.id: c for c in library.cases}
    assert by_id["mteval.empty_hyp_only"].expected["mteval-v13a"].error == "empty-hypothesis"
    assert by_id["mteval.empty_reference"].expected["mteval-v13a"].error == "empty-reference"
    assert by_id["multibleu.empty_reference"].expected["multi-bleu"].error == "empty-reference"
    assert by_id["mteval.empty_reference"].expected["mteval-v14"].score == pytest.approx(
        0.0405834894343874, rel=1e-12
    )


def test_every_exit0_perl_output_is_imported(library) -> None:
    if not GROUNDTRUTH.is_file():
        pytest.skip("shared ground truth not available")
    expected = {
        (c.id.split(".", 1)[1], k)
        for c in library.cases
        if c.id.startswith(("mteval.", "multibleu."))
        for k in c.expected
    }
    for case in json.loads(GROUNDTRUTH.read_text(encoding="utf-8")):
        for key, out in case["outputs"].items():
            if out.get("exit_code") is not None:
                assert (case["id"], key) in expected


def test_generated_perl_suites_are_in_sync() -> None:
    if not GROUNDTRUTH.is_file():
        pytest.skip("shared ground truth not available")
    from tools.fixtures import import_perl_groundtruth as gt

    cases = json.loads(GROUNDTRUTH.read_text(encoding="utf-8"))
    for family in gt.FAMILIES:
        on_disk = yaml.safe_load((BUNDLED_ROOT / family / "perl-groundtruth.yaml").read_text())
        assert on_disk == gt.build(cases, family)


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["additionalProperties"] is False
    assert schema["$defs"]["case"]["additionalProperties"] is False
    assert schema["$defs"]["expectation"]["additionalProperties"] is False


def test_registry_and_tags_are_clean_and_used(library) -> None:
    registry = load_registry()
    assert registry.problems == []
    used_tags = {t for c in library.cases for t in c.tags}
    assert used_tags <= set(registry.tags)
    for impl in registry.keys.values():
        assert impl.scale in (1, 100)
        assert impl.tool and impl.version and impl.invocation


def test_version_file_is_semver() -> None:
    version = (BUNDLED_ROOT / "VERSION").read_text().strip()
    assert [int(part) for part in version.split(".")] and version.count(".") == 2


def _expectation(library, case_id: str, key: str):
    case = next(c for c in library.cases if c.id == case_id)
    return case.expected[key]


def test_paper_example_2_bigram_precision_is_encoded(library) -> None:
    """Papineni et al. 2002, section 2.1.1: the seven 'the' candidate's modified bigram
    precision is 0 (its unigram precision 2/7 is the case beside it)."""
    exp = _expectation(library, "paper.ex2.the-the-the.bigram", "papineni2002")
    assert exp.counts is not None and exp.totals is not None
    assert exp.counts[1] == 0 and exp.totals[1] > 0
    assert exp.counts[0] == 2 and exp.totals[0] == 7


def test_seed_003_method2_is_identified_with_its_versions(library) -> None:
    """Seed 003 quotes NLTK's SmoothingFunction doctest with method2 = 0.4489771072202117,
    which NLTK 3.2.2-3.5 print (the key names that range and a profile of it; 3.6 changed
    method2)."""
    key = library.keys["nltk-3.2.2..3.5"]
    assert "3.5" in key.version and key.profile == "nltk-3.3"
    exp = _expectation(library, "seed003.smoothing-function.method2", "nltk-3.2.2..3.5")
    assert exp.score is not None and abs(exp.score - 0.4489771072202117) < 1e-15
    assert exp.source


def test_nltk_2016_develop_never_scores_a_hypothesis_without_overlap() -> None:
    """Every NLTK of that era gives 0 when no word matches; the key's profile must too."""
    import bleu_impl

    key = load_registry().keys["nltk-2016-develop"]
    assert key.profile is not None
    result = bleu_impl.sentence_bleu("w x y z", ["a b c d"], profile=key.profile, **key.knobs)
    assert result.score == 0.0
