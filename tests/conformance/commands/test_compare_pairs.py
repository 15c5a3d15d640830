"""``compare --pairs MANIFEST --output DIR``: every pair of a task in one command, each
pair's report logged, an interrupted run resumed, a cross-pair summary."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from conformance.reporters import render
from conformance.results.log import read_log

DATA = Path(__file__).parents[1] / "engine" / "corpus" / "data"
IMPLS = ["bleu_impl:sacrebleu", "bleu_impl:nltk", "bleu_impl:mteval-v13a", "bleu_impl:fairseq"]


def _manifest(tmp_path: Path) -> Path:
    manifest = tmp_path / "task.yaml"
    manifest.write_text(
        "pairs:\n"
        f"  - {{name: en-fr, refs: ['{DATA}/fr/ref*.txt'], systems: ['{DATA}/fr/[abc].txt']}}\n"
        f"  - {{name: en-zh, refs: ['{DATA}/zh/ref.txt'], systems: ['{DATA}/zh/[abc].txt'],"
        " knobs: {tokenize: zh}}\n",
        encoding="utf-8",
    )
    return manifest


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    argv = [
        "compare",
        "-q",
        "--pairs",
        str(_manifest(tmp_path)),
        "--output",
        str(tmp_path / "logs"),
    ]
    argv += [x for impl in IMPLS for x in ("--impl", impl)]
    assert main([*argv, "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_pair_is_reported_and_summarized(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = _run(tmp_path, capsys)
    rows = {row["pair"]: row for row in summary["pairs"]}
    assert set(rows) == {"en-fr", "en-zh"} and not any(r["resumed"] for r in rows.values())
    # each pair's log is a complete corpus report, with the pair's own knobs
    zh = read_log(tmp_path / "logs" / "en-zh.jsonl")
    assert zh.complete and zh.corpus is not None and dict(zh.corpus.knobs) == {"tokenize": "zh"}
    assert rows["en-zh"]["scored_by"] == 4  # NLTK and mteval fed pre-tokenized text
    assert rows["en-fr"]["scored_by"] == 3  # fairseq takes one reference, French has two
    # mteval lowercases: it ranks the lowercased French system differently
    assert "bleu_impl:mteval-v13a" in rows["en-fr"]["ranking_differs"]
    assert summary["ranking_differs"]["bleu_impl:mteval-v13a"] == ["en-fr"]


def test_an_interrupted_run_resumes_from_its_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(tmp_path, capsys)
    log = tmp_path / "logs" / "en-zh.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(lines[:-2]), encoding="utf-8")  # no summary, no end: interrupted
    rows = {row["pair"]: row for row in _run(tmp_path, capsys)["pairs"]}
    assert rows["en-fr"]["resumed"] is True and rows["en-zh"]["resumed"] is False
    assert read_log(log).complete


def test_a_bad_pair_is_a_row_and_the_others_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "task.yaml"
    (tmp_path / "short.txt").write_text("one line\n", encoding="utf-8")
    manifest.write_text(
        "pairs:\n"
        f"  - {{name: bad, refs: ['{DATA}/fr/ref.txt'], systems: ['short.txt']}}\n"
        f"  - {{name: en-zh, refs: ['{DATA}/zh/ref.txt'], systems: ['{DATA}/zh/a.txt',"
        " 'short.txt']}\n",
        encoding="utf-8",
    )
    argv = ["compare", "-q", "--pairs", str(manifest), "--output", str(tmp_path / "logs")]
    assert main([*argv, "--impl", "bleu_impl:sacrebleu", "--format", "json"]) == 2
    rows = {row["pair"]: row for row in json.loads(capsys.readouterr().out)["pairs"]}
    assert "short.txt" in rows["bad"]["error"] and rows["en-zh"]["systems"] == 1
    # a bad system beside a good one: the pair is compared, the bad file named with why
    (unread,) = rows["en-zh"]["unread"]
    assert unread.startswith("line count mismatch: ") and "short.txt has 1 lines" in unread


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A 2-worker LocalCluster (worker threads: no process start-up)."""
    distributed = pytest.importorskip("distributed", reason="needs the 'dask' extra")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as local:
        yield local


def _tasks_done(cluster: Any) -> int:
    """How many pair tasks the cluster's workers have computed."""
    prefix = cluster.scheduler.task_prefixes.get("pair_log")
    return 0 if prefix is None else int(prefix.state_counts["memory"])


