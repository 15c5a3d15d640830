"""One corpus under many configs: tokens and clipped n-gram counts computed once, reused.

Attribution and identification score the same small input under hundreds of knob settings.
A config's statistics depend on the tokens (``lowercase``, ``line_prep``, ``tokenize``,
``split``), the clipped matches per order (tokens only: order n's count does not depend on
the highest order), and then cheap per-segment rules (``ref_length``, ``missing_refs``,
``denominator_floor``, the last segment's data). :class:`StatsCache` keeps the first two per
tokenization and applies the rules per config, giving exactly :func:`~bleu_impl.corpus_stats`
(the reference path's per-segment statistics, summed), errors included.

Tokenizations that give the same tokens (a lowercased text already in lower case, 13a and
intl on plain ASCII) share one set of counts, the statistics of equal tokens under equal
rules are built once, and equal statistics are one object. Macro aggregation keeps the
same per-segment statistics as parts. Joined n-grams (``ngram_join``) equal tuple n-grams
when no token holds a space (joining with spaces is then one-to-one), and a corpus-wide
reference pool (``ref_scope="corpus"``) of one segment is that segment's references, so
both use the same counts; otherwise (a token with a space, a pool of several segments)
``corpus_stats`` counts the cached tokens, given as token sequences.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, NamedTuple

from .errors import BleuError
from .inputs import Segment, cut_references, read_segments
from .knobs import KNOBS, STATS_KNOBS, Config, knobs_at
from .ngrams import finish_segment, needs_last
from .reflength import RefLength
from .stats import BleuStats
from .tokenizers import pipelines

__all__ = ["StatsCache"]

#: The knobs the tokens depend on (what :class:`~bleu_impl.tokenizers.Pipeline` reads).
_TOKEN_KNOBS = knobs_at("tokens")

#: Token knobs under which token sequences are taken as given: their defaults (whitespace
#: tokens, unchanged).
_AS_GIVEN = {knob.name: knob.default for knob in KNOBS if knob.name in _TOKEN_KNOBS}

#: Clipped counts are first computed up to this order (more when a config asks).
_FIRST_ORDERS = 5

#: Whether the statistics of a config (by :func:`_stats_key`) may come from the counts.
_COUNTABLE: dict[tuple[Any, ...], bool] = {}
_MAX_COUNTABLE = 4096

#: The plans of the configs seen last, by id (each entry keeps its config alive).
_PLANS: dict[int, tuple[Config, _Plan]] = {}
_MAX_PLANS = 4096


class _Tokenized:
    """The segments' tokens under one tokenization, and their clipped counts per order
    (``counts[i][n-1]``), up to the first segment whose tokens raise (``error``)."""

    def __init__(self, segments: Sequence[tuple[Segment, list[Segment]]], config: Config) -> None:
        hyp_pipeline, ref_pipeline = pipelines(config)
        line, generic = hyp_pipeline.line, hyp_pipeline.segment
        ref_line, ref_generic = ref_pipeline.line, ref_pipeline.segment
        self.tokens: list[tuple[Sequence[str], list[Sequence[str]]]] = []
        self.error: BleuError | None = None
        try:
            for hyp, refs in segments:  # references first, as the reference path reads them
                ref_tokens: list[Sequence[str]] = [
                    ref_line(r) if type(r) is str else ref_generic(r) for r in refs
                ]
                hyp_tokens: Sequence[str] = line(hyp) if type(hyp) is str else generic(hyp)
                self.tokens.append((hyp_tokens, ref_tokens))
        except BleuError as exc:
            self.error = exc
        self.orders = 0
        self.counts: list[tuple[int, ...]] = []
        self._spaced: bool | None = None

    @property
    def spaced(self) -> bool:
        """Whether a token holds a space (looked at once, when joined n-grams ask)."""
        if self._spaced is None:
            self._spaced = any(
                " " in token
                for hyp, refs in self.tokens
                for tokens in (hyp, *refs)
                for token in tokens
            )
        return self._spaced

    def content(self) -> tuple[Any, ...] | None:
        """The tokens as a key (None after an error: such tokenizations are not shared)."""
        if self.error is not None:
            return None
        return tuple((tuple(hyp), tuple(map(tuple, refs))) for hyp, refs in self.tokens)

    def clipped(self, order: int) -> list[tuple[int, ...]]:
        """Clipped matches of orders 1..``order`` (at least) per segment."""
        if order > self.orders:
            from .fast.sentence import clipped_counts  # numpy is imported on first use

            self.orders = max(order, _FIRST_ORDERS)
            self.counts = [
                tuple(clipped_counts(hyp, refs, self.orders)) for hyp, refs in self.tokens
            ]
        return self.counts


def _stats_key(config: Config) -> tuple[Any, ...]:
    """What the statistics depend on: ``STATS_KNOBS`` (and the config's type)."""
    return (type(config), *(getattr(config, k) for k in STATS_KNOBS))


def _rules_key(config: Config) -> tuple[Any, ...]:
    """What the statistics of given tokens and counts depend on (what ``finish_segment``
    reads): ``smoothing`` and ``smoothing_context`` only as whether the last segment's
    data are carried, ``denominator_floor`` only as whether each segment's is floored."""
    return (
        config.max_order,
        config.ref_length,
        config.missing_refs,
        config.denominator_floor == "per-segment",
        needs_last(config),
        config.aggregation,
    )


def _or_error(compute: Callable[[], BleuStats]) -> BleuStats | BleuError:
    try:
        return compute()
    except BleuError as exc:
        return exc


def _countable(config: Config, key: tuple[Any, ...]) -> bool:
    """Whether the statistics may come from per-segment clipped counts: every statistics
    knob is one the fast path counts, apart from the ones its per-segment counting declines
    (macro parts, joined n-grams and the reference pool are handled here). ``key``:
    :func:`_stats_key` of ``config``, under which the answer is remembered."""
    found = _COUNTABLE.get(key)
    if found is None:
        from .fast import supports_corpus  # numpy is imported on first use

        found = supports_corpus(config)
        if len(_COUNTABLE) >= _MAX_COUNTABLE:
            _COUNTABLE.clear()
        _COUNTABLE[key] = found
    return found


class _Plan(NamedTuple):
    """What a config's statistics depend on (worked out once per config object: a search
    asks one config of many corpora)."""

    stats: tuple[Any, ...]  # _stats_key
    countable: bool
    tokens: tuple[Any, ...]  # the token knobs
    rules: tuple[Any, ...]  # _rules_key


def _plan(config: Config) -> _Plan:
    found = _PLANS.get(id(config))
    if found is not None and found[0] is config:
        return found[1]
    key = _stats_key(config)
    tokens = tuple(getattr(config, k) for k in _TOKEN_KNOBS)
    plan = _Plan(key, _countable(config, key), tokens, _rules_key(config))
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    _PLANS[id(config)] = (config, plan)
    return plan


class StatsCache:
    """The statistics of one corpus under any number of configs (``stats(config)`` equals
    ``corpus_stats(hypotheses, references, config)``, raising the same errors), with the
    tokens and clipped n-gram counts of each tokenization computed once."""

    def __init__(self, hypotheses: Iterable[Segment], references: Iterable[Any]) -> None:
        self._hypotheses = hypotheses = list(hypotheses)
        self._references = references = list(references)
        self._segments: list[tuple[Segment, list[Segment]]] = []
        self._read_error: BleuError | None = None
        try:
            for segment in read_segments(hypotheses, references):
                self._segments.append(segment)
        except BleuError as exc:
            self._read_error = exc
        self._tokenized: dict[tuple[Any, ...], _Tokenized] = {}
        self._by_content: dict[tuple[Any, ...], _Tokenized] = {}
        self._stats: dict[tuple[Any, ...], BleuStats | BleuError] = {}
        self._by_rules: dict[tuple[Any, ...], BleuStats | BleuError] = {}
        self._by_value: dict[tuple[Any, ...], BleuStats] = {}
        self._cut: StatsCache | BleuError | None = None  # the input with ref_scope="non-empty"

    def stats(self, config: Config) -> BleuStats:
        """``corpus_stats`` of the corpus under ``config`` (remembered per value of what
        they depend on; an error is remembered and raised again)."""
        plan = _plan(config)
        found = self._stats.get(plan.stats)
        if found is None:
            found = self._stats[plan.stats] = self._compute(config, plan)
        if isinstance(found, BleuError):  # raised afresh: its traceback would grow per raise
            raise found.with_traceback(None)
        return found

    def _compute(self, config: Config, plan: _Plan) -> BleuStats | BleuError:
        if config.ref_scope == "non-empty":
            return self._non_empty(config)
        if not plan.countable:
            return self._uncounted(config)
        tokenized = self._tokens(config, plan.tokens)
        rules = (id(tokenized), *plan.rules)  # the tokenization is kept: ids hold
        if self._counted(tokenized, config):
            rules += ("segment", "none")
            compute = partial(self._summed, tokenized, config)
        elif tokenized.error is None and self._read_error is None:
            # a pool of several segments, or joined n-grams of tokens with spaces: the
            # reference path on the tokens, given as token sequences
            from .api import corpus_stats

            rules += (config.ref_scope, config.ngram_join)
            hyps, refs = [h for h, _ in tokenized.tokens], [r for _, r in tokenized.tokens]
            compute = partial(corpus_stats, hyps, refs, replace(config, **_AS_GIVEN))
        else:
            return self._uncounted(config)
        found = self._by_rules.get(rules)
        if found is None:
            found = self._by_rules[rules] = self._interned(_or_error(compute))
        return found

    def _interned(self, found: BleuStats | BleuError) -> BleuStats | BleuError:
        """The first statistics equal to ``found`` (one object for equal statistics, so
        what is remembered per statistics object serves them all). An int and an equal
        Fraction reference length are not the same statistics: they score differently."""
        if isinstance(found, BleuError):
            return found
        types = tuple(type(part.ref_len) for part in found.parts or ())
        return self._by_value.setdefault((found, type(found.ref_len), types), found)

    def _non_empty(self, config: Config) -> BleuStats | BleuError:
        """References cut by their text (an empty string, not a blank one: sacrebleu
        1.5.0-2.1.0), which neither the counts nor the tokens show: ``corpus_stats`` cuts
        them first, then counts each segment's own, so the statistics are those of the cut
        input with ``ref_scope="segment"`` (its own cache), or the cut's error."""
        if self._cut is None:
            try:
                self._cut = StatsCache(
                    *cut_references(self._hypotheses, self._references, "non-empty")
                )
            except BleuError as exc:
                self._cut = exc
        cut = self._cut
        if isinstance(cut, BleuError):
            return cut
        return self._interned(_or_error(partial(cut.stats, replace(config, ref_scope="segment"))))

    def _uncounted(self, config: Config) -> BleuStats | BleuError:
        """``corpus_stats`` of the input itself (or its error)."""
        from .api import corpus_stats

        return self._interned(
            _or_error(partial(corpus_stats, self._hypotheses, self._references, config))
        )

    def _counted(self, tokenized: _Tokenized, config: Config) -> bool:
        """Whether the per-segment counts of ``tokenized`` give the statistics: no token
        with a space under joined n-grams, and a reference pool only of one segment that
        has references (read and tokenized without error)."""
        if config.ngram_join != "none" and tokenized.spaced:
            return False
        if config.ref_scope == "segment":
            return True
        return (
            len(self._segments) == 1
            and self._read_error is None
            and tokenized.error is None
            and bool(tokenized.tokens[0][1])
        )

    def _tokens(self, config: Config, key: tuple[Any, ...]) -> _Tokenized:
        """The tokens under ``config`` (``key``: its token knobs): one object per distinct
        result."""
        tokenized = self._tokenized.get(key)
        if tokenized is None:
            tokenized = _Tokenized(self._segments, config)
            content = tokenized.content()
            if content is not None:
                tokenized = self._by_content.setdefault(content, tokenized)
            self._tokenized[key] = tokenized
        return tokenized

    def _summed(self, tokenized: _Tokenized, config: Config) -> BleuStats:
        """The statistics from the counts of ``tokenized`` (``corpus_stats``'s errors in
        its order: a segment's own, then the tokens', then reading the input)."""
        if config.aggregation == "macro":  # every segment kept as a part: summed by +
            return self._macro(tokenized, config)
        order = config.max_order
        counts, totals = [0] * order, [0] * order
        hyp_len, last = 0, None  # summed as BleuStats.__add__ sums them
        ref_len: RefLength = 0
        segments = tokenized.tokens
        for index, ((hyp, refs), clipped) in enumerate(zip(segments, tokenized.clipped(order))):
            one = finish_segment(hyp, refs, clipped[:order], config, index)
            counts = [a + b for a, b in zip(counts, one.counts)]
            totals = [a + b for a, b in zip(totals, one.totals)]
            hyp_len, ref_len = hyp_len + one.hyp_len, ref_len + one.ref_len
            last = one.last if one.last is not None else last
        self._raise_input_errors(tokenized)
        missing = sum(not refs for _, refs in segments)
        return BleuStats(
            tuple(counts), tuple(totals), hyp_len, ref_len, len(segments), last, missing
        )

    def _macro(self, tokenized: _Tokenized, config: Config) -> BleuStats:
        """The statistics with each segment's own as parts (``aggregation="macro"``)."""
        order = config.max_order
        total = BleuStats.zero(order)
        for index, ((hyp, refs), clipped) in enumerate(
            zip(tokenized.tokens, tokenized.clipped(order))
        ):
            total = total + finish_segment(hyp, refs, clipped[:order], config, index)
        self._raise_input_errors(tokenized)
        return total

    def _raise_input_errors(self, tokenized: _Tokenized) -> None:
        if tokenized.error is not None:
            raise tokenized.error.with_traceback(None)
        if self._read_error is not None:
            raise self._read_error.with_traceback(None)
