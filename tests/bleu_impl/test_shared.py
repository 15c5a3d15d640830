"""SharedCounts (tokens per line and n-gram matches per corpus, remembered across configs)
gives exactly the statistics and tables of the usual path, for every profile, on systems
that share their references, with a budget small enough to forget everything between
calls; what it does not take (token sequences, invalid input, reference counts a config
rejects) is counted the usual way, errors included."""

from __future__ import annotations

import random
from functools import partial

import pytest

from bleu_impl import (
    PROFILES,
    BleuError,
    corpus_bleu,
    corpus_stats,
    get_profile,
    make_config,
    segment_table,
)
from bleu_impl.bulk import SharedCounts
from bleu_impl.fast.lines import LINE_BYTES, POINTER_BYTES, TUPLE_BYTES

from .randomcorpus import WORDS, random_corpus, random_line


def _systems(seed: int, systems: int = 3, refs: int = 2) -> tuple[list[list[str]], list[list[str]]]:
    """Several systems' outputs on the same references (some lines repeated)."""
    rng = random.Random(seed)
    references = [[random_line(rng, WORDS) for _ in range(refs)] for _ in range(25)]
    outputs = [
        [rs[0] if rng.random() < 0.2 else random_line(rng, WORDS) for rs in references]
        for _ in range(systems)
    ]
    return outputs, references


def _outcome(compute):
    try:
        return compute()
    except BleuError as exc:
        return f"{type(exc).__name__}: {exc}"


def _configs():
    for name in PROFILES:
        for knobs in ({}, {"max_order": 2}, {"ref_length": "average"}):
            try:
                yield name, get_profile(name).resolve(knobs, "corpus")
            except BleuError:
                continue


CONFIGS = list(_configs())


def _same(store: SharedCounts, hyps, refs, config) -> bool:
    """Assert that the store's answers equal the usual path's; True when it took the input."""
    expected = _outcome(partial(corpus_stats, hyps, refs, config))
    got = _outcome(partial(store.corpus_stats, hyps, refs, config))
    assert got == expected
    if not isinstance(got, str):
        assert type(got.ref_len) is type(expected.ref_len)  # type: ignore[union-attr]
        assert [type(p.ref_len) for p in got.parts or ()] == [
            type(p.ref_len)
            for p in expected.parts or ()  # type: ignore[union-attr]
        ]
    usual = _outcome(partial(_table, segment_table, hyps, refs, config))
    assert _outcome(partial(_table, store.segment_table, hyps, refs, config)) == usual
    return store.counted(hyps, refs, config) is not None


def _bytes(hyps, references) -> int:
    """What the store counts against its budget for remembering a corpus's lines."""
    lines = len(hyps) + sum(map(len, references))
    chars = sum(map(len, hyps)) + sum(len(r) for refs in references for r in refs)
    return (LINE_BYTES + TUPLE_BYTES) * lines + POINTER_BYTES * chars


@pytest.mark.parametrize("memory", ["ample", "forgetting", "streamed", "tiny"])
@pytest.mark.parametrize(("profile", "config"), CONFIGS)
def test_every_profile_on_systems_sharing_references(memory, profile, config) -> None:
    corpora = [_systems(seed) for seed in range(2)]
    largest = max(_bytes(h, refs) for outputs, refs in corpora for h in outputs)
    smallest = min(_bytes(h, refs) for outputs, refs in corpora for h in outputs)
    budget = {"ample": 10**9, "forgetting": 2 * largest + 1, "streamed": 2 * smallest - 1}
    store = SharedCounts(budget.get(memory, 40))  # streamed: no line remembered, counts are;
    # tiny: the counts of one corpus kept at a time
    taken = 0
    for outputs, references in corpora:
        for hyps in outputs:
            taken += _same(store, hyps, references, config)
            taken += _same(store, hyps, references, config)  # remembered
    # two references: 'single' refuses them; references cut by ref_scope (lm-eval's fewest,
    # old sacrebleu's non-empty) are left to the usual path, on the cut input
    declined = config.ref_length == "single" or config.ref_scope in ("fewest", "non-empty")
    assert taken == (0 if declined else 12)


