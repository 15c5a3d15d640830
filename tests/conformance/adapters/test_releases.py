"""Pinned releases (``--impl nltk==3.2.5``): each in its own cached environment, run by that
environment's interpreter, checked against numbers the real old releases printed.

A few small releases only (NLTK 3.1, 3.2.5 and 3.10.4, sacrebleu 1.4.14; pure Python): the
environments are cached (``$BLEU_CONFORMANCE_CACHE``, else ``~/.cache/bleu-conformance``), so
a rerun installs nothing. Without ``uv`` the harness falls back to venv + pip, which is
slower but the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.adapters import make_adapter
from conformance.adapters.releases import cache_dir, environment, parse_release
from conformance.adapters.shims import SHIMS, apply_shims
from conformance.cases import load_fixtures
from conformance.cases.implementations import BUNDLED_ROOT
from conformance.engine import verify_cases
from conformance.protocol import AdapterError, Request

SEEDS = BUNDLED_ROOT / "seeds" / "seed-examples.yaml"


@pytest.fixture(scope="module")
def nltk_325():
    adapter = make_adapter("nltk==3.2.5")
    yield adapter
    adapter.close()


def test_spec_parsing():
    assert parse_release("nltk==3.2.5") == ("nltk", "3.2.5")
    assert parse_release("fast-bleu==0.0.90") == ("fast-bleu", "0.0.90")
    assert parse_release("nltk") is None
    assert parse_release("mypkg==1.0") is None  # not a live library: another kind of spec
    with pytest.raises(AdapterError, match="not a release number"):
        parse_release("nltk==;rm -rf")


def test_the_release_runs_in_its_own_interpreter(nltk_325):
    caps = nltk_325.capabilities
    assert caps.name == "nltk==3.2.5"
    # on Python 3.11+ NLTK 3.2.5 imports only with the inspect and collections shims
    assert caps.version.startswith("3.2.5 (shims: inspect.getargspec, inspect.formatargspec")
    argv = Path(f"/proc/{nltk_325.pid}/cmdline").read_bytes().split(b"\0")
    assert argv[0].decode() == str(cache_dir() / "releases" / "nltk-3.2.5" / "bin" / "python")


def test_nltk_325_reproduces_the_numbers_recorded_from_nltk_3_2_x(nltk_325):
    """The seeds' ``nltk-3.2.2`` expectations were printed by NLTK 3.2.2-3.2.5 (the fixture
    key's provenance); the pinned release must answer every one of them."""
    loaded = load_fixtures([SEEDS])
    keys = ("nltk-3.2.2", "nltk-2016-develop")  # the develop checkout of seed 003 as well
    results = verify_cases(nltk_325, loaded.cases, loaded.keys, expect=keys)
    for key in keys:
        checked = [r for r in results if r.expect_key == key]
        assert len(checked) >= 2
        assert {r.case_id: r.outcome for r in checked} == {r.case_id: "pass" for r in checked}


def test_nltk_31_reproduces_its_doctests_where_this_python_lets_it():
    """NLTK 3.1 has only ``bleu()`` (profile nltk-3.1); the seeds quote its doctests under
    ``nltk-3.1``. Both BLEU scores are reproduced live. The brevity-penalty doctest with a
    2-token reference dies inside 3.1's ``nltk.util.ngrams``, a generator that ends with
    StopIteration, which Python 3.7+ turns into RuntimeError (PEP 479): 3.1's error on this
    Python, not a number to compare. The other doctests record no score to check."""
    adapter = make_adapter("nltk==3.1")
    try:
        loaded = load_fixtures([SEEDS])
        results = verify_cases(adapter, loaded.cases, loaded.keys, expect=("nltk-3.1",))
    finally:
        adapter.close()
    outcomes = {r.case_id: r.outcome for r in results if r.expect_key == "nltk-3.1"}
    assert sorted(c for c, o in outcomes.items() if o == "pass") == [
        "seed001.bleu.hyp1",
        "seed001.bleu.hyp2",
    ]
    (died,) = [r for r in results if r.outcome == "error"]
    assert died.case_id == "seed001.brevity-penalty.12-refs-13-2"
    assert "RuntimeError: generator raised StopIteration" in died.reason
    assert set(outcomes.values()) == {"pass", "error", "unchecked"}


def test_a_two_word_exact_match_separates_3_2_5_from_current_nltk(nltk_325):
    """NLTK 3.2.2-3.2.5 truncate a missing 3- and 4-gram order away (score 1.0 here);
    3.3+ put float-min there (a score near 1e-77 * ...): the issue's documented history."""
    request = Request(
        level="sentence", config={}, hypotheses=("the cat",), references=(("the cat",),)
    )
    old = nltk_325.run(request).score
    current = make_adapter("nltk")
    try:
        new = current.run(request).score
    finally:
        current.close()
    assert old == 1.0
    assert new is not None and 0 < new < 1e-100


def test_sacrebleu_1x_answers_through_its_function_api():
    """sacrebleu 1.4.14 has no ``BLEU(lowercase=...)``: its ``corpus_bleu`` arguments are
    used; on a plain case it agrees with sacrebleu 2.6.0 run live."""
    request = Request(
        level="corpus",
        config={},
        hypotheses=("The cat sat on the mat.", "A dog barked loudly ."),
        references=(("The cat is on the mat.",), ("The dog barked loudly.",)),
    )
    answers = []
    for spec in ("sacrebleu==1.4.14", "sacrebleu"):
        adapter = make_adapter(spec)
        try:
            answers.append(adapter.run(request))
            assert adapter.capabilities.version.startswith(spec.partition("==")[2] or "2.")
        finally:
            adapter.close()
    old, new = answers
    assert old.failure is None and old.counts == new.counts and old.totals == new.totals
    assert old.score == pytest.approx(new.score, rel=1e-12)


