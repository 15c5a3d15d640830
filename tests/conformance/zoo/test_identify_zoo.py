"""``identify`` names the profile and options of each zoo implementation, wrapped by the
thinnest callable adapter (``impls.py``), and says "no profile matches" below its threshold.

``capfd``, not ``capsys``: fast-bleu calls ``faulthandler.enable()``, which needs a
``sys.stderr`` with a file descriptor."""

from __future__ import annotations

import importlib.util
import json

import pytest

from conformance.cli import main

SPEC = "tests.conformance.zoo.impls:"

CASES = [
    ("torchmetrics_bleu", "torchmetrics", {}, "torchmetrics"),
    ("torchmetrics_sacre_bleu", "torchmetrics-sacrebleu", {}, "torchmetrics"),
    # its streams are the references' columns: none at all when no segment has one, on
    # which sacrebleu raises IndexError (no_refs=error; streams of None would score)
    (
        "sacrebleu_intl",
        "sacrebleu",
        {"tokenize": "intl", "effective_order": False, "no_refs": "error"},
        "sacrebleu",
    ),
    ("coco", "coco", {}, "pycocoevalcap"),
    ("ignite_macro", "ignite", {}, "ignite"),
    ("ignite_smooth1", "ignite", {"smoothing": "floor"}, "ignite"),
    (
        "ignite_nltk_smooth2_micro",
        "ignite",
        {"smoothing": "add-k", "aggregation": "corpus"},
        "ignite",
    ),
    ("ignite_smooth2", "ignite", {"smoothing": "add-k", "denominator_floor": "none"}, "ignite"),
    ("torcheval_bleu", "torcheval", {}, "torcheval"),
    ("fast_bleu", "fast-bleu", {}, "fast_bleu"),
    ("compare_mt_bleu", "compare-mt", {}, "compare_mt"),
    ("parlai_bleu", "parlai", {}, "parlai"),
    ("lm_eval_bleu", "lm-eval", {}, "lm_eval"),
]
#: What identify's first finding says of a member (checked by the test naming its profile).
FINDINGS = {"torchmetrics_bleu": "is a float32 number"}


def _identify(name: str, capfd, *extra: str) -> dict:
    argv = ["identify", "--impl", SPEC + name, "--format", "json", "--generate", "30", *extra]
    assert main(argv) == 0
    return json.loads(capfd.readouterr().out)


def _run_as(name: str, run_as: str, capfd) -> int:
    """``run --impl NAME`` with the options identify printed, as a maintainer would paste
    them (the part in parentheses says what the implementation should declare)."""
    options = run_as.split(" (")[0].split()
    status = main(["run", "--impl", SPEC + name, *options, "--format", "json", "-q"])
    capfd.readouterr()
    return status


@pytest.mark.slow
@pytest.mark.parametrize(("name", "profile", "overrides", "module"), CASES)
def test_identify_names_profile_and_options(name, profile, overrides, module, capfd) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed")
    found = _identify(name, capfd)
    best = found["candidates"][0]
    assert found["verdict"] == "match", (found["candidates"][:3], found["failing"])
    assert (best["profile"], best["overrides"]) == (profile, overrides)
    assert not best["generic"]
    assert FINDINGS.get(name, "") in (found["findings"] or [""])[0]
    assert _run_as(name, found["run_as"], capfd) == 0  # run --as passes what identify names


@pytest.mark.slow
def test_bleuscore_needs_several_knobs(capfd) -> None:
    """bleuscore 0.2 = tf/nmt semantics + 13a + Rust's whitespace, without tf/nmt's errors:
    several knobs away from any profile as it is. On this evidence mteval-v13a -c
    --no-smoothing --brevity-penalty shortest computes the same (a tool's setting is
    preferred to the generic profile); whichever is named, its semantics must be these."""
    from bleu_impl import get_profile

    if importlib.util.find_spec("bleuscore") is None:
        pytest.skip("bleuscore is not installed")
    found = _identify("bleuscore_default", capfd)
    best = found["candidates"][0]
    # bleuscore panics (Rust) where the tool it matches raises on a missing reference: a
    # panic is no answer, so run --as errors there and identify names no profile either
    assert found["verdict"] == "no-match" and found["checked"].get("fail", 0) == 0
    assert found["failing"] and {r["outcome"] for r in found["failing"]} == {"error"}
    config = get_profile(best["profile"]).resolve(best["overrides"])
    assert (config.tokenize, config.ref_length, config.split) == ("13a", "shortest", "perl-unicode")
    assert config.lowercase is False
    if best["generic"]:
        assert f"{best['profile']} + " in best["label"]  # the generic profile, named
    assert _run_as("bleuscore_default", found["run_as"], capfd) == 1