def _reports(logs: Path) -> dict[str, Any]:
    """Each pair's report as JSON, without the header (when and how it was run)."""
    out = {}
    for log in sorted(logs.glob("*.jsonl")):
        data = json.loads(render(read_log(log), "json"))
        out[log.stem] = {k: v for k, v in data.items() if k != "header"}
    return out


def test_a_dask_run_reports_what_one_process_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cluster: Any
) -> None:
    """Each pair a task on the cluster: the same pair reports and the same summary."""
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir(), there.mkdir()
    summary = _run(here, capsys)
    done = _tasks_done(cluster)
    assert _run(there, capsys, "--scheduler", cluster.scheduler_address) == summary
    assert _tasks_done(cluster) == done + 2  # both pairs were computed by the workers
    assert _reports(there / "logs") == _reports(here / "logs")
    assert set(_reports(here / "logs")) == {"en-fr", "en-zh"}


def test_a_dask_run_resumes_from_its_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cluster: Any
) -> None:
    _run(tmp_path, capsys)
    log = tmp_path / "logs" / "en-zh.jsonl"
    before = _reports(tmp_path / "logs")
    kept = (tmp_path / "logs" / "en-fr.jsonl").read_bytes()
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(lines[:-2]), encoding="utf-8")  # interrupted
    done = _tasks_done(cluster)
    summary = _run(tmp_path, capsys, "--scheduler", cluster.scheduler_address)
    assert _tasks_done(cluster) == done + 1  # only the interrupted pair was a task
    rows = {row["pair"]: row for row in summary["pairs"]}
    assert rows["en-fr"]["resumed"] is True and rows["en-zh"]["resumed"] is False
    assert (tmp_path / "logs" / "en-fr.jsonl").read_bytes() == kept  # not computed again
    assert _reports(tmp_path / "logs") == before


def test_local_n_starts_a_cluster_of_worker_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed", reason="needs the 'dask' extra")
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir(), there.mkdir()
    assert _run(there, capsys, "--scheduler", "local:1") == _run(here, capsys)
    assert _reports(there / "logs") == _reports(here / "logs")


def test_a_bad_local_cluster_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed", reason="needs the 'dask' extra")
    argv = ["compare", "--pairs", str(_manifest(tmp_path)), "--output", str(tmp_path / "o")]
    assert main([*argv, "--scheduler", "local:none"]) == 2
    assert "local:N takes a number of workers N >= 1" in capsys.readouterr().err


def test_a_scheduler_without_pairs_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    ref = str(DATA / "fr" / "ref.txt")
    argv = ["compare", "-r", ref, "-i", str(DATA / "fr" / "a.txt"), "--scheduler", "local:2"]
    assert main(argv) == 2
    assert "--scheduler runs the pairs of --pairs" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pairs: []\n", "non-empty list 'pairs'"),
        ("pairs:\n  - {name: 'a b', refs: [r], systems: [s]}\n", "needs a name"),
        ("pairs:\n  - {name: x, refs: [nothing*], systems: [s]}\n", "matches no file"),
        (
            "pairs:\n  - {name: x, refs: [r], systems: [s]}\n"
            "  - {name: x, refs: [r], systems: [s]}\n",
            "given twice",
        ),
    ],
)
def test_a_bad_manifest_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    (tmp_path / "m.yaml").write_text(text, encoding="utf-8")
    argv = ["compare", "--pairs", str(tmp_path / "m.yaml"), "--output", str(tmp_path / "o")]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def _lay_out(root: Path, pair: str, refs: dict[str, str], systems: dict[str, str]) -> None:
    """Files named as in the WMT system repositories (txt/references, txt/system-outputs)."""
    tgt = pair.split("-")[1]
    for folder, kind, files in (("references", "ref", refs), ("system-outputs", "hyp", systems)):
        (root / "txt" / folder).mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (root / "txt" / folder / f"test2022.{pair}.{kind}.{name}.{tgt}").write_text(
                text, encoding="utf-8"
            )


def _read(*parts: str) -> str:
    return DATA.joinpath(*parts).read_text(encoding="utf-8")


