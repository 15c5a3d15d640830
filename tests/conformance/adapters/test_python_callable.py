"""A user's Python function: every misbehaviour is classified, none stops the run."""

from __future__ import annotations

from functools import partial

import pytest

from conformance.adapters import make_adapter
from conformance.adapters.python_callable import PythonCallableAdapter
from conformance.adapters.worker import WorkerAdapter
from conformance.protocol import AdapterError

from ..fakes import impls
from ..helpers import run

FAKE = "tests.conformance.fakes.impls"


def test_plain_function_passes_and_sentence_case_is_skipped_for_no_expectation():
    results = run(make_adapter(f"{FAKE}:good"))
    assert results["mini.exact"].outcome == "pass"
    assert results["mini.partial"].outcome == "pass"
    assert results["mini.empty-hypothesis"].outcome == "pass"
    assert results["mini.nltk-method1"].outcome == "skip"
    assert "no expectation" in results["mini.nltk-method1"].reason


def test_dict_answer_statistics_are_compared():
    results = run(make_adapter(f"{FAKE}:good_dict"))
    assert {r.outcome for r in results.values()} == {"pass", "skip"}
    assert results["mini.partial"].got["counts"] == [11, 6, 3, 1]


def test_crash_is_error_with_traceback():
    result = run(make_adapter(f"{FAKE}:crash"))["mini.exact"]
    assert result.outcome == "error"
    assert "RuntimeError: boom" in result.reason
    assert "Traceback" in result.stderr


def test_hang_is_error_after_timeout_and_run_goes_on():
    with WorkerAdapter(partial(PythonCallableAdapter, impls.hang, timeout=0.2)) as adapter:
        results = run(adapter)
    assert results["mini.exact"].outcome == "error"
    assert "timeout" in results["mini.exact"].reason
    assert results["mini.partial"].outcome == "error"  # every case still classified


def test_garbage_is_error():
    result = run(make_adapter(f"{FAKE}:garbage"))["mini.exact"]
    assert result.outcome == "error"
    assert "garbage" in result.reason


def test_wrong_scale_fails_with_a_hint():
    result = run(make_adapter(f"{FAKE}:wrong_scale"))["mini.partial"]
    assert result.outcome == "fail"
    (score,) = [m for m in result.mismatches if m.field == "score"]
    assert "0-100 scale" in score.note


def test_swapped_references_fail_field_by_field():
    result = run(make_adapter(f"{FAKE}:swap_references"))["mini.partial"]
    assert result.outcome == "fail"
    assert result.mismatches[0].field == "score"
    assert result.mismatches[0].expected == pytest.approx(0.4305867649816835)


def test_declared_scale_and_precision_widen_the_tolerance():
    # rounded to 2 decimals on 0-100: passes the 1e-10 case tolerance only thanks to precision
    results = run(make_adapter(f"{FAKE}:percent"))
    assert results["mini.partial"].outcome == "pass"
    assert results["mini.partial"].expect_key == "multi-bleu"


def test_function_without_config_skips_cases_that_set_knobs():
    results = run(make_adapter(f"{FAKE}:no_config"), expect=("papineni2002", "nltk>=3.3"))
    assert results["mini.exact"].outcome == "pass"
    skipped = results["mini.nltk-method1"]
    assert skipped.outcome == "skip"
    assert "smoothing" in skipped.reason


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("not an import string", "not an import string"),
        ("no_such_module_xyz:fn", "cannot import module"),
        (f"{FAKE}:missing", "has no attribute"),
        (f"{FAKE}:not_callable", "not a callable"),
    ],
)
def test_helpful_errors_for_bad_specs(spec, needle):
    with pytest.raises(AdapterError) as info:
        PythonCallableAdapter(spec)
    assert needle in str(info.value)
