"""engine.batch: compare --jobs N starts no more worker processes than it has work for."""

from __future__ import annotations

import pytest

from conformance.cases import load_fixtures
from conformance.engine.compare import batch

from ...helpers import MINI


def test_a_pool_is_never_larger_than_its_chunks_of_cases(monkeypatch) -> None:
    sizes: list[int] = []
    real = batch.ProcessPoolExecutor

    def recording(max_workers: int, **kwargs):
        sizes.append(max_workers)
        return real(1, **kwargs)

    monkeypatch.setattr(batch, "ProcessPoolExecutor", recording)
    loaded = load_fixtures([MINI])
    specs = ["bleu_impl", "bleu_impl:nltk"]
    records = list(batch.compare_cases(specs, loaded.cases, loaded.keys, jobs=200))
    assert len(records) == len(loaded.cases) == 4
    assert sizes == [1]  # 4 cases are one chunk: one process, not 200


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["compare", "--jobs", "257"], "--jobs: must be at most 256, got 257"),
        (["score", "-i", "x", "-r", "y", "--jobs", "100000"], "--jobs: must be at most 256"),
        (["compare", "--generate", "100001"], "--generate: must be at most 100,000"),
        (["identify", "--impl", "nltk", "--generate", "10**20"], "expected an integer"),
        (
            ["identify", "--impl", "nltk", "--generate", "99999999999999999999"],
            "--generate: must be at most 100,000",
        ),
    ],
)
def test_counts_beyond_what_a_machine_can_hold_are_usage_errors(capsys, argv, says) -> None:
    from conformance.cli import build_parser

    parser, _ = build_parser()  # parsed only: were it accepted, nothing is started
    with pytest.raises(SystemExit) as exited:
        parser.parse_args(argv)
    assert exited.value.code == 2
    assert says in capsys.readouterr().err