def test_an_uninstallable_release_is_an_error_naming_it_with_the_installers_reason():
    with pytest.raises(AdapterError) as caught:
        make_adapter("nltk==0.0.999")
    assert caught.value.kind == "config"
    assert "nltk==0.0.999" in caught.value.message


def test_environments_are_reused():
    python = environment("nltk", "3.2.5")  # made by the fixture above: reused as is
    stamp = (python.parent.parent / "release-ready").stat().st_mtime_ns
    assert environment("nltk", "3.2.5") == python
    assert (python.parent.parent / "release-ready").stat().st_mtime_ns == stamp


def test_the_cache_is_named_by_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("BLEU_CONFORMANCE_CACHE", str(tmp_path))
    assert cache_dir() == tmp_path
    monkeypatch.delenv("BLEU_CONFORMANCE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "bleu-conformance"


def test_shims_restore_only_what_this_python_lacks():
    names = [name for name, _, _ in SHIMS]
    assert names == ["inspect.getargspec", "inspect.formatargspec", "collections ABC aliases"]
    applied = apply_shims()  # in this test process only (the worker applies them itself)
    assert apply_shims() == ()  # nothing is missing any more
    assert set(applied) <= set(names)
    import inspect

    assert inspect.formatargspec(["a", "b"], "rest", None, (1,)) == "(a, b=1, *rest)"


def test_identify_names_the_measured_release_range(capsys):
    from conformance.cli import main

    argv = ["identify", "--impl", "nltk==3.2.5", "-k", "edge", "--generate", "0", "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "nltk==3.2.5 matches nltk-3.2.2 (as nltk 3.2.2–3.2.5 do)" in out


def test_identify_names_the_range_of_an_old_sacrebleu_profile(capsys):
    """sacrebleu 1.4.14 is nearest to sacrebleu-1.4.4 (floor's default 0, smoothing when
    nothing matches), named with the releases the sweep measured it to reproduce; its
    counts after add-k include the k (1.x's compute_bleu adds to its inputs), which keeps
    run --as from passing."""
    from conformance.cli import main

    argv = ["identify", "--impl", "sacrebleu==1.4.14", "-k", "sacrebleu.smoothing"]
    main([*argv, "--generate", "0", "--quiet"])
    said = " ".join(capsys.readouterr().out.split())
    assert "Nearest: sacrebleu-1.4.4 (as sacrebleu 1.4.4–1.4.14 do), reproducing 12/12" in said


def test_every_difference_of_nltk_325_and_3_10_4_is_explained(capsys):
    """On the bundled fixtures every difference is zero_match truncate vs float-min (the
    3.3 change) or the NLTK release's smoothing code (``nltk_methods``): 3.2.5's method2 adds
    one to the unigrams too, its method4 (and method7, which calls it) reads ``i+1 * k /
    ln(c)`` as ``i + k/ln c`` with the last segment's c, and raises ZeroDivisionError on a
    one-token hypothesis (ln 1 = 0)."""
    from conformance.cli import main

    argv = ["compare", "--impl", "nltk==3.2.5", "--impl", "nltk==3.10.4", "--format", "json"]
    main([*argv, "--quiet"])
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    differing = [p for p in pairs if p["verdict"] == "differing"]
    assert len(differing) > 150
    assert all(p["cause"]["explained"] for p in differing)
    causes = {p["cause"]["cause"] for p in differing}
    assert causes == {"zero_match: truncate vs float-min", "nltk_methods: 3.2.2 vs 3.6.6"}
    precedence = [p for p in differing if p["item"] == "nltk.smoothing.c2.method4"]
    assert [p["cause"]["cause"] for p in precedence] == ["nltk_methods: 3.2.2 vs 3.6.6"]


def test_a_release_without_recorded_outputs_is_checked_as_its_profile(capsys):
    """sacrebleu 1.4.14 has no expectation key of its own (and sacrebleu>=2 is not its
    release): run checks it as the profile whose measured range holds it, and says so. A
    case whose tokenizer needs a package its environment lacks (MeCab) is a skip naming it,
    not the release's error."""
    from conformance.cli import main

    argv = ["run", "--impl", "sacrebleu==1.4.14", "-k", "sacrebleu.tok", "--format", "json"]
    main([*argv, "--quiet"])
    data = json.loads(capsys.readouterr().out)
    (impl,) = data["implementations"]
    assert impl["expect_key"].startswith("as sacrebleu-1.4.4, its profile: no outputs")
    by_case = {r["case_id"]: r for r in data["results"]}
    mecab = [r for case, r in by_case.items() if ".ja-mecab." in case]
    assert mecab and all(r["outcome"] == "skip" for r in mecab)
    assert all("not installed in sacrebleu's environment" in r["reason"] for r in mecab)
    assert any(r["outcome"] == "pass" for r in data["results"])
    assert not [r for r in data["results"] if "no such expectation key" in str(r["reason"])]
