"""The versions report: a view of a sweep's log in every format (records written and read
back through the log, as the command does)."""

from __future__ import annotations

import json
from pathlib import Path

from conformance import reporters
from conformance.results.log import LogWriter, read_log
from conformance.results.records import Behaviour, End, Header, Release, Side

from . import gfm


def _log(tmp_path: Path):
    path = tmp_path / "v.jsonl"
    old, new = Side("answered", score=1.0), Side("answered", score=1.2e-77)
    with path.open("w", encoding="utf-8") as stream:
        log = LogWriter(stream, Header("versions", params={"library": "nltk"}))
        log.write(Release("nltk", "3.2.5", "3.2.5 (shims: inspect.getargspec)", answers={"c": old}))
        log.write(Release("nltk", "3.9", error="LookupError: Resource wordnet not found."))
        log.write(Release("nltk", "3.10.4", "3.10.4", answers={"c": new}))
        log.write(
            Behaviour(
                "nltk", ("3.2.5",), profile="nltk-3.2.2", nearest="nltk-3.2.2", agreed=1, compared=1
            )
        )
        log.write(Behaviour("nltk", ("3.9",), error="LookupError: Resource wordnet not found."))
        log.write(
            Behaviour(
                "nltk",
                ("3.10.4",),
                nearest="nltk",
                agreed=0,
                compared=1,
                differing=1,
                case="c",
                before=old,
                after=new,
            )
        )
        log.write(End())
    return read_log(path)


def test_every_format(tmp_path):
    report = _log(tmp_path)
    table = reporters.render(report, "table")
    assert table.startswith("nltk: 3 releases, 3 behaviour classes")
    assert "profile nltk-3.2.2 (1/1 answers)" in table
    assert "no profile matches (nearest nltk: 0/1" in table
    assert "cannot run: LookupError" in table
    (markdown,) = gfm.check(reporters.render(report, "markdown"))
    assert [row[0] for row in markdown.rows] == ["3.2.5", "3.9", "3.10.4"]
    assert markdown.rows[2][3:] == ["1", "1.2e-77", ""]
    document = json.loads(reporters.render(report, "json"))
    assert document["behaviours"][2]["before"]["score"] == 1.0
    assert document["releases"][1]["error"].startswith("LookupError")
    page = reporters.render(report, "html")
    assert 'class="bar"' in page and "3 releases" in page
