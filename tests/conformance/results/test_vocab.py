"""A case's provenance class, read off its provenance tags (fixtures/tags.yaml)."""

from __future__ import annotations

from collections import Counter

from conformance.cases.implementations import load_registry
from conformance.cases.load import load_fixtures
from conformance.results.vocab import NO_ORIGIN, ORIGINS, origin


def test_the_first_class_whose_tags_a_case_carries() -> None:
    assert origin(("paper", "live-nltk", "short-hypothesis")) == "published examples"
    assert origin(("perl-generated", "empty-hypothesis")) == "synthetic edge cases"
    assert origin(("perl-groundtruth", "multi-reference")) == "script outputs"
    assert origin(("live-sacrebleu", "tokenization")) == "live-library recordings"
    assert origin(("generated",)) == "generated corpora"
    assert origin(("unicode",)) == NO_ORIGIN


def test_every_class_tag_is_in_the_tag_vocabulary() -> None:
    vocabulary = set(load_registry().tags)
    assert {tag for _, tags, _ in ORIGINS for tag in tags} - {"generated"} <= vocabulary


def test_every_bundled_case_has_a_class() -> None:
    """Each bundled case carries a tag that says where its input and numbers come from:
    the screen's classes add up to the library."""
    cases = load_fixtures().cases
    kinds = Counter(origin(case.tags) for case in cases)
    assert NO_ORIGIN not in kinds and "generated corpora" not in kinds
    assert sum(kinds.values()) == len(cases) > 600
    # the paper's worked examples are published; every Perl corpus case is a script output
    # unless its input was built as an edge case
    paper = [c for c in cases if c.file.endswith("papineni2002/paper-examples.yaml")]
    assert paper and {origin(c.tags) for c in paper} == {"published examples"}
    perl = [c for c in cases if "perl-generated" in c.tags]
    assert {origin(c.tags) for c in perl} == {"script outputs", "synthetic edge cases"}
