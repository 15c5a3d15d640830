"""The HTML reports opened in a real headless browser (Debian's chromium, which .ci/run
installs): each page loads without console errors, fetches nothing, shows its figures with
their marks laid out and its bars as wide as their values, and follows the reader's light or
dark preference (heat-map cells included).

Set BLEU_CONFORMANCE_SCREENSHOTS=DIR to keep the screenshots for a look."""

from __future__ import annotations

import os
import re
from collections import defaultdict
from pathlib import Path

import pytest

import bleu_impl
from conformance import reporters
from conformance.reporters import html
from conformance.reporters.explain_html import render_explanation_html
from conformance.results.records import CaseResult, Header, ImplementationInfo, Mismatch
from conformance.results.report import Report

from . import browser
from .compare_logs import three_way

CHROMIUM = browser.find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium on PATH: the HTML reports are rendered in a real browser "
    "(`apt-get install -y chromium`; .ci/run installs it)",
)

FIGURES = {
    "compare": ["First against second score of each pair (BLEU, 0–100, log)"],
    "run": [],
    "explain": [],
}
#: The bar segments each page draws (zero values draw none): the compare page's causes
#: (material, negligible), the run's outcomes per implementation, explain's precisions.
BARS = {"compare": 5, "run": 5, "explain": 7}
#: A disagreement matrix with distinct counts, for the heat-map colors.
HEAT = ([[None, 8.0, 1.0], [8.0, None, 4.0], [1.0, 4.0, None]], ["A", "B", "C"])


def _run_log() -> Report:
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
    return Report(
        header=Header("run", created="2026-01-01T00:00:00Z"),
        implementations=infos,
        results=results,
    )


def _explanation() -> str:
    hypotheses = ["the cat the cat on the mat", "the cat is here"]
    references = [["the cat is on the mat"], ["there is a cat here"]]
    profile = bleu_impl.get_profile("nltk")
    config = profile.resolve({}, "corpus")
    stats = bleu_impl.corpus_stats(hypotheses, references, config)
    return render_explanation_html(bleu_impl.score_stats(stats, profile=profile, config=config))


_PLAIN = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻−", "0123456789--")


def _number(text: str) -> float:
    """A number as the reports print it: ``12,345``, ``0.727``, ``2.23×10⁻³⁰⁸``."""
    return float(text.replace(",", "").replace("×10", "e").translate(_PLAIN))


def _rgb(css: str) -> list[float]:
    """A computed color, ``rgb(r, g, b)`` or ``color(srgb r g b)``, as 0..1 channels."""
    numbers = [float(n) for n in re.findall(r"[\d.]+", css)[:3]]
    return numbers if "srgb" in css else [n / 255 for n in numbers]


def _luminance(css: str) -> float:
    """WCAG relative luminance."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in _rgb(css)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("html")
    texts = {
        "compare": reporters.render(three_way(), "html"),
        "run": reporters.render(_run_log(), "html"),
        "explain": _explanation(),
        "heat": html.page(
            "heat",
            html.heat_table(
                HEAT[1], HEAT[1], HEAT[0], [[f"{v or ''}" for v in r] for r in HEAT[0]], caption="c"
            ),
        ),
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


@pytest.mark.parametrize("name", list(BARS))
def test_bars_are_as_wide_as_their_values(chromium, pages, name) -> None:
    """In each table, every bar segment's laid-out width is its value times one scale."""
    seen = chromium.render(pages[name])
    assert len(seen.bars) == BARS[name]
    tables = defaultdict(list)
    for segment in seen.bars:
        value = _number(segment["title"].rsplit(": ", 1)[1])
        tables[segment["table"]].append((value, segment["width"]))
    for segments in tables.values():
        scale = max(w for _, w in segments) / max(v for v, _ in segments)
        assert scale * max(v for v, _ in segments) >= 60  # the largest is a visible bar
        for value, width in segments:
            assert width == pytest.approx(value * scale, abs=0.5)


@pytest.mark.parametrize("dark", [False, True])
def test_heat_cells_shade_with_their_value_and_keep_the_text_readable(chromium, pages, dark):
    """The larger the value, the further its cell from the page's background: darker on a
    light page, lighter on a dark one; the text keeps a WCAG AA contrast (4.5) on every cell."""
    seen = chromium.render(pages["heat"], dark=dark)
    cells = {c["title"]: c for c in seen.heat if not c["title"].endswith("no value")}
    assert len(cells) == 6
    by_value = sorted(cells.values(), key=lambda c: float(c["title"].rsplit(": ", 1)[1]))
    light = [_luminance(c["background"]) for c in by_value]
    assert light == (sorted(light) if dark else sorted(light, reverse=True))
    assert light[0] != light[-1]
    for cell in cells.values():
        a, b = _luminance(cell["background"]), _luminance(cell["color"])
        assert (max(a, b) + 0.05) / (min(a, b) + 0.05) >= 4.5, cell


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
