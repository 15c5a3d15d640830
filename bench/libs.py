"""What is measured: one adapter per (task, library), each returning BLEU on a 0-1 scale.

Every adapter gets the corpus in its library's natural input format, prepared before the
clock starts (``prepare``), and ``run`` is what is timed. Tasks:

* ``pretok``: corpus BLEU of pre-tokenized (space-joined) text, whitespace tokens;
* ``13a``: corpus BLEU of detokenized text with the 13a tokenizer;
* ``sentence``: sentence BLEU of every segment (13a, effective order), a list of scores:
  one call per segment (sacrebleu, bleu_impl's ``sentence_bleu``) or one call for all
  (bleu_impl's ``sentence_scores``);
* ``zh``, ``ja-mecab``: corpus BLEU of Chinese / Japanese text (written without spaces) with
  sacrebleu's tokenizer of that name; ``MeCab parse only`` is the morphological analysis
  alone (the same ``tagger.parse`` per line that both libraries make), where the time goes;
* ``floor``: ``str.split`` of every hypothesis and reference, the cost of merely reading
  tokens (no score).
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cfloor import C_FLOOR

Run = Callable[[], Any]

#: The measurement of bleu_impl reading the corpus files line by line (no adapter).
STREAMED = "bleu_impl (streamed from files)"

#: bleu_impl over Dask: a 2-worker ``LocalCluster``, each worker reading its own byte ranges
#: of the corpus files (``bleu_impl.dask_bag.file_shards``; no adapter).
DASK_FILES = "bleu_impl Dask 2-worker cluster (files)"

#: Shards of the Dask row: 4 per worker, few enough that the per-task overhead stays small
#: (at 100k x 4, 16 shards cost the workers ~10% more CPU than 4), enough that a worker
#: slowed by other work does not hold up the end alone.
DASK_PARTS = 8

#: Both rows that read the corpus files themselves, with their notes.
FILE_ROWS = {
    STREAMED: "wall clock (compared with the Dask row)",
    DASK_FILES: f"wall clock; {DASK_PARTS} byte ranges of the files, read by the workers "
    "themselves, only statistics sent back; peak RSS is the client's",
}

#: bleu_impl over 2 worker processes of its own (``--jobs 2``).
JOBS = "bleu_impl --jobs 2"

#: Rows timed in wall time whatever ``--clock`` says: their work is in other processes, or
#: they are compared with such a row.
WALL_CLOCK = (*FILE_ROWS, JOBS)

#: bleu_impl's batch sentence API (``sentence_scores``), beside the per-call loop.
SENTENCE_BATCH = "bleu_impl sentence_scores"


@dataclass(frozen=True)
class Adapter:
    """A library's way of doing a task: ``prepare(hyps, refs) -> run``, ``run() -> score``.

    ``check``: what the score must equal to 1e-12 before its time is reported: ``sacrebleu``
    (the same quantity) or the bleu_impl profile emulating the library's own semantics.
    """

    task: str
    lib: str
    prepare: Callable[[list[str], list[list[str]]], Run] | None  # None: the C floor
    check: str = "sacrebleu"
    note: str = ""
    modules: tuple[str, ...] = ()
    hint: str = ""
    max_size: int = 0  # > 0: larger corpora are not run, their time is estimated
    python: str = ""  # a package run in a venv of its own (bench/ownenv.py)


def version(dist: str) -> str | None:
    """The installed version of distribution ``dist`` (None when missing)."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def missing(adapter: Adapter) -> str | None:
    """Why the adapter cannot run here (a module fails to import), or None. A peer in a venv
    of its own is checked there (bench/ownenv.py)."""
    for module in () if adapter.python else adapter.modules:
        try:
            importlib.import_module(module)
        except Exception as exc:  # ImportError, or a broken binary wheel
            reason = f"`import {module}` failed ({type(exc).__name__})"
            return f"{reason}: {adapter.hint}" if adapter.hint else f"{reason}: {exc}"
    return None


def _columns(refs: list[list[str]]) -> list[list[str]]:
    return [list(col) for col in zip(*refs)]


# ----------------------------------------------------------------------------- bleu_impl


def _bleu_impl(tokenize: str, jobs: int = 1) -> Callable[..., Run]:
    def prepare(hyps: list[str], refs: list[list[str]]) -> Run:
        from bleu_impl import corpus_bleu, get_profile, score_stats
        from bleu_impl.bulk import parallel_corpus_stats

        if jobs == 1:
            return lambda: corpus_bleu(hyps, refs, profile="sacrebleu", tokenize=tokenize).score
        config = get_profile("sacrebleu").resolve({"tokenize": tokenize})

        def run() -> float:
            stats = parallel_corpus_stats(hyps, refs, config, jobs=jobs)
            return score_stats(stats, profile="sacrebleu", config=config).score

        return run

    return prepare


def _bleu_impl_sentence(hyps: list[str], refs: list[list[str]]) -> Run:
    from bleu_impl import sentence_bleu

    return lambda: [sentence_bleu(h, r, profile="sacrebleu").score for h, r in zip(hyps, refs)]


