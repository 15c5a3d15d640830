"""What a comparison found: material vs negligible, sorted by size, grouped by cause."""

from __future__ import annotations

import math

from conformance.results.findings import analyze, letter
from conformance.results.vocab import Policy

from ..reporters.compare_logs import three_way


def test_threshold_is_half_a_unit_of_the_printed_decimal():
    assert Policy(decimals=2).threshold == 0.005
    assert Policy(decimals=1).threshold == 0.05
    assert Policy().material(0.005) and not Policy().material(0.0049)


def test_letters():
    assert [letter(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]


def test_material_and_negligible_split_at_the_threshold_sorted_largest_first():
    f = analyze(three_way())
    material = [(d.item, d.pair) for d in f.material]
    assert material == [
        ("boom", ("lib", "tool|x")),  # a failure against a score ranks first
        ("big", ("ours", "lib")),
        ("edge", ("ours", "tool|x")),
    ]
    assert math.isinf(f.material[0].size)
    assert f.material[1].size == 100 * (0.30 - 0.2405)
    assert {d.item for d in f.negligible} == {"tiny", "near"}
    assert all(d.size < f.threshold for d in f.negligible)
    assert [d.size for d in f.negligible] == sorted((d.size for d in f.negligible), reverse=True)


def test_fewer_decimals_make_fewer_differences_material():
    f = analyze(three_way(), decimals=1)
    assert {d.item for d in f.material} == {"boom", "big"}


def test_causes_roll_up():
    f = analyze(three_way())
    by_cause = {g.cause: g for g in f.causes}
    float_min = by_cause["zero_match: zero vs float-min"]
    assert float_min.cases == 1 and float_min.material == 0 and len(float_min.rows) == 2
    assert set(float_min.pairs) == {("ours", "lib"), ("lib", "tool|x")}
    assert sum(len(g.rows) for g in f.causes) == len(f.material) + len(f.negligible)
    assert f.causes[0].material >= f.causes[-1].material
    assert not by_cause["unexplained"].explained


def test_pairs_tallies_and_skip_reasons():
    f = analyze(three_way())
    tallies = {(t.a, t.b): t for t in f.tallies}
    assert tallies[("ours", "lib")].counts["skipped"] == 1
    assert tallies[("ours", "lib")].compared == 2
    assert tallies[("ours", "tool|x")].material == 1 and tallies[("ours", "tool|x")].negligible == 1
    assert f.skip_reasons == [("ours cannot express smoothing='x'", 1)]
    assert f.pair_label(("lib", "tool|x")) == "B–C"
