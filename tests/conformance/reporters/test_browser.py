"""The HTML reports opened in a real headless browser (Debian's chromium, which .ci/run
installs): each page loads without console errors, fetches nothing, shows its figures with
their marks laid out, and follows the reader's light or dark preference.

Set BLEU_CONFORMANCE_SCREENSHOTS=DIR to keep the screenshots for a look."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import bleu_impl
from conformance import reporters
from conformance.reporters.compare import render as render_compare
from conformance.reporters.explanation_html import render_explanation_html
from conformance.results.log import RunLog
from conformance.results.records import CaseResult, ImplementationInfo, Mismatch

from . import browser
from .compare_logs import three_way

CHROMIUM = browser.find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium on PATH: the HTML reports are rendered in a real browser "
    "(`apt-get install -y chromium`; .ci/run installs it)",
)

FIGURES = {
    "compare": [
        "Why they differ: cases per cause",
        "Who disagrees with whom",
        "First against second score of each pair (BLEU, 0–100, log)",
    ],
    "run": ["Outcomes per implementation"],
    "explain": ["Precision per n-gram order"],
}


def _run_log() -> RunLog:
    results = [
        CaseResult("ours", f"c{i}", "fixtures/x.yaml", "pass", duration=0.01) for i in range(6)
    ]
    results += [
        CaseResult(
            "lib",
            "c1",
            "fixtures/x.yaml",
            "fail",
            reason="score: off by |Δ| 0.1",
            mismatches=(Mismatch("score", 0.5, 0.4, -0.1, 1e-9),),
        ),
        CaseResult("lib", "c2", "fixtures/x.yaml", "error", reason="crash", stderr="Traceback"),
        CaseResult("lib", "c3", "fixtures/x.yaml", "skip", reason="cannot express <smoothing>"),
        CaseResult("lib", "c4", "fixtures/x.yaml", "pass"),
    ]
    infos = [ImplementationInfo("ours", "1", "bleu_impl"), ImplementationInfo("lib", "2", "lib")]
    return RunLog(
        header={"created": "2026-01-01T00:00:00Z"}, implementations=infos, results=results
    )


def _explanation() -> str:
    hypotheses = ["the cat the cat on the mat", "the cat is here"]
    references = [["the cat is on the mat"], ["there is a cat here"]]
    profile = bleu_impl.get_profile("nltk")
    config = profile.resolve({}, "corpus")
    stats = bleu_impl.corpus_stats(hypotheses, references, config)
    return render_explanation_html(bleu_impl.score_stats(stats, profile=profile, config=config))


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("html")
    texts = {
        "compare": render_compare(three_way(), "html"),
        "run": reporters.render(_run_log(), "html"),
        "explain": _explanation(),
    }
    out = {}
    for name, text in texts.items():
        out[name] = folder / f"{name}.html"
        out[name].write_text(text, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def chromium():
    session = browser.Browser(CHROMIUM)
    yield session
    session.close()


def _keep(name: str, png: bytes) -> None:
    folder = os.environ.get("BLEU_CONFORMANCE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{name}.png").write_bytes(png)


@pytest.mark.parametrize("name", list(FIGURES))
def test_report_renders_in_a_browser(chromium, pages, name) -> None:
    seen = chromium.render(pages[name])
    _keep(name, seen.screenshot)
    assert seen.errors == []
    assert seen.requests == [pages[name].resolve().as_uri()]  # nothing else is fetched
    assert seen.title == f"bleu-conformance {name}"
    assert [f["title"] for f in seen.figures] == FIGURES[name]
    for figure in seen.figures:
        assert figure["width"] >= 200 and figure["height"] >= 100, figure
        assert figure["marks"] >= 4, figure
    assert seen.screenshot.startswith(b"\x89PNG")


def test_dark_preference_gives_a_dark_page(chromium, pages) -> None:
    light = chromium.render(pages["compare"])
    dark = chromium.render(pages["compare"], dark=True)
    _keep("compare-dark", dark.screenshot)
    assert light.background == "rgb(255, 255, 255)"
    assert dark.background == "rgb(13, 17, 23)"
    assert dark.errors == []


def test_the_browser_check_can_fail(chromium, tmp_path) -> None:
    page = tmp_path / "bad.html"
    page.write_text(
        "<!doctype html><title>bad</title><img src='http://example.invalid/x.png'>"
        "<script>console.error('boom'); notDefined();</script>",
        encoding="utf-8",
    )
    seen = chromium.render(page)
    assert "boom" in seen.errors
    assert any("notDefined" in e for e in seen.errors)
    assert "http://example.invalid/x.png" in seen.requests
