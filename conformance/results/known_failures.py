"""Known-failures files: which cases an implementation is known to get wrong, and why.

Format (YAML)::

    implementation: nltk          # glob matched against the implementation name
    failures:
      - case: "nltk.method4-*"    # a case id or glob (also matched against file::id)
        reason: "method4 divides by ln(c) = 0 for a one-token hypothesis"
        link: https://github.com/nltk/nltk/issues/2838
        outcome: fail             # optional: fail or error (default: either)

A matching case that still fails is ``xfail``; one that now passes is ``fixed`` (remove the
entry); one that fails the other way (error instead of fail...) is ``changed``.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..bounded import read_bounded
from .vocab import CHANGED, ERROR, FAIL, FIXED, PASS, XFAIL, Outcome


@dataclass(frozen=True)
class KnownFailure:
    """One entry: the implementation and case globs, why, and where it is tracked."""

    implementation: str
    case: str
    reason: str
    link: str = ""
    outcome: str | None = None
    file: str = ""

    def matches(self, implementation: str, case_id: str, node_id: str) -> bool:
        return fnmatch.fnmatchcase(implementation, self.implementation) and (
            fnmatch.fnmatchcase(case_id, self.case) or fnmatch.fnmatchcase(node_id, self.case)
        )

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in (None, "")}


def load_known_failures(path: str | Path) -> list[KnownFailure]:
    """Read one known-failures file (ValueError names the file and the bad entry)."""
    import yaml  # only where a known-failures file is read

    path = Path(path)
    try:
        data = yaml.safe_load(read_bounded(path).decode("utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ValueError(f"{path}: cannot read known failures: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("failures"), list):
        raise ValueError(f"{path}: expected 'implementation: NAME' and a 'failures:' list")
    implementation = str(data.get("implementation", "*"))
    entries = []
    for index, item in enumerate(data["failures"]):
        if not isinstance(item, dict) or "case" not in item or "reason" not in item:
            raise ValueError(f"{path}: failures[{index}] needs 'case' and 'reason'")
        outcome = item.get("outcome")
        if outcome not in (None, FAIL, ERROR):
            raise ValueError(f"{path}: failures[{index}].outcome must be fail or error")
        entries.append(
            KnownFailure(
                implementation=str(item.get("implementation", implementation)),
                case=str(item["case"]),
                reason=str(item["reason"]),
                link=str(item.get("link", "")),
                outcome=outcome,
                file=str(path),
            )
        )
    return entries


def load_all(paths: Iterable[str | Path]) -> list[KnownFailure]:
    return [entry for path in paths for entry in load_known_failures(path)]


def find(
    entries: Sequence[KnownFailure], implementation: str, case_id: str, node_id: str
) -> KnownFailure | None:
    return next((e for e in entries if e.matches(implementation, case_id, node_id)), None)


def apply(outcome: Outcome, entry: KnownFailure | None) -> Outcome:
    """The outcome once a known-failure entry is taken into account."""
    if entry is None or outcome not in (PASS, FAIL, ERROR):
        return outcome
    if outcome == PASS:
        return FIXED
    if entry.outcome is None or entry.outcome == outcome:
        return XFAIL
    return CHANGED