def test_a_corpus_of_more_than_half_the_budget_is_counted_a_chunk_at_a_time() -> None:
    outputs, references = _systems(2)
    store = SharedCounts(2 * _bytes(outputs[0], references) - 1)
    for profile in ("sacrebleu", "fast-bleu", "torchtext", "ignite"):
        config = get_profile(profile).resolve({}, "corpus")
        assert _same(store, outputs[0], references, config)
        shared = store.corpus_bleu(outputs[0], references, profile=profile)
        assert shared == corpus_bleu(outputs[0], references, profile=profile)
    last = make_config({**get_profile("nltk").resolve({}).as_dict(), "smoothing": "nltk-method5"})
    assert store.counted(outputs[0], references, last) is None  # every segment's own tokens


NLTK_LAST = [
    make_config({**get_profile("nltk").resolve({}).as_dict(), **knobs})
    for knobs in (
        {"smoothing": "nltk-method5"},
        {"smoothing": "nltk-method7", "aggregation": "macro"},
        {"smoothing": "nltk-method6", "ref_scope": "corpus", "max_order": 3},
    )
]


@pytest.mark.parametrize("config", NLTK_LAST)
def test_last_segment_data(config) -> None:
    store = SharedCounts()
    outputs, references = _systems(7, refs=3)
    for hyps in outputs:
        assert _same(store, hyps, references, config)


def test_settings_between_profiles_share_counts() -> None:
    """Knob by knob from sacrebleu to fast-bleu: every intermediate setting."""
    store = SharedCounts()
    start = get_profile("sacrebleu").resolve({}, "corpus").as_dict()
    end = get_profile("fast-bleu").resolve({}, "corpus").as_dict()
    outputs, references = _systems(3)
    values = dict(start)
    for knob, value in end.items():
        values[knob] = value
        try:
            config = make_config(values)
        except BleuError:
            continue
        for hyps in outputs:
            assert _same(store, hyps, references, config)


def test_declined_inputs_are_counted_the_usual_way() -> None:
    store = SharedCounts()
    config = make_config({"tokenize": "13a"})
    hyps, refs = random_corpus(3)
    declined = [
        ([h.split() for h in hyps], refs),  # token sequences
        (hyps, [[r.split() for r in rs] for rs in refs]),
        (hyps[:-1], refs),  # lengths differ
        (iter(hyps), refs),  # not a list
        ([*hyps[:-1], None], refs),
        (hyps, [*refs[:-1], []]),  # a segment without references (missing_refs=error)
        ([], []),
    ]
    for h, r in declined:
        assert store.counted(h, r, config) is None
    assert store.counted(hyps, refs, make_config({"ref_length": "single"})) is None


BAD_INPUTS = [
    (["a", "b"], [["a"]]),
    (["a", None], [["a"], ["b"]]),
    (["a", "b"], [["a"], [["b", 3]]]),
    (["a", "b", "c"], [["a"], [], ["c"]]),
    (["a b", "b"], [["a", "a b"], ["b", "c"]]),
    ([["a b", "c"], "b"], [[["a", "b c"]], ["b"]]),
]


@pytest.mark.parametrize(("hyps", "refs"), BAD_INPUTS)
@pytest.mark.parametrize(
    "profile", ["sacrebleu", "tensor2tensor", "fast-bleu", "torchtext", "ignite", "multi-bleu"]
)
def test_scores_and_errors_through_the_store_equal_the_usual_ones(hyps, refs, profile) -> None:
    config = get_profile(profile).resolve({}, "corpus")
    expected = _outcome(partial(corpus_bleu, hyps, refs, profile=profile))
    expected_table = _outcome(partial(_table, segment_table, hyps, refs, config))
    store = SharedCounts()
    assert _outcome(partial(store.corpus_bleu, hyps, refs, profile=profile)) == expected
    assert _outcome(partial(_table, store.segment_table, hyps, refs, config)) == expected_table


def _table(tabulate, hyps, refs, config) -> tuple:
    table = tabulate(hyps, refs, config)
    return table.matrix().tolist(), table.ref_den, table.lasts


@pytest.mark.parametrize("memory", ["ample", "streamed"])
def test_corpora_of_several_chunks(memory) -> None:
    """More than CHUNK_SENTENCES sentences, references per segment varying."""
    hyps, refs = random_corpus(31, segments=1700, max_refs=3)
    store = SharedCounts(10**9 if memory == "ample" else 2 * _bytes(hyps, refs) - 1)
    for profile in ("sacrebleu", "multi-bleu", "fast-bleu", "codexglue"):
        assert _same(store, hyps, refs, get_profile(profile).resolve({}, "corpus"))
