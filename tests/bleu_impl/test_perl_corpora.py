"""The Perl profiles reproduce the real scripts on generated corpora and on the minimal
cases of the six behaviours they once missed (fixtures/*/perl-corpora.yaml, recorded from
mosesdecoder's scripts by tools/fixtures/record_perl_corpora.py).

Every expectation must hold: the full-precision score to its tolerance (1e-12 relative), the
printed score under the script's own format, the n-gram counts, totals and lengths, or the
script's failure as an ``EmulatedFailure`` of the recorded kind. Expectations listed in
fixtures/known-exceptions.yaml are the only ones allowed to differ (and must differ).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

import bleu_impl
from bleu_impl import EmulatedFailure

FIXTURES = Path(__file__).parents[2] / "fixtures"
FILES = (
    FIXTURES / "mteval-v13a" / "perl-corpora.yaml",
    FIXTURES / "multi-bleu" / "perl-corpora.yaml",
)
KEYS = (
    "mteval-v13a",
    "mteval-v13a-c",
    "mteval-v13a-nosmooth",
    "mteval-v13a-c-nosmooth",
    "mteval-v13a-shortest",
    "mteval-v14",
    "mteval-v14-c",
    "multi-bleu",
    "multi-bleu-lc",
    "multi-bleu-detok",
    "multi-bleu-detok-lc",
)
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def cases() -> dict[str, dict[str, Any]]:
    found = {}
    for path in FILES:
        for case in yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)["cases"]:
            found[case["id"]] = case
    return found


@cache
def keys() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((FIXTURES / "implementations.yaml").read_text(encoding="utf-8"))
    return data["implementations"]


@cache
def known_exceptions() -> set[tuple[str, str]]:
    data = yaml.safe_load((FIXTURES / "known-exceptions.yaml").read_text(encoding="utf-8"))
    return {(e["case"], e["key"]) for e in data["exceptions"]}


def _inputs(case: dict[str, Any]) -> tuple[list[str], list[list[str | None]]]:
    segments = case["input"]["segments"]
    return [s["hypothesis"] for s in segments], [list(s["references"]) for s in segments]


def score(case: dict[str, Any], key: str, **override: Any) -> bleu_impl.BleuResult:
    impl = keys()[key]
    hyps, refs = _inputs(case)
    return bleu_impl.corpus_bleu(
        hyps, refs, profile=impl["profile"], **{**impl["knobs"], **override}
    )


def problems(case: dict[str, Any], key: str) -> list[str]:
    """What differs between the profile of ``key`` and the script's recorded output."""
    exp = case["expected"][key]
    try:
        result = score(case, key)
    except EmulatedFailure as exc:
        return [] if exc.kind == exp.get("error") else [f"raised {exc.kind}: {exc}"]
    if "error" in exp:
        return [f"scored {result.score!r}, the script died ({exp['error']}: {exp['note']})"]
    scale = keys()[key]["scale"]
    got = result.score * scale
    found = []
    if abs(got - exp["score"]) > exp["tolerance"]["rel"] * abs(exp["score"]):
        found.append(f"score {got!r} vs {exp['score']!r}")
    decimals = keys()[key]["printed_decimals"]
    if f"{got:.{decimals}f}" != f"{float(exp['printed']):.{decimals}f}":
        found.append(f"prints {got:.{decimals}f}, the script {exp['printed']}")
    stats = (list(result.counts), list(result.totals), result.hyp_len, result.ref_len)
    if stats != (exp["counts"], exp["totals"], exp["hyp_len"], exp["ref_len"]):
        found.append(f"statistics {stats} vs {exp['counts']} {exp['totals']}")
    return found


@pytest.mark.parametrize("key", KEYS)
def test_each_variant_reproduces_its_recorded_outputs(key: str) -> None:
    recorded = [c for c in cases().values() if key in c["expected"]]
    assert len(recorded) >= 80, f"{key}: only {len(recorded)} recorded cases"
    failing = {c["id"]: problems(c, key) for c in recorded}
    failing = {k: v for k, v in failing.items() if v}
    allowed = {case for case, k in known_exceptions() if k == key}
    assert set(failing) - allowed == set(), {k: failing[k] for k in set(failing) - allowed}
    stale = {case for case in allowed if case in {c["id"] for c in recorded}} - set(failing)
    assert stale == set(), f"known exceptions that now pass: {sorted(stale)}"


