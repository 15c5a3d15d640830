"""Streaming == in-memory == jobs=2 == Dask (local cluster): identical statistics and errors."""

from __future__ import annotations

import importlib.util

import pytest

from bleu_impl import BleuStats, InputError, fast, get_profile
from bleu_impl.api import corpus_stats, iter_segment_stats
from bleu_impl.inputs import read_chunks
from bleu_impl.knobs import make_config
from bleu_impl.parallel import parallel_corpus_stats

from .randomcorpus import random_corpus

HAS_DASK = importlib.util.find_spec("dask") is not None and (
    importlib.util.find_spec("distributed") is not None
)
CONFIGS = [
    make_config({}),
    make_config({"tokenize": "13a", "ref_length": "average", "lowercase": "unicode"}),
    get_profile("nltk").resolve({"smoothing": "nltk-method7"}),
]


@pytest.fixture(scope="module")
def corpus() -> tuple[list[str], list[list[str]]]:
    return random_corpus(42, segments=400, max_refs=3)


def _expected(hyps, refs, config) -> BleuStats:
    return sum(iter_segment_stats(hyps, refs, config), BleuStats.zero(config.max_order))


def _generators(hyps, refs):
    return (h for h in hyps), (r for r in refs)


@pytest.mark.parametrize("config", CONFIGS, ids=["default", "13a-average", "nltk-m7"])
def test_streaming_equals_in_memory_equals_jobs(corpus, config) -> None:
    hyps, refs = corpus
    expected = _expected(hyps, refs, config)
    assert corpus_stats(hyps, refs, config) == expected
    assert corpus_stats(*_generators(hyps, refs), config) == expected
    assert fast.corpus_stats(*_generators(hyps, refs), config, limit=50) == expected
    for jobs in (1, 2):
        got = parallel_corpus_stats(*_generators(hyps, refs), config, jobs=jobs, limit=60)
        assert got == expected


@pytest.mark.parametrize(
    ("hyps", "refs"),
    [
        (["a"] * 50 + [None], [["a"]] * 51),
        (["a"] * 50, [["a"]] * 49),
        (["a"] * 20 + [b"x"] + ["a"] * 20 + [None], [["a"]] * 42),
    ],
)
def test_jobs_errors_match_one_process(hyps, refs) -> None:
    config = make_config({})
    with pytest.raises(InputError) as expected:
        _expected(hyps, refs, config)
    with pytest.raises(InputError) as got:
        parallel_corpus_stats(iter(hyps), iter(refs), config, jobs=2, limit=10)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("jobs", [3, 100_000])
def test_jobs_start_no_more_processes_than_chunks(corpus, monkeypatch, jobs) -> None:
    """The pool forks all its workers up front: jobs=100000 on 400 segments was a fork bomb."""
    import concurrent.futures

    sizes: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    def recording(max_workers: int, **kwargs):
        sizes.append(max_workers)
        return real(max_workers=min(max_workers, 2), **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", recording)
    hyps, refs = corpus
    config = make_config({})
    expected = _expected(hyps, refs, config)
    chunks = len(list(read_chunks(hyps, refs, 150)))
    assert chunks > 3
    assert parallel_corpus_stats(iter(hyps), iter(refs), config, jobs=jobs, limit=150) == expected
    assert sizes == [min(jobs, chunks)]
    assert len(list(read_chunks(hyps, refs, 10**6))) == 1
    assert parallel_corpus_stats(iter(hyps), iter(refs), config, jobs=jobs, limit=10**6) == expected
    assert sizes == [min(jobs, chunks)]  # one chunk: counted here, no process started


@pytest.mark.skipif(
    not HAS_DASK, reason="dask[bag] and distributed are not installed (extra 'dask')"
)
@pytest.mark.parametrize("config", CONFIGS, ids=["default", "13a-average", "nltk-m7"])
def test_dask_bag_on_a_local_cluster_equals_one_process(corpus, config, tmp_path) -> None:
    import dask.bag as db
    from distributed import Client, LocalCluster

    from bleu_impl.dask_bag import bag_stats, file_shards, shards

    hyps, refs = corpus
    expected = _expected(hyps, refs, config)
    paths = [tmp_path / "hyp", tmp_path / "ref"]  # the workers read these themselves
    for path, lines in zip(paths, [hyps, [r[0] for r in refs]]):
        path.write_bytes("".join(line + "\n" for line in lines).encode())
    first_refs = _expected(hyps, [r[:1] for r in refs], config)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        bag = db.from_sequence(list(shards(hyps, refs, size=100)), npartitions=3)
        assert bag_stats(bag, config) == expected
        pieces = file_shards(str(paths[0]), [str(paths[1])], parts=3)
        assert bag_stats(db.from_sequence(pieces, npartitions=3), config) == first_refs
        assert client.run(lambda: 1)  # the work really ran on the cluster's workers
