"""``bleu-conformance compare``: the main job, end to end."""

from __future__ import annotations

import json

from conformance.cli import main


def _json(capsys, *args: str) -> dict:
    assert main(["compare", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_default_compares_bleu_impl_with_nltk_and_explains_every_row(capsys) -> None:
    data = _json(capsys)
    names = [impl["name"] for impl in data["implementations"]]
    assert names == ["bleu_impl:papineni2002", "nltk"]
    differing = [p for p in data["pairs"] if p["verdict"] == "differing"]
    assert differing, "the paper and NLTK disagree on short and zero-match cases"
    assert all(p["explained"] and p["cause"] != "unexplained" for p in differing)
    causes = {p["cause"] for p in differing}
    assert "zero_match: zero vs float-min" in causes
    summary = data["summary"][0]
    assert summary["compared"] + summary["skipped"] == len(data["pairs"])
    assert summary["unexplained"] == 0


def test_table_output_has_summary_and_discrepancies(capsys) -> None:
    assert main(["compare", "-k", "ship"]) == 0
    out = capsys.readouterr().out
    assert "Summary" in out and "Discrepancies" in out and "cause" in out
    assert "denominator_floor: none vs per-segment" in out


def test_replay_renders_the_same_report(tmp_path, capsys) -> None:
    log = tmp_path / "cmp.jsonl"
    assert main(["compare", "-k", "ship", "--format", "markdown", "--output", str(log)]) == 0
    first = capsys.readouterr().out
    assert main(["compare", "--replay", str(log), "--format", "markdown"]) == 0
    assert capsys.readouterr().out == first


def test_jobs_do_not_change_results(capsys) -> None:
    one = _json(capsys, "-k", "mteval", "--generate", "6", "--seed", "3", "--no-shrink")
    two = _json(
        capsys, "-k", "mteval", "--generate", "6", "--seed", "3", "--no-shrink", "--jobs", "2"
    )
    assert one["pairs"] == two["pairs"]


def test_generated_disagreements_are_shrunk(capsys) -> None:
    data = _json(capsys, "-k", "no-such-case", "--generate", "12", "--seed", "1")
    shrunk = [p for p in data["pairs"] if p.get("minimal")]
    assert shrunk
    for pair in shrunk:
        tokens = sum(len(h.split()) for h in pair["minimal"]["hypotheses"])
        assert tokens <= 6


def test_three_implementations_give_three_pairs(capsys) -> None:
    data = _json(
        capsys, "-k", "paper", "--impl", "bleu_impl:nltk", "--impl", "nltk", "--impl", "sacrebleu"
    )
    pairs = {(p["a"], p["b"]) for p in data["pairs"]}
    assert len(pairs) == 3
    ours_vs_nltk = [p for p in data["pairs"] if (p["a"], p["b"]) == ("bleu_impl:nltk", "nltk")]
    assert ours_vs_nltk and all(
        p["verdict"] in ("identical", "within", "skipped") for p in ours_vs_nltk
    )


def test_unknown_implementation_is_a_clear_error(capsys) -> None:
    assert main(["compare", "--impl", "no_such_impl"]) == 2
    assert "unknown implementation" in capsys.readouterr().err