def _generic(case: dict[str, Any], key: str, **change: Any) -> bleu_impl.BleuResult:
    """The key's resolved knobs on the generic profile, with ``change``: the same semantics
    but for the changed knob (to show which knob makes the script's behaviour)."""
    impl = keys()[key]
    config = bleu_impl.get_profile(impl["profile"]).resolve(impl["knobs"]).as_dict()
    hyps, refs = _inputs(case)
    return bleu_impl.corpus_bleu(hyps, refs, profile="papineni2002", **{**config, **change})


def test_mteval_lowercases_after_decoding_entities() -> None:
    case = cases()["mteval.minimal.entity-case"]
    for key in ("mteval-v13a", "mteval-v14", "mteval-v13a-nosmooth"):
        exp = case["expected"][key]
        assert exp["totals"][0] == 5  # at & amp ; t: &AMP; is not decoded
        assert problems(case, key) == []
        lowered_first = _generic(case, key, lowercase_stage="before-tokenize")
        assert lowered_first.counts[:3] == lowered_first.totals[:3] == (3, 2, 1)  # at & t
    assert problems(cases()["mteval.minimal.entity-case-sentence"], "mteval-v13a") == []


def test_detok_lc_lowercases_references_after_tokenizing() -> None:
    case = cases()["multibleu.minimal.detok-lc-reference-after"]
    exp = case["expected"]["multi-bleu-detok-lc"]
    # r & d is up (lowercased, then decoded) against r & amp ; d is up (decoded, then lowercased)
    assert exp["score"] == 0.0 and (exp["hyp_len"], exp["ref_len"]) == (5, 7)
    assert problems(case, "multi-bleu-detok-lc") == []
    assert _generic(case, "multi-bleu-detok-lc", lowercase_stage="before-tokenize").score == 1.0
    assert problems(cases()["multibleu.minimal.detok-lc-skipped"], "multi-bleu-detok-lc") == []


def test_detok_lc_is_perl_lc_without_final_sigma() -> None:
    case = cases()["multibleu.minimal.perl-lc-final-sigma"]
    exp = case["expected"]["multi-bleu-detok-lc"]
    assert problems(case, "multi-bleu-detok-lc") == []
    python_lower = _generic(case, "multi-bleu-detok-lc", lowercase="unicode")
    assert list(python_lower.counts) != exp["counts"]


def test_multibleu_closest_length_starts_from_9999() -> None:
    for name, ref_len in (("closest-9999-cap", 9999), ("closest-9999-tie", 1)):
        case = cases()[f"multibleu.minimal.{name}"]
        for key in ("multi-bleu", "multi-bleu-lc", "multi-bleu-detok", "multi-bleu-detok-lc"):
            assert case["expected"][key]["ref_len"] == ref_len
            assert problems(case, key) == []
    cap = cases()["multibleu.minimal.closest-9999-cap"]
    assert _generic(cap, "multi-bleu", ref_length="closest").ref_len == 10_200


def test_mteval_v13a_dies_when_the_brevity_penalty_underflows() -> None:
    for tokens, dies in ((746, False), (747, True), (1492, False), (1493, True)):
        case = cases()[f"mteval.minimal.bp-underflow-{tokens}"]
        for key in ("mteval-v13a", "mteval-v13a-c", "mteval-v13a-shortest"):
            assert ("error" in case["expected"][key]) == dies, (tokens, key)
            assert problems(case, key) == []
        for key in ("mteval-v13a-nosmooth", "mteval-v14", "mteval-v14-c"):
            assert "error" not in case["expected"][key]
            assert problems(case, key) == []
    died = cases()["mteval.minimal.bp-underflow-747"]["expected"]["mteval-v13a"]
    assert died["error"] == "bp-underflow" and "Can't take log of 0" in died["note"]


def test_multibleu_dies_when_no_reference_file_has_a_line() -> None:
    case = cases()["multibleu.minimal.no-reference-lines"]
    for key in ("multi-bleu", "multi-bleu-lc", "multi-bleu-detok", "multi-bleu-detok-lc"):
        exp = case["expected"][key]
        assert exp["error"] == "missing-reference" and "could not find reference" in exp["note"]
        assert problems(case, key) == []
    assert _generic(case, "multi-bleu", no_refs="score").score == 0.0
