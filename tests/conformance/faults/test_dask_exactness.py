"""Dask equals one process on every profile, or refuses the profile by name: a shard
scored against its own references only (fast-bleu pools every reference of the corpus) gave
0.0 instead of 0.7812 on a two-line corpus. Shards given as lists, and as byte ranges of
files that the workers read themselves."""

from __future__ import annotations

from functools import partial

import pytest

import bleu_impl
from bleu_impl import KnobError, corpus_stats, get_profile, score_stats

from ...bleu_impl.randomcorpus import random_corpus

dask = pytest.importorskip("dask")
db = pytest.importorskip("dask.bag")
from bleu_impl.dask_bag import (  # noqa: E402
    bag_stats,
    file_shards,
    shards,
    unshardable,
)


@pytest.fixture(scope="module")
def corpora() -> list[tuple[list[str], list[list[str]]]]:
    """One reference per segment (every profile takes it), then three (a segment with fewer
    gets empty ones, as a line of a reference file can be empty)."""
    hyps, refs = random_corpus(8, segments=120, max_refs=3)
    return [
        random_corpus(7, segments=120, max_refs=1),
        (hyps, [[*r, *[""] * (3 - len(r))] for r in refs]),
    ]


def _on_dask(hyps, refs, config):
    bag = db.from_sequence(list(shards(hyps, refs, size=25)), npartitions=4)
    with dask.config.set(scheduler="synchronous"):
        return bag_stats(bag, config)


def _written(folder, hyps, refs) -> tuple[str, list[str]]:
    """The corpus as files: one line per segment, reference k of every segment in file k."""
    paths = [str(folder / f"{k}.txt") for k in range(1 + len(refs[0]))]
    for path, column in zip(paths, [hyps, *zip(*refs)]):
        with open(path, "w", encoding="utf-8", newline="") as stream:
            stream.write("".join(line + "\n" for line in column))
    return paths[0], paths[1:]


def _files_stats(hyp_path, ref_paths, config, parts):
    pieces = file_shards(hyp_path, ref_paths, parts)
    return bag_stats(db.from_sequence(pieces, npartitions=len(pieces)), config)


def _from_files(folder, hyps, refs, config):
    hyp_path, ref_paths = _written(folder, hyps, refs)
    with dask.config.set(scheduler="synchronous"):
        return _files_stats(hyp_path, ref_paths, config, parts=5)


@pytest.mark.parametrize("on_dask", [_on_dask, _from_files], ids=["lists", "files"])
@pytest.mark.parametrize("profile", sorted(bleu_impl.PROFILES))
def test_dask_equals_one_process_or_refuses(corpora, profile, on_dask, tmp_path):
    if on_dask is _from_files:
        on_dask = partial(_from_files, tmp_path)
    config = get_profile(profile).resolve({}, "corpus")
    for hyps, refs in corpora:
        try:
            one = corpus_stats(hyps, refs, config)
        except (bleu_impl.InputError, bleu_impl.EmulatedFailure):  # e.g. one reference only,
            continue  # or only empty ones (sacrebleu 1.5-2.1 fail): not this corpus
        if unshardable(config) is not None:
            with pytest.raises(KnobError, match="cannot shard these statistics over Dask"):
                on_dask(hyps, refs, config)
            continue
        many = on_dask(hyps, refs, config)
        assert many == one
        assert score_stats(many, config=config).score == score_stats(one, config=config).score


def test_fast_bleu_is_refused_not_scored_per_shard():
    config = get_profile("fast-bleu").resolve({}, "corpus")
    hyps = ["the cat sat on the mat", "a dog ran in the park"]
    refs = [["a dog ran in the park"], ["the cat sat on the mat"]]
    with pytest.raises(KnobError, match="ref_scope='corpus'"):
        _on_dask(hyps, refs, config)


def test_file_shards_cover_every_line_once_in_order(tmp_path):
    hyps = [f"h{i} é" for i in range(1000)]
    refs = [[f"r{i}", ""] for i in range(1000)]
    hyp_path, ref_paths = _written(tmp_path, hyps, refs)
    with open(hyp_path, "rb+") as stream:  # the last line without its line end
        stream.truncate(stream.seek(-1, 2))
    pieces = file_shards(hyp_path, ref_paths, parts=7)
    assert [(p.start, p.stop) for p in pieces][:2] == [(0, 142), (142, 285)]
    read = [p.read() for p in pieces]
    assert [r[0] for r in read] == list(range(7))
    assert [h for r in read for h in r[2]] == hyps
    assert [x for r in read for x in r[3]] == refs
    assert file_shards(hyp_path, ref_paths, parts=5000)[-1].stop == 1000  # a line each


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"a\nb\n", r"line count mismatch: .*1\.txt has 2 lines but .*0\.txt has 3"),
        (b"a\nb\xff\nc", r"1\.txt:2: invalid UTF-8"),
        (b"a\nb\nc\0", r"1\.txt:3: NUL byte"),
    ],
)
def test_bad_files_are_named_with_their_line(tmp_path, content, message):
    hyp_path, (ref_path,) = _written(tmp_path, ["x", "y", "z"], [["x"], ["y"], ["z"]])
    with open(ref_path, "wb") as stream:
        stream.write(content)
    config = get_profile("sacrebleu").resolve({}, "corpus")
    with (
        pytest.raises(bleu_impl.InputError, match=message),
        dask.config.set(scheduler="synchronous"),
    ):
        _files_stats(hyp_path, [ref_path], config, parts=3)


def test_compressed_files_are_refused(tmp_path):
    with pytest.raises(bleu_impl.InputError, match="decompress it first"):
        file_shards(str(tmp_path / "hyp.gz"), [])
