"""The conformance runner: select cases, drive adapters, classify and compare answers."""

from .compare import compare, expected_summary
from .engine import build_request, implementation_info, run_adapter, run_case, startup_failure
from .select import candidate_keys, choose_key, node_id, select_cases

__all__ = [
    "build_request",
    "candidate_keys",
    "choose_key",
    "compare",
    "expected_summary",
    "implementation_info",
    "node_id",
    "run_adapter",
    "run_case",
    "select_cases",
    "startup_failure",
]
