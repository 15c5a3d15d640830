"""bleu_impl's profiles pass every expectation that names them, except the listed exceptions."""

from __future__ import annotations

import yaml

from conformance.cases import iter_expectations, load_fixtures
from conformance.cases.implementations import BUNDLED_ROOT, KNOWN_EXCEPTIONS_FILE

from .bleu_impl_eval import evaluate


def known_exceptions() -> dict[tuple[str, str], dict[str, str]]:
    data = yaml.safe_load((BUNDLED_ROOT / KNOWN_EXCEPTIONS_FILE).read_text(encoding="utf-8"))
    return {(e["case"], e["key"]): e for e in data["exceptions"]}


def test_known_exceptions_name_real_expectations_with_a_cause() -> None:
    result = load_fixtures()
    present = {(c.id, e.key) for c, e in iter_expectations(result.cases)}
    for key, entry in known_exceptions().items():
        assert key in present, key
        assert entry["cause"].strip() and entry["evidence"].strip()


def test_profiles_reproduce_every_expectation_naming_them() -> None:
    result = load_fixtures()
    exceptions = known_exceptions()
    failures: dict[tuple[str, str], list[str]] = {}
    checked = 0
    for case, exp in iter_expectations(result.cases):
        impl = result.keys[exp.key]
        if impl.profile is None:
            continue
        checked += 1
        problems = evaluate(case, exp, impl)
        if problems:
            failures[(case.id, exp.key)] = problems
    assert checked >= 500
    unexpected = {k: v for k, v in failures.items() if k not in exceptions}
    assert unexpected == {}, "\n".join(f"{k}: {v}" for k, v in unexpected.items())
    stale = set(exceptions) - set(failures)
    assert stale == set(), f"known exceptions that now pass (remove them): {sorted(stale)}"