def _bleu_impl_sentences(hyps: list[str], refs: list[list[str]]) -> Run:
    from bleu_impl import sentence_scores

    return lambda: sentence_scores(hyps, refs, profile="sacrebleu")


# ----------------------------------------------------------------------------- sacrebleu


def _sacrebleu(tokenize: str) -> Callable[..., Run]:
    def prepare(hyps: list[str], refs: list[list[str]]) -> Run:
        from sacrebleu.metrics import BLEU

        streams = _columns(refs)

        def run() -> float:
            bleu = BLEU(tokenize=tokenize, force=True)
            score: float = bleu.corpus_score(hyps, streams).score
            return score / 100

        return run

    return prepare


def _sacrebleu_sentence(hyps: list[str], refs: list[list[str]]) -> Run:
    from sacrebleu.metrics import BLEU

    def run() -> list[float]:
        bleu = BLEU(effective_order=True)
        return [bleu.sentence_score(h, r).score / 100 for h, r in zip(hyps, refs)]

    return run


# ----------------------------------------------------------------------------- others


def _nltk(hyps: list[str], refs: list[list[str]]) -> Run:
    from nltk.translate.bleu_score import corpus_bleu

    def run() -> float:
        score: float = corpus_bleu(
            [[r.split() for r in rs] for rs in refs], [h.split() for h in hyps]
        )
        return score

    return run


def _bleuscore(hyps: list[str], refs: list[list[str]]) -> Run:
    import bleuscore

    return lambda: bleuscore.compute(refs, hyps, 4, False, "closest")["bleu"]


def _torchmetrics(sacre: bool) -> Callable[..., Run]:
    def prepare(hyps: list[str], refs: list[list[str]]) -> Run:
        if sacre:
            from torchmetrics.functional.text import sacre_bleu_score

            return lambda: float(sacre_bleu_score(hyps, refs, tokenize="13a"))
        from torchmetrics.functional.text import bleu_score

        return lambda: float(bleu_score(hyps, refs))

    return prepare


def _sacrebleu_mojo(tokenize: str) -> Callable[..., Run]:
    def prepare(hyps: list[str], refs: list[list[str]]) -> Run:
        import sacrebleu_mojo

        streams = _columns(refs)

        def run() -> float:
            score: float = sacrebleu_mojo.corpus_bleu(hyps, streams, tokenize=tokenize).score
            return score / 100

        return run

    return prepare


def _fast_bleu(hyps: list[str], refs: list[list[str]]) -> Run:
    import fast_bleu

    def run() -> float:
        pool = [r.split() for rs in refs for r in rs]
        bleu = fast_bleu.BLEU(pool, {"bleu": (0.25,) * 4}, smoothing_func=1)
        scores: list[float] = bleu.get_score([h.split() for h in hyps])["bleu"]
        return sum(scores) / len(scores)

    return run


def _split_floor(hyps: list[str], refs: list[list[str]]) -> Run:
    def run() -> None:
        for h in hyps:
            h.split()
        for rs in refs:
            for r in rs:
                r.split()

    return run


def _mecab_parse_only(hyps: list[str], refs: list[list[str]]) -> Run:
    import ipadic
    import MeCab

    tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")

    def run() -> None:
        parse = tagger.parse
        for h in hyps:
            parse(h.strip())
        for rs in refs:
            for r in rs:
                parse(r.strip())

    return run


def _split_kept(hyps: list[str], refs: list[list[str]]) -> Run:
    def run() -> None:
        tokens = ([h.split() for h in hyps], [[r.split() for r in rs] for rs in refs])
        del tokens

    return run


JA_MODULES = ("MeCab", "ipadic")
JA_HINT = "pip install 'bleu-conformance[ja]' (mecab-python3 + ipadic, as sacrebleu[ja])"
JOBS_NOTE = "2 worker processes (pool start-up included), wall clock; peak RSS: the parent's"
TORCH_NOTE = "float32 tensors internally; closest reference ties to the first listed"


def _ours_and_sacrebleu(
    task: str, tokenize: str, needs: tuple[str, ...] = (), hint: str = ""
) -> tuple[Adapter, ...]:
    """bleu_impl, bleu_impl ``--jobs 2`` and sacrebleu on a corpus task (``needs``: the
    tokenizer's modules)."""
    ours = ("numpy", *needs)
    return (
        Adapter(task, "bleu_impl", _bleu_impl(tokenize), modules=ours, hint=hint),
        Adapter(task, JOBS, _bleu_impl(tokenize, jobs=2), note=JOBS_NOTE, modules=ours, hint=hint),
        Adapter(task, "sacrebleu", _sacrebleu(tokenize), modules=("sacrebleu", *needs), hint=hint),
    )