@pytest.mark.slow
def test_float64_code_is_not_named_as_a_float32_profile(capfd) -> None:
    """torchmetrics' own code with float64 tensors reproduces torchmetrics' answers within
    float32's tolerance, but its answers are not float32 numbers: it is named as the same
    setting in float64, not the float32 one torchmetrics itself is named as (whose answers
    are float32 numbers: :data:`FINDINGS`)."""
    from bleu_impl import get_profile

    if importlib.util.find_spec("torchmetrics") is None:
        pytest.skip("torchmetrics is not installed")
    wide = _identify("torchmetrics_bleu_float64", capfd)
    best = wide["candidates"][0]
    config = get_profile(best["profile"]).resolve(best["overrides"])
    assert (config.arithmetic, config.result_float) == ("float64", "float64")
    assert wide["verdict"] == "match" and "not float32 numbers" in wide["findings"][0]
    assert _run_as("torchmetrics_bleu_float64", wide["run_as"], capfd) == 0


@pytest.mark.slow
def test_a_constant_factor_is_a_finding_not_a_match(capfd) -> None:
    """torchmetrics x100 under the declared scale 0-1: run fails it, so identify names no
    profile; the nearest is torchmetrics at 100x, said as a finding of its own."""
    if importlib.util.find_spec("torchmetrics") is None:
        pytest.skip("torchmetrics is not installed")
    found = _identify("torchmetrics_bleu_x100", capfd)
    assert found["verdict"] == "no-match"
    assert found["candidates"][0]["profile"] == "torchmetrics"
    assert found["candidates"][0]["scale"] == 100
    assert any("every answer is 100 x" in f for f in found["findings"])
    assert _run_as("torchmetrics_bleu_x100", found["run_as"], capfd) == 1


@pytest.mark.slow
def test_printed_decimals_are_a_finding(capfd) -> None:
    """sacrebleu rounded to 2 decimals on 0-100, undeclared: the decimals are read off the
    answers and the nearest setting is still sacrebleu's."""
    if importlib.util.find_spec("sacrebleu") is None:
        pytest.skip("sacrebleu is not installed")
    found = _identify("sacrebleu_printed", capfd)
    assert found["verdict"] == "no-match"
    assert found["candidates"][0]["profile"] == "sacrebleu"
    assert "at most 4 decimals" in found["findings"][0]


@pytest.mark.slow
def test_below_the_threshold_no_profile_matches(capfd) -> None:
    """A constant answer reproduces some cases by chance, never a profile: 'no profile
    matches', with the nearest candidate, what run --as gave it, its smallest failing
    cases and the inputs it misses."""
    argv = ["identify", "--impl", SPEC + "constant", "-k", "edge", "--generate", "5"]
    assert main(argv) == 0
    out = capfd.readouterr().out
    assert "no profile matches" in out and "Nearest:" in out
    assert "smallest cases `run --as" in out
    assert "inputs the nearest candidate misses, then inputs that separate" in out


@pytest.mark.slow
def test_moses_detokenizer_before_sacrebleu_is_no_profile(capfd) -> None:
    """sacremoses' detokenizer before sacrebleu (13a): no knob detokenizes, so no profile
    matches; the nearest is sacrebleu's setting, and the smallest case run --as fails is the
    Moses-escaped apostrophe (``it &apos;s`` is detokenized to ``it's``, one token for 13a)."""
    if importlib.util.find_spec("sacremoses") is None:
        pytest.skip("sacremoses is not installed")
    found = _identify("moses_detok_sacrebleu", capfd)
    assert found["verdict"] == "no-match"
    assert found["candidates"][0]["profile"] == "sacrebleu"
    assert found["failing"][0]["item"].endswith("apos_entity_moses_escaped")
    assert _run_as("moses_detok_sacrebleu", found["run_as"], capfd) == 1


@pytest.mark.slow
def test_a_tool_that_dies_is_named_with_its_dying_knob(capfd) -> None:
    """NLTK raising where its reference length is 0: a raise is never evidence, yet
    ``run --as`` passes NLTK's setting with ``empty_ref=error``, so identify names it."""
    if importlib.util.find_spec("nltk") is None:
        pytest.skip("nltk is not installed")
    found = _identify("nltk_dies_on_empty_refs", capfd)
    best = found["candidates"][0]
    assert found["verdict"] == "match"
    assert (best["based_on"], best["changes"]) == ("nltk", {"empty_ref": "error"})
    assert _run_as("nltk_dies_on_empty_refs", found["run_as"], capfd) == 0
