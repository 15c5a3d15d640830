"""The corpus report's HTML page: self-contained, with its three figures, rendered by a real
headless Chromium (Debian's package; the test skips where it is not installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bench.mtsystems import SystemSpec, generate, write
from conformance.cli import main

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("html")
    systems = [SystemSpec("a", 0.3), SystemSpec("b", 0.29, "tokenized"), SystemSpec("c", 0.32)]
    paths = write(d, "fr", *generate("fr", 120, systems, refs=1, seed=5))
    out = d / "report.html"
    argv = ["compare", "-r", str(paths[0])] + [x for p in paths[1:] for x in ("-i", str(p))]
    argv += ["--impl", "bleu_impl:sacrebleu", "--impl", "bleu_impl:nltk", "--impl"]
    argv += ["bleu_impl:mteval-v13a", "--format", "html", "--report", str(out)]
    assert main(argv) == 0
    return out


def test_page_is_self_contained_with_three_figures(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") == 3
    for title in ("Rank of each system", "Score spread per system", "BLEU change of each knob"):
        assert title in text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
    assert "<script" not in text


def test_chromium_renders_the_figures(page: Path, tmp_path: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    shot = tmp_path / "shot.png"
    profile = tmp_path / "profile"
    run = [browser, *FLAGS, f"--user-data-dir={profile}", "--window-size=1200,2400"]
    subprocess.run([*run, f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=120)
    assert shot.stat().st_size > 30_000  # a blank page is a few kB
    dom = subprocess.run(
        [*run, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    assert dom.count("<svg") == 3 and "Ranking flips" in dom


def test_implementations_that_rank_alike_share_a_bump_column() -> None:
    """26 implementations giving two distinct rankings are two columns, not 26 (a chart of
    26 columns shrinks to an unreadable strip); the caption names every member."""
    from conformance.reporters.corpus_html import bump_figure, rank_groups
    from conformance.results.records import CorpusSummary, Header, ImplementationInfo, System
    from conformance.results.report import Report

    systems = tuple(System(name, f"{name}.txt") for name in ("s1", "s2", "s3"))
    one, other = {"s1": 1, "s2": 2, "s3": 3}, {"s1": 1, "s2": 3, "s3": 2}
    impls = ["bleu_impl:nltk", "sacrebleu", "nltk", "bleu_impl:sacrebleu", "broken"]
    ranks = {
        "bleu_impl:nltk": other,
        "sacrebleu": one,
        "nltk": other,
        "bleu_impl:sacrebleu": one,
        "broken": {},
    }
    summary = CorpusSummary(("ref.txt",), 3, {}, "sacrebleu", systems, ranks=ranks)
    infos = [ImplementationInfo(name, "1", name) for name in impls]
    report = Report(Header("corpus"), infos, corpus=summary)
    groups = rank_groups(report)
    assert groups == [
        ("sacrebleu +1", ["sacrebleu", "bleu_impl:sacrebleu"]),
        ("nltk +1", ["bleu_impl:nltk", "nltk"]),
    ]
    chart = bump_figure(report)
    assert "sacrebleu +1" in chart and "nltk +1" in chart and "broken" not in chart


def test_the_segments_summary_is_prose_not_one_preformatted_line(page: Path) -> None:
    """The sentence saying how much of the difference is counting and how much scoring is a
    paragraph that wraps; in the <pre> block it was one ~400-character line to scroll."""
    section = page.read_text(encoding="utf-8").split("Where the difference comes from", 1)[1]
    summary = re.search(r"<p>([^<]*of which[^<]*)</p>", section)
    assert summary is not None and "comes from what is counted" in summary.group(1)
    assert "of which" not in "".join(re.findall(r"<pre>(.*?)</pre>", section, re.S))
