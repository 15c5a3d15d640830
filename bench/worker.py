"""One measurement in a fresh process: ``python -m bench.worker [JSON]`` (the spec as an argument
or on stdin) prints a JSON result.

Timing: ``warmup`` untimed calls, then ``reps`` timed calls (``time.perf_counter``, or
``time.process_time`` with ``"clock": "cpu"``); whatever the clock, also the CPU seconds on
the critical path (``cpu_path``): this process's, plus the busiest worker's for a Dask row,
which waiting for a core on a loaded machine does not inflate.
Memory: the peak resident set size of this process while the calls run, read from
``VmHWM`` after resetting it through ``/proc/self/clear_refs`` once the corpus is loaded
(so the corpus itself is included, its generation is not); ``baseline`` is the resident
size just before the calls. Without ``clear_refs`` the lifetime peak (``ru_maxrss``) is
reported and marked so.
"""

from __future__ import annotations

import gc
import importlib
import json
import resource
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .libs import ADAPTERS, CHECKS, DASK_FILES, DASK_PARTS, STREAMED, Run


def read_corpus(path: str, refs: int) -> tuple[list[str], list[list[str]]]:
    """Load ``hyp.txt`` and ``ref0.txt``.. from the corpus directory ``path``."""
    folder = Path(path)
    hyps = (folder / "hyp.txt").read_text(encoding="utf-8").split("\n")[:-1]
    columns = [
        (folder / f"ref{k}.txt").read_text(encoding="utf-8").split("\n")[:-1] for k in range(refs)
    ]
    return hyps, [list(r) for r in zip(*columns)]


def stream_corpus(path: str, refs: int) -> tuple[Any, Any]:
    """Line iterators over the corpus files (nothing is held in memory)."""
    folder = Path(path)
    hyps = (line.rstrip("\n") for line in open(folder / "hyp.txt", encoding="utf-8"))  # noqa: SIM115
    files = [open(folder / f"ref{k}.txt", encoding="utf-8") for k in range(refs)]  # noqa: SIM115
    return hyps, ([line.rstrip("\n") for line in lines] for lines in zip(*files))


def _status_kb(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


@dataclass(frozen=True)
class Prepared:
    """The call to time, the cumulative CPU seconds of each worker process it uses (none:
    the work is in this process) and a sentence about what was not timed."""

    run: Run
    workers_cpu: Callable[[], list[float]] = list
    note: str = ""


def _streamed(spec: dict[str, Any]) -> Run:
    """bleu_impl reading the corpus files line by line inside the timed call."""
    from bleu_impl import corpus_bleu

    def run() -> float:
        hyps, refs = stream_corpus(spec["corpus"], spec["refs"])
        return corpus_bleu(hyps, refs, profile="sacrebleu", tokenize=spec["tokenize"]).score

    return run


def _cpu_s() -> float:
    """This process's CPU time (user + system), as a worker reports it to the client."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _dask_files(spec: dict[str, Any]) -> Prepared:
    """bleu_impl on a 2-worker ``LocalCluster`` (1 thread each), started before the clock as
    an existing cluster would be; the workers' imports are timed apart and stated. The timed
    call cuts the files into byte ranges (``file_shards``: a scan on the client) that the
    workers read and count; only each shard's ``BleuStats`` comes back."""
    import dask.bag as db
    from distributed import Client, LocalCluster

    from bleu_impl import get_profile, score_stats
    from bleu_impl.dask_bag import bag_stats, file_shards

    started = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)  # the default scheduler of the bag from here on
    up = time.perf_counter()
    client.run(importlib.import_module, "bleu_impl.fast")  # numpy and the compiled kernel
    imported = time.perf_counter()
    note = (
        f"cluster start-up {up - started:.2f} s and the workers' imports {imported - up:.2f} s "
        "wall, before the clock"
    )
    folder = Path(spec["corpus"])
    refs = [str(folder / f"ref{k}.txt") for k in range(spec["refs"])]
    config = get_profile("sacrebleu").resolve({"tokenize": spec["tokenize"]}, "corpus")

    def run() -> float:
        pieces = file_shards(str(folder / "hyp.txt"), refs, parts=DASK_PARTS)
        stats = bag_stats(db.from_sequence(pieces, npartitions=len(pieces)), config)
        return score_stats(stats, profile="sacrebleu", config=config).score

    return Prepared(run, lambda: list(client.run(_cpu_s).values()), note)


def prepared_run(spec: dict[str, Any]) -> Prepared:
    """The call to time for ``spec``, its corpus already loaded (not timed)."""
    if spec["lib"] == STREAMED:
        return Prepared(_streamed(spec))
    if spec["lib"] == DASK_FILES:
        return _dask_files(spec)
    adapter = next(a for a in ADAPTERS if a.task == spec["task"] and a.lib == spec["lib"])
    prepare = CHECKS[spec["check"]] if spec.get("check") else adapter.prepare
    assert prepare is not None, "the C floor is measured by bench.cfloor"
    return Prepared(prepare(*read_corpus(spec["corpus"], spec["refs"])))


def measure(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one (task, lib) measurement described by ``spec`` (the C floor: its binary)."""
    if spec.get("binary") and not spec.get("check"):
        from .cfloor import measure_floor

        floor = measure_floor(spec)
        gap = distance(floor["score"], spec["want"]) if spec.get("want") is not None else 0.0
        if gap > spec["tolerance"]:
            return {"mismatch": gap, "first_time": floor["times"][0], "score": floor["score"]}
        return floor
    prepared = prepared_run(spec)
    gc.collect()
    exact_peak = _reset_peak()
    baseline = _status_kb("VmRSS")
    times: list[float] = []
    cpu_path: list[float] = []
    result = None
    for i in range(spec["warmup"] + spec["reps"]):
        before = prepared.workers_cpu()
        wall, cpu = time.perf_counter(), time.process_time()
        result = prepared.run()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        after = prepared.workers_cpu()
        elapsed = cpu if spec.get("clock") == "cpu" else wall
        if i == 0 and spec.get("want") is not None:
            gap = distance(result, spec["want"])
            if gap > spec["tolerance"]:  # wrong score: no point in timing it further
                return {"mismatch": gap, "first_time": elapsed, "score": result}
        if i >= spec["warmup"]:
            times.append(elapsed)
            cpu_path.append(cpu + max((b - a for a, b in zip(before, after)), default=0.0))
    peak = _status_kb("VmHWM") if exact_peak else None
    if peak is None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "times": times,
        "cpu_path": cpu_path,
        "note": prepared.note,
        "score": result,
        "peak_kb": peak,
        "baseline_kb": baseline,
        "peak_exact": exact_peak,
    }


def distance(a: Any, b: Any) -> float:
    """Absolute difference of two scores, or the largest one of two score lists."""
    if isinstance(a, list) or isinstance(b, list):
        if not isinstance(a, list) or not isinstance(b, list) or len(a) != len(b):
            return float("inf")
        return max((abs(x - y) for x, y in zip(a, b)), default=0.0)
    return abs(float(a) - float(b))


def main() -> None:
    spec = json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read())
    print(json.dumps(measure(spec)))


if __name__ == "__main__":
    main()
