"""Dask on a 2-worker ``LocalCluster`` against one process, on generated corpus files.

    python -m bench.dask_files --segments 1000000 --tokenize none 13a

Each measurement runs in a fresh interpreter: ``one`` streams the files through
``corpus_stats`` in one process (as ``score`` does); ``files`` starts the cluster (timed
apart) and runs :func:`bleu_impl.dask_bag.file_shards` in a bag, whose workers read their own byte
ranges; ``lists`` is the older way, the corpus read on the client and sent through the task
graph as :func:`~bleu_impl.dask_bag.shards`. Printed per mode: wall seconds, the client's
peak RSS (``ru_maxrss``: the workers are other processes) and the statistics, which must be
equal.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["main", "measure", "write_corpus"]

MODES = ("one", "files", "lists")


def write_corpus(folder: Path, segments: int, detok: bool) -> tuple[str, str]:
    """Write (once) ``hyp.txt`` and ``ref0.txt`` of bench's generated corpus."""
    from .corpus import stream

    paths = folder / "hyp.txt", folder / "ref0.txt"
    if not (folder / "done").exists():
        folder.mkdir(parents=True, exist_ok=True)
        with paths[0].open("w", encoding="utf-8") as hyp, paths[1].open("w") as ref:
            for line, (first, *_) in stream(segments, 1, detok=detok):
                hyp.write(line + "\n")
                ref.write(first + "\n")
        (folder / "done").write_text("ok")
    return str(paths[0]), str(paths[1])


def measure(mode: str, hyp: str, ref: str, tokenize: str, parts: int) -> dict[str, Any]:
    """One measurement of ``mode`` in this process."""
    from bleu_impl import corpus_stats, get_profile

    config = get_profile("sacrebleu").resolve({"tokenize": tokenize}, "corpus")
    result: dict[str, Any] = {"mode": mode}
    start = time.perf_counter()
    if mode == "one":
        with open(hyp, encoding="utf-8") as hyps, open(ref, encoding="utf-8") as refs:
            stats = corpus_stats(
                (h.rstrip("\n") for h in hyps), ([r.rstrip("\n")] for r in refs), config
            )
    else:
        import dask.bag as db
        from distributed import Client, LocalCluster

        from bleu_impl.dask_bag import bag_stats, file_shards, shards

        with (
            LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
            Client(cluster),
        ):
            result["cluster_start_s"] = round(time.perf_counter() - start, 2)
            start = time.perf_counter()
            if mode == "files":
                pieces = file_shards(hyp, [ref], parts)
                stats = bag_stats(db.from_sequence(pieces, npartitions=len(pieces)), config)
            else:
                with open(hyp, encoding="utf-8") as hyps, open(ref, encoding="utf-8") as refs:
                    lines = ((h.rstrip("\n") for h in hyps), ([r.rstrip("\n")] for r in refs))
                    bag = db.from_sequence(list(shards(*lines)), npartitions=parts)
                stats = bag_stats(bag, config)
    result["wall_s"] = round(time.perf_counter() - start, 2)
    result["client_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    result["stats"] = [list(stats.counts), list(stats.totals), stats.hyp_len, str(stats.ref_len)]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dask_files", description=__doc__)
    parser.add_argument("--segments", type=int, default=1_000_000)
    parser.add_argument("--tokenize", nargs="+", default=["none", "13a"])
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--parts", type=int, default=16)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/bleu-bench-dask"))
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)  # mode hyp ref tokenize
    args = parser.parse_args(argv)
    if args.one:
        mode, hyp, ref, tokenize = args.one
        print(json.dumps(measure(mode, hyp, ref, tokenize, args.parts)))
        return 0
    for tokenize in args.tokenize:
        kind = "pretok" if tokenize == "none" else "detok"
        folder = args.cache / f"n{args.segments}-{kind}"
        hyp, ref = write_corpus(folder, args.segments, detok=kind == "detok")
        stats = set()
        for mode in args.modes:
            command = [sys.executable, "-m", "bench.dask_files", "--parts", str(args.parts)]
            out = subprocess.run(
                [*command, "--one", mode, hyp, ref, tokenize],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            result = json.loads(out.splitlines()[-1])
            stats.add(json.dumps(result.pop("stats")))
            print(f"{args.segments} x 1, tokenize={tokenize}:", json.dumps(result), flush=True)
        print("statistics equal across modes:", len(stats) == 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
