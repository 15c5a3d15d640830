"""JUnit XML: one ``testsuite`` per implementation, one ``testcase`` per case.

fail, fixed and changed are ``<failure>``; error is ``<error>``; skip and xfail are
``<skipped>`` (xfail with its known-failure reason), so CI dashboards keep them apart.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ..outputs import write_atomic
from ..results import CHANGED, ERROR, FAIL, FIXED, SKIP, XFAIL, CaseResult
from ..runlog import RunLog
from .summary import summarize
from .text import mismatch_table, warnings


def _message(result: CaseResult) -> str:
    return result.reason or result.outcome


def _testcase(result: CaseResult) -> ET.Element:
    case = ET.Element(
        "testcase",
        classname=f"{result.implementation}.{result.file or 'fixtures'}",
        name=result.case_id,
        time=f"{result.duration:.6f}",
        file=result.file,
    )
    body = mismatch_table(result, "simple") if result.mismatches else result.reason
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


def render(log: RunLog) -> str:
    root = ET.Element("testsuites", name="bleu-conformance")
    by_name = {s.implementation: s for s in summarize(log)}
    for name, summary in by_name.items():
        results = log.results_for(name)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=name,
            tests=str(len(results)),
            failures=str(sum(summary.counts[o] for o in (FAIL, FIXED, CHANGED))),
            errors=str(summary.counts[ERROR]),
            skipped=str(summary.counts[SKIP] + summary.counts[XFAIL]),
            time=f"{sum(r.duration for r in results):.6f}",
        )
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="version", value=summary.version)
        for result in results:
            suite.append(_testcase(result))
    notes = warnings(log)
    if notes:  # a dashboard must not show an interrupted or unchecked run as green
        suite = ET.SubElement(root, "testsuite", name="bleu-conformance", tests="1", errors="1")
        case = ET.SubElement(suite, "testcase", classname="bleu-conformance", name="run")
        ET.SubElement(case, "error", message=notes[0], type="run").text = "\n".join(notes)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write(log: RunLog, path: str | Path) -> None:
    write_atomic(path, render(log), "JUnit XML")