def test_a_directory_laid_out_as_the_wmt_repositories_is_a_task(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every pair found, every reference and system of it, sacrebleu's tokenizer for a
    Chinese target; each system's score equals live sacrebleu's on the same files."""
    sacrebleu = pytest.importorskip("sacrebleu")
    task = tmp_path / "task"
    fr = {s: _read("fr", f"{s}.txt") for s in "abc"}
    _lay_out(task, "en-fr", {"A": _read("fr", "ref.txt"), "B": _read("fr", "ref2.txt")}, fr)
    zh = {f"Sys.{s}": _read("zh", f"{s}.txt") for s in "ab"}  # a system name with a dot
    _lay_out(task, "en-zh", {"A": _read("zh", "ref.txt")}, zh)
    (task / "txt" / "sources").mkdir()  # read by no one
    argv = ["compare", "-q", "--pairs", str(task), "--output", str(tmp_path / "logs")]
    assert main([*argv, "--impl", "sacrebleu", "--format", "json"]) == 0
    rows = {row["pair"]: row for row in json.loads(capsys.readouterr().out)["pairs"]}
    assert (rows["en-fr"]["systems"], rows["en-zh"]["systems"]) == (3, 2)
    for pair, systems, refs, tokenize in (
        ("en-fr", fr, ["ref.txt", "ref2.txt"], "13a"),
        ("en-zh", zh, ["ref.txt"], "zh"),
    ):
        report = read_log(tmp_path / "logs" / f"{pair}.jsonl")
        assert dict(report.corpus.knobs) == ({"tokenize": "zh"} if tokenize == "zh" else {})
        lang = pair.split("-")[1]
        references = [_read(lang, r).splitlines() for r in refs]
        scores = report.scores()["sacrebleu"]
        assert len(scores) == len(systems)
        for name, text in systems.items():
            (system,) = [s for s in scores if s in name]  # names lose what all share
            live = sacrebleu.corpus_bleu(text.splitlines(), references, tokenize=tokenize)
            assert scores[system] == pytest.approx(live.score, abs=1e-9)


#: The official BLEU (sacrebleu 2.0.0 defaults, all references) of the WMT22 general task's
#: smallest pairs: wmt-conference/wmt22-news-systems scores/automatic-scores.tsv, commit
#: 20240a2e96a50e823ea8cdf37fd8af52547146e3 (metric bleu-all).
WMT22_OFFICIAL = {
    ("sah-ru", "Online-G"): 29.643884909609053,
    ("sah-ru", "Lan-Bridge"): 7.092932464412346,
    ("ru-sah", "Online-G"): 14.683990058776502,
}
#: Recorded, not matched: the official table gives ru-sah Lan-Bridge 0.016222263680599272;
#: the output file in txt/system-outputs scores 15.27 with sacrebleu 2.6.0 and with
#: bleu_impl (docs/corpus-report.md: the table was computed on a different file).
WMT22_MIRROR = Path("/work/.mirror/wmt-conference+wmt22-news-systems/repo")


def test_the_wmt22_smallest_pairs_reproduce_the_official_bleu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real task's files, read from a clone of the repository when there is one."""
    import subprocess

    if not (WMT22_MIRROR / "HEAD").exists():
        pytest.skip(f"no clone of wmt-conference/wmt22-news-systems at {WMT22_MIRROR}")
    task = tmp_path / "wmt22"
    for pair, tgt in (("sah-ru", "ru"), ("ru-sah", "sah")):

        def show(path: str) -> str:
            return subprocess.run(
                ["git", "-C", str(WMT22_MIRROR), "show", f"HEAD:txt/{path}"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout

        ref = show(f"references/generaltest2022.{pair}.ref.A.{tgt}")
        systems = {
            s: show(f"system-outputs/generaltest2022.{pair}.hyp.{s}.{tgt}")
            for s in ("Online-G", "Lan-Bridge")
        }
        _lay_out(task, pair, {"A": ref}, systems)
    argv = ["compare", "-q", "--pairs", str(task), "--output", str(tmp_path / "logs")]
    impls = ["--impl", "bleu_impl:sacrebleu", "--impl", "sacrebleu"]
    assert main([*argv, *impls, "--format", "json"]) == 0
    capsys.readouterr()
    for (pair, system), official in WMT22_OFFICIAL.items():
        scores = read_log(tmp_path / "logs" / f"{pair}.jsonl").scores()
        for impl in ("bleu_impl:sacrebleu", "sacrebleu"):
            (name,) = [s for s in scores[impl] if s in system]
            assert scores[impl][name] == pytest.approx(official, abs=1e-9), (pair, system, impl)
    lan_bridge = read_log(tmp_path / "logs" / "ru-sah.jsonl").scores()["sacrebleu"]
    assert [round(v, 2) for s, v in lan_bridge.items() if s in "Lan-Bridge"] == [15.27]
