"""The Markdown summary (which CI job summaries append) quotes what implementations say:
a multi-line message cannot add a heading or a table, and no tag from a message or a name
renders."""

from __future__ import annotations

import re

from conformance.reporters import View, render
from conformance.results.records import CaseResult, End, Header, ImplementationInfo, Mismatch
from conformance.results.report import Report

INJECTED = (
    "boom\n# ALL CASES PASSED\n\n| everything | 100.0% |\n|---|---|\n"
    "<img src=x onerror=alert(1)> <h1>big</h1> </details> ```"
)
NAME = "<h1>impl</h1>\n# HEADING"


def _report() -> Report:
    report = Report(Header("run"))
    report.implementations.append(ImplementationInfo(NAME, "1 <b>", "spec"))
    report.results += [
        CaseResult(NAME, "c1", "f.yaml", "error", reason=INJECTED, stderr=INJECTED),
        CaseResult(
            NAME,
            "c2",
            "f.yaml",
            "fail",
            reason="x",
            mismatches=(Mismatch("score", 1.0, 0.5, note=INJECTED),),
        ),
    ]
    report.end = End()
    return report


def test_markdown_quotes_every_message_and_name():
    text = render(_report(), "markdown", View(width=100))
    fenced = re.sub(r"(`{4,})\n.*?\n\1", "", text, flags=re.S)  # stderr, in a long fence
    assert not re.search(r"^#+ ALL CASES PASSED", fenced, flags=re.M)
    assert not re.search(r"^\| everything", fenced, flags=re.M)  # no table row of its own
    for tag in ("<img", "<h1>", "</details>", "<b>"):
        assert tag not in fenced, tag
    assert "&lt;img src=x onerror=alert(1)&gt;" in fenced
    assert re.search(r"^`{4,}$", text, flags=re.M)  # the fence outlasts the quoted ```


def test_the_corpus_report_quotes_messages(tmp_path, capsys):
    """compare -r/-i --format markdown: an implementation's error message is quoted like the
    run summary's (in prose and in the fenced blocks)."""
    from conformance.cli import main

    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat sat on the mat\n", encoding="utf-8")
    hyp.write_text("the cat sat on a mat\n", encoding="utf-8")
    spec = "tests.conformance.fakes.hostile:raises_injected"
    argv = ["compare", "-q", "-r", str(ref), "-i", str(hyp), "--impl", "bleu_impl"]
    main([*argv, "--impl", spec, "--format", "markdown"])
    text = capsys.readouterr().out
    assert "ALL CASES PASSED" in text  # the message is there, quoted
    fenced = re.sub(r"^(`{3,})\n.*?\n\1$", "", text, flags=re.S | re.M)
    assert not re.search(r"^#+ ALL CASES PASSED", fenced, flags=re.M)
    assert not re.search(r"^\| everything", fenced, flags=re.M)
    for tag in ("<img", "<h1>", "</details>"):
        assert tag not in fenced, tag
