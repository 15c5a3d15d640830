"""Reports render from a run log: table, Markdown, JSON and JUnit XML (parsed back)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance import reporters
from conformance.reporters import junit
from conformance.results.records import CaseResult, End, Header, ImplementationInfo, Mismatch
from conformance.results.report import Report

from . import gfm


def _log() -> Report:
    results = [
        CaseResult(implementation="lib", case_id="ok", file="f.yaml", outcome="pass"),
        CaseResult(
            implementation="lib",
            case_id="bad",
            file="f.yaml",
            outcome="fail",
            reason="score: off",
            expect_key="k",
            mismatches=(Mismatch("score", 0.5, 0.25, -0.25, 1e-9),),
        ),
        CaseResult(
            implementation="lib",
            case_id="boom",
            file="f.yaml",
            outcome="error",
            reason="crash: exited",
            stderr="Traceback: boom",
        ),
        CaseResult(
            implementation="lib",
            case_id="no",
            file="f.yaml",
            outcome="skip",
            reason="cannot express smoothing",
        ),
        CaseResult(
            implementation="lib",
            case_id="known",
            file="f.yaml",
            outcome="xfail",
            reason="score: off",
            known_failure={"reason": "bug 12"},
        ),
    ]
    return Report(
        header=Header("run"),
        implementations=[ImplementationInfo(name="lib", version="1.2", spec="lib")],
        results=results,
        end=End(),  # a complete run (an incomplete one adds a no-verdict suite)
    )


def test_table_and_markdown():
    table = reporters.render(_log(), "table")
    assert "lib" in table and "1.2" in table and "25.0%" in table
    assert "FAIL lib f.yaml::bad" in table and "Traceback: boom" in table
    assert "\033[" not in table
    markdown = reporters.render(_log(), "markdown")
    assert "| implementation" in markdown
    assert "#### FAIL `f.yaml::bad`" in markdown


def test_markdown_tables_parse_as_gfm():
    log = _log()
    log.results[1] = CaseResult(
        implementation="lib",
        case_id="bad",
        file="f.yaml",
        outcome="fail",
        reason="score: |Δ| too large",
        mismatches=(Mismatch("score", 0.5, 0.25, -0.25, 1e-9, note="max |Δ| exceeded"),),
    )
    tables = gfm.check(reporters.render(log, "markdown"))
    assert [t.headers[0] for t in tables] == ["implementation", "field"]
    assert tables[0].rows[0][:4] == ["lib", "1.2", "1", "1"]
    assert tables[1].rows[0][1:3] == ["0.5", "0.25"]


def test_color_only_when_asked():
    assert "\033[" in reporters.render(_log(), "table", reporters.View(color=True))


def test_json():
    data = json.loads(reporters.render(_log(), "json"))
    assert data["summary"][0]["counts"] == {"error": 1, "fail": 1, "pass": 1, "skip": 1, "xfail": 1}
    assert len(data["results"]) == 5


def test_junit_xml_parses_and_keeps_outcomes_apart(tmp_path):
    path = tmp_path / "junit.xml"
    junit.write(_log(), path)
    root = ET.parse(path).getroot()
    suite = root.find("testsuite")
    assert suite.get("name") == "lib"
    assert (
        suite.get("tests"),
        suite.get("failures"),
        suite.get("errors"),
        suite.get("skipped"),
    ) == ("5", "1", "1", "2")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert cases["bad"].find("failure").get("message") == "score: off"
    assert "0.25" in cases["bad"].find("failure").text
    assert cases["boom"].find("error") is not None
    assert cases["boom"].find("system-err").text == "Traceback: boom"
    assert cases["no"].find("skipped").get("message") == "cannot express smoothing"
    assert "bug 12" in cases["known"].find("skipped").get("message")
    assert cases["ok"].find("failure") is None


def test_no_color_is_respected(monkeypatch):
    from conformance.reporters.view import use_color

    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Tty())


JUNIT_SCHEMA = Path(__file__).with_name("data") / "junit-10.xsd"


@pytest.fixture(scope="module")
def junit_schema():
    xmlschema = pytest.importorskip("xmlschema", reason="the test extra installs xmlschema")
    return xmlschema.XMLSchema(str(JUNIT_SCHEMA))


def test_junit_validates_against_the_junit_10_schema(junit_schema):
    xml = junit.render(_log())
    junit_schema.validate(xml)
    root = ET.fromstring(xml)
    assert root.get("tests") == "5" and root.get("failures") == "1" and root.get("errors") == "1"
    for case in root.iter("testcase"):
        assert set(case.attrib) == {"classname", "name", "time"}
        assert re.fullmatch(r"\d+\.\d{3}", case.get("time"))


def test_the_schema_rejects_what_viewers_reject(junit_schema):
    """The check can fail: a testcase ``file`` attribute or a 6-decimal suite time."""
    xml = junit.render(_log())
    with_file = xml.replace(
        '<testcase classname="lib.f"', '<testcase file="f.yaml" classname="lib.f"'
    )
    assert with_file != xml and not junit_schema.is_valid(with_file)
    six = re.sub(r'(<testsuite [^>]*time=")(\d+\.\d{3})"', r'\g<1>\g<2>000"', xml)
    assert six != xml and not junit_schema.is_valid(six)


def test_junit_classname_splits_into_package_and_file():
    result = CaseResult(
        implementation="nltk",
        case_id="edge.x",
        file="fixtures/edge/edge-cases.yaml",
        outcome="pass",
    )
    log = Report(header=Header("run"), implementations=[], results=[result])
    case = ET.fromstring(junit.render(log)).find("testsuite/testcase")
    package, _, cls = case.get("classname").rpartition(".")
    assert (package, cls, case.get("name")) == ("nltk.fixtures.edge", "edge-cases", "edge.x")
    dotted = junit.classname("mypkg.metrics:bleu", "my.corpus.yaml")
    assert dotted.rpartition(".") == ("mypkg_metrics:bleu", ".", "my_corpus")


@pytest.mark.parametrize("command", ["run", "compare", "corpus", "identify"])
def test_every_command_renders_every_format_and_says_when_interrupted(command):
    report = Report(Header(command))  # a header and nothing else: interrupted at once
    for fmt in reporters.FORMATS:
        text = reporters.render(report, fmt)
        assert "INCOMPLETE" in text or json.loads(text)["complete"] is False, (command, fmt)
