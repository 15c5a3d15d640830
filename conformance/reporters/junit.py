"""JUnit XML: one ``testsuite`` per implementation, one ``testcase`` per case.

fail, fixed and changed are ``<failure>``; error is ``<error>``; skip and xfail are
``<skipped>`` (xfail with its known-failure reason), so CI dashboards keep them apart.

The output follows the junit-10 schema CI systems read (Jenkins xUnit, and what pytest
validates its own output against): a testcase has only ``name``, ``classname`` and ``time``;
times have at most three decimals. The classname is ``IMPLEMENTATION.dir.dir.file`` (the
fixture file's path as dotted package, its extension dropped, dots inside a part made ``_``),
since viewers split a classname at its last dot into package and class.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path, PurePosixPath

from ..outputs import write_atomic
from ..results.printable import shown
from ..results.records import CaseResult
from ..results.report import Report
from ..results.summary import summarize
from ..results.vocab import CHANGED, ERROR, FAIL, FIXED, SKIP, XFAIL
from .run_text import mismatch_table, warnings


def _message(result: CaseResult) -> str:
    return result.reason or result.outcome


def seconds(value: float) -> str:
    """A duration as the schema's times: seconds with three decimals."""
    return f"{max(0.0, value):.3f}"


def _part(text: str) -> str:
    return re.sub(r"[.\s]+", "_", text).strip("_") or "_"


def classname(implementation: str, file: str) -> str:
    """``nltk`` + ``fixtures/edge/edge-cases.yaml`` -> ``nltk.fixtures.edge.edge-cases``."""
    path = PurePosixPath(file.replace("\\", "/")) if file else PurePosixPath("fixtures")
    parts = [p for p in path.with_suffix("").parts if p not in ("/", "..", ".")]
    return ".".join(_part(p) for p in [implementation, *parts])


def _testcase(result: CaseResult) -> ET.Element:
    case = ET.Element(
        "testcase",
        classname=classname(result.implementation, result.file),
        name=result.case_id,
        time=seconds(result.duration),
    )
    body = mismatch_table(result) if result.mismatches else result.reason
    if result.outcome in (FAIL, FIXED, CHANGED):
        kind = {FAIL: "mismatch", FIXED: "known-failure-fixed", CHANGED: "known-failure-changed"}
        child = ET.SubElement(case, "failure", message=_message(result), type=kind[result.outcome])
        child.text = body
    elif result.outcome == ERROR:
        child = ET.SubElement(case, "error", message=_message(result), type="error")
        child.text = body
    elif result.outcome == SKIP:
        ET.SubElement(case, "skipped", message=_message(result))
    elif result.outcome == XFAIL:
        reason = (result.known_failure or {}).get("reason", "")
        ET.SubElement(case, "skipped", message=f"xfail: {reason} ({_message(result)})")
    if result.stderr:
        ET.SubElement(case, "system-err").text = result.stderr
    return case


def render(log: Report) -> str:
    """The run as JUnit XML (what implementations printed escaped: XML 1.0 cannot hold NUL
    or ESC)."""
    log = shown(log)
    root = ET.Element("testsuites", name="bleu-conformance")
    by_name = {s.implementation: s for s in summarize(log)}
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for name, summary in by_name.items():
        results = log.results_for(name)
        counts = {
            "tests": len(results),
            "failures": sum(summary.counts[o] for o in (FAIL, FIXED, CHANGED)),
            "errors": summary.counts[ERROR],
        }
        for key, value in counts.items():
            totals[key] += value
        suite = ET.SubElement(
            root,
            "testsuite",
            name=name,
            tests=str(counts["tests"]),
            failures=str(counts["failures"]),
            errors=str(counts["errors"]),
            skipped=str(summary.counts[SKIP] + summary.counts[XFAIL]),
            time=seconds(sum(r.duration for r in results)),
        )
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="version", value=summary.version)
        for result in results:
            suite.append(_testcase(result))
    notes = warnings(log)
    if notes:  # a dashboard must not show an interrupted or unchecked run as green
        suite = ET.SubElement(
            root, "testsuite", name="bleu-conformance", tests="1", failures="0", errors="1"
        )
        case = ET.SubElement(suite, "testcase", classname="bleu-conformance", name="run")
        ET.SubElement(case, "error", message=notes[0], type="run").text = "\n".join(notes)
        totals["tests"] += 1
        totals["errors"] += 1
    root.set("time", seconds(sum(r.duration for r in log.results)))
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write(log: Report, path: str | Path) -> None:
    write_atomic(path, render(log), "JUnit XML")