ADAPTERS: tuple[Adapter, ...] = (
    Adapter(
        "floor",
        "str.split",
        _split_floor,
        check="",
        note="every line split, each token list dropped at once (no BLEU)",
    ),
    Adapter(
        "floor",
        "str.split (kept)",
        _split_kept,
        check="",
        note="token lists of the whole corpus built and held, as a BLEU needs them (no BLEU)",
    ),
    *_ours_and_sacrebleu("pretok", "none"),
    Adapter(
        "pretok",
        "nltk",
        _nltk,
        check="nltk",
        note="NLTK floors every segment's n-gram count at 1 (profile nltk); split included",
        modules=("nltk",),
        max_size=100_000,
    ),
    Adapter(
        "pretok",
        "bleuscore",
        _bleuscore,
        note="always applies its own 13a tokenizer",
        modules=("bleuscore",),
    ),
    Adapter(
        "pretok",
        "torchmetrics",
        _torchmetrics(sacre=False),
        check="torchmetrics",
        note=TORCH_NOTE,
        modules=("torch", "torchmetrics"),
        max_size=100_000,
    ),
    *(
        Adapter(
            task,
            "sacrebleu-mojo",
            _sacrebleu_mojo(tokenize),
            note="in its own Python 3.12 venv (no release for older Pythons)",
            python="sacrebleu-mojo",
        )
        for task, tokenize in (("pretok", "none"), ("13a", "13a"))
    ),
    Adapter(
        "pretok",
        "fast-bleu",
        _fast_bleu,
        check="fast-bleu",
        note="every hypothesis against the pool of all references (profile fast-bleu); split "
        "included",
        modules=("fast_bleu",),
        max_size=10_000,
    ),
    *(
        Adapter(task, C_FLOOR, None, note="statistics in C, scored here; files in memory")
        for task in ("pretok", "13a")
    ),
    *_ours_and_sacrebleu("13a", "13a"),
    Adapter("13a", "bleuscore", _bleuscore, modules=("bleuscore",)),
    Adapter(
        "13a",
        "torchmetrics",
        _torchmetrics(sacre=True),
        check="torchmetrics-sacrebleu",
        note=TORCH_NOTE,
        modules=("torch", "torchmetrics"),
        max_size=100_000,
    ),
    Adapter(
        "sentence",
        "bleu_impl",
        _bleu_impl_sentence,
        note="sentence_bleu, one call per segment",
        modules=("numpy",),
    ),
    Adapter(
        "sentence",
        SENTENCE_BATCH,
        _bleu_impl_sentences,
        note="all segments in one call",
        modules=("numpy",),
    ),
    Adapter("sentence", "sacrebleu", _sacrebleu_sentence, modules=("sacrebleu",)),
    *_ours_and_sacrebleu("zh", "zh"),
    Adapter(
        "ja-mecab",
        "MeCab parse only",
        _mecab_parse_only,
        check="",
        note="tagger.parse of every stripped line, as both libraries call it (no BLEU)",
        modules=JA_MODULES,
        hint=JA_HINT,
    ),
    *_ours_and_sacrebleu("ja-mecab", "ja-mecab", JA_MODULES, JA_HINT),
)


def _profile_check(profile: str) -> Callable[[list[str], list[list[str]]], Run]:
    """bleu_impl under ``profile``: the check of a library with its own semantics."""

    def prepare(hyps: list[str], refs: list[list[str]]) -> Run:
        from bleu_impl import corpus_bleu

        return lambda: corpus_bleu(hyps, refs, profile=profile).score

    return prepare


#: bleu_impl profiles that emulate a library's own semantics, for its correctness check.
CHECKS: dict[str, Callable[[list[str], list[list[str]]], Run]] = {
    name: _profile_check(name)
    for name in ("nltk", "torchmetrics", "torchmetrics-sacrebleu", "fast-bleu")
}


def _reference_path(tokenize: str) -> Callable[..., Run]:
    def prepare(hyps: list[str], refs: list[list[str]]) -> Run:
        from bleu_impl import BleuStats, get_profile, iter_segment_stats, score_stats

        config = get_profile("sacrebleu").resolve({"tokenize": tokenize})

        def run() -> float:
            stats = sum(iter_segment_stats(hyps, refs, config), BleuStats.zero(4))
            return score_stats(stats, profile="sacrebleu", config=config).score

        return run

    return prepare


#: bleu_impl's readable reference path (sacrebleu profile): the check when sacrebleu itself
#: cannot run (e.g. 1M x 4 references needs ~29 GB with sacrebleu).
CHECKS["reference-none"] = _reference_path("none")
CHECKS["reference-13a"] = _reference_path("13a")
CHECKS["reference-zh"] = _reference_path("zh")
CHECKS["reference-ja-mecab"] = _reference_path("ja-mecab")

#: Distributions whose versions the report lists.
DISTRIBUTIONS = (
    "numpy",
    "sacrebleu",
    "nltk",
    "bleuscore",
    "fast-bleu",
    "torch",
    "torchmetrics",
    "dask",
    "mecab-python3",
    "ipadic",
)
