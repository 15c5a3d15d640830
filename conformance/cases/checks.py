"""Semantic checks of one case (after the schema): vocabularies, inputs, expectations.

Every rule appends a :class:`Problem`; nothing stops at the first. The internal-consistency
rule recomputes the score from an expectation's own counts/totals/lengths with the key's
bleu_impl profile (``score_stats``) -- bleu_impl checks the arithmetic here, it never
supplies an expected value.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from bleu_impl import BleuError, BleuStats, Config, EmulatedFailure, get_profile, score_stats
from bleu_impl.knobs import KNOB_NAMES, LAST_SEGMENT_METHODS, normalize_knob

from .implementations import Registry
from .model import (
    Case,
    Expectation,
    ExpectationKey,
    Problem,
    Segment,
    Tolerance,
    printed_half_unit,
)
from .yamlnodes import YamlDocument

#: Methods whose result may exceed 1 (NLTK method6's prior, method5/7 averaging); they also
#: need the last segment's raw n-grams, which the counts do not hold.
MAY_EXCEED_ONE = LAST_SEGMENT_METHODS
BP_TOLERANCE = Tolerance(abs=1e-15, rel=1e-12)
PRECISION_TOLERANCE = Tolerance(abs=1e-15, rel=1e-12)
FORBIDDEN_SOURCES = ("bleu_impl", "bleu-conformance", "bleu_conformance")
#: The widest tolerance a fixture may give: 1% of the scale (abs) or of the score (rel). A
#: wider one (let alone .inf) accepts what it should catch: it is a check that cannot fail.
MAX_TOLERANCE = 0.01
#: Integers beyond 2**53 cannot be represented as floats exactly; no BLEU count is that big.
MAX_INTEGER = 2**53

#: The path of an expectation in its case, ("expected", key): where its problems are.
_Where = tuple[str, ...]


def _bad_number(value: Any) -> str | None:
    """Why ``value`` (a YAML number) cannot be used, or None (also None for non-numbers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value!r} is not a finite number"
    if isinstance(value, int) and abs(value) > MAX_INTEGER:
        return f"{str(value)[:20]}... ({len(str(abs(value)))} digits) is out of range"
    return None


def _numbers(value: Any, path: tuple[str | int, ...]) -> Any:
    """Every (path, number) inside ``value`` (bounded: YAML nesting is already limited)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _numbers(item, (*path, index))
    else:
        yield path, value


def number_problems(raw: dict[str, Any], doc: YamlDocument, index: int, file: str) -> list[Problem]:
    """NaN, infinities and out-of-range integers in a case's config or expectations (before
    it is built: such a case is not used; NaN compares with nothing)."""
    found = []
    for part in ("config", "expected"):
        for path, value in _numbers(raw.get(part), (part,)):
            why = _bad_number(value)
            if why is not None:
                where = "/".join(str(p) for p in path)
                line = doc.line_of(("cases", index, *path))
                message = f"{where}: {why}"
                found.append(Problem(file, line, str(raw.get("id", "")), "non-finite", message))
    return found


class _Reporter:
    def __init__(self, case: Case, doc: YamlDocument | None, index: int) -> None:
        self.case, self.doc, self.index = case, doc, index
        self.problems: list[Problem] = []

    def __call__(self, rule: str, message: str, *path: str | int, line: int = 0) -> None:
        if not line:
            line = self.case.line
            if self.doc is not None:
                line = self.doc.line_of(("cases", self.index, *path))
        self.problems.append(Problem(self.case.file, line, self.case.id, rule, message))


def check_case(
    case: Case, registry: Registry, doc: YamlDocument | None = None, index: int = 0
) -> list[Problem]:
    """All problems of ``case`` (``doc``/``index`` locate lines inside the case)."""
    report = _Reporter(case, doc, index)
    _check_tags(case, registry, report)
    config_ok = _check_config(case, report)
    _check_input(case, report)
    _check_expected(case, registry, report, config_ok)
    return report.problems


def _check_tags(case: Case, registry: Registry, report: _Reporter) -> None:
    for i, tag in enumerate(case.tags):
        if tag not in registry.tags:
            report("unknown-tag", f"tag {tag!r} is not in fixtures/tags.yaml", "tags", i)


def _check_config(case: Case, report: _Reporter) -> bool:
    """Report unknown knobs and invalid values; True when every knob is valid."""
    ok = True
    for knob, value in case.config.items():
        if knob not in KNOB_NAMES:
            report("unknown-knob", f"unknown knob {knob!r} in config", "config", knob)
            ok = False
            continue
        try:
            canonical = normalize_knob(knob, value)
        except BleuError as exc:
            report("invalid-knob", str(exc), "config", knob)
            ok = False
            continue
        if isinstance(value, str) and not isinstance(canonical, str):
            # the command line's text is converted; a fixture writes the value itself
            message = f"{knob}: {value!r} is text; write the value itself ({canonical!r})"
            report("invalid-knob", message, "config", knob)
            ok = False
    return ok


def _is_empty(text: Any) -> bool:
    return len(text) == 0 if not isinstance(text, str) else text.strip() == ""


def _check_input(case: Case, report: _Reporter) -> None:
    segments = case.input.segments
    if not segments:
        report("input-empty", "input has no segments", "input", "segments")
        return
    if case.level == "sentence" and len(segments) != 1:
        report(
            "input-level",
            f"level 'sentence' needs exactly 1 segment, got {len(segments)}",
            "input",
            "segments",
        )
    for i, seg in enumerate(segments):
        _check_segment_texts(case, i, seg, report)
        _check_segment_references(case, i, seg, report)
    tags = set(case.tags)
    ref_counts = {sum(r is not None for r in seg.references) for seg in segments}
    if len(ref_counts) > 1 and not tags & {"ragged-references", "missing-reference"}:
        report(
            "input-ragged",
            f"segments have different numbers of references {sorted(ref_counts)} "
            "(tag the case 'ragged-references' if intended)",
            "input",
            "segments",
        )


def _check_segment_texts(case: Case, i: int, seg: Segment, report: _Reporter) -> None:
    """Every text has the case's input form; tokens hold no whitespace (unless the case is
    tagged 'token-whitespace': joined n-gram keys are under test)."""
    want_str = case.input.format == "raw"
    texts = [("hypothesis", seg.hypothesis)] + [
        (f"references[{j}]", r) for j, r in enumerate(seg.references) if r is not None
    ]
    for name, text in texts:
        if isinstance(text, str) != want_str:
            needs = "a string" if want_str else "a list of tokens"
            message = f"segment {i} {name}: format {case.input.format!r} needs {needs}"
            report("input-format", message, "input", "segments", i)
        elif (
            not want_str
            and "token-whitespace" not in case.tags
            and any(tok != "".join(tok.split()) for tok in text)
        ):
            message = f"segment {i} {name}: a token contains whitespace"
            report("input-token-whitespace", message, "input", "segments", i)


def _segment_reference_problems(seg: Segment) -> list[tuple[str, str, str]]:
    """(rule, problem, the tag that makes it intended) for a segment's texts."""
    present = [r for r in seg.references if r is not None]
    found = []
    if _is_empty(seg.hypothesis):
        found.append(("input-empty-text", "empty hypothesis", "empty-hypothesis"))
    if any(_is_empty(r) for r in present):
        found.append(("input-empty-text", "empty reference", "empty-reference"))
    if not present:
        found.append(("input-no-references", "no reference", "missing-reference"))
    if len(present) != len(seg.references):
        found.append(("input-missing-reference", "null reference", "missing-reference"))
    return found


def _check_segment_references(case: Case, i: int, seg: Segment, report: _Reporter) -> None:
    """Empty, missing and null texts must be intended: the case carries the tag for it."""
    for rule, problem, tag in _segment_reference_problems(seg):
        if tag not in case.tags:
            message = f"segment {i}: {problem} without the {tag!r} tag"
            report(rule, message, "input", "segments", i)


def _check_expected(case: Case, registry: Registry, report: _Reporter, config_ok: bool) -> None:
    observe = "observe-only" in case.tags
    if not case.expected and not observe:
        report("expected-empty", "no expectations: add some or tag the case 'observe-only'")
    if case.expected and observe:
        report("expected-observe-only", "tagged 'observe-only' but has expectations", "tags")
    for key, exp in case.expected.items():
        where = ("expected", key)
        impl = registry.keys.get(key)
        if impl is None:
            report(
                "unknown-implementation",
                f"expectation key {key!r} is not in fixtures/implementations.yaml",
                *where,
            )
            continue
        _check_expectation(case, impl, exp, report, where, config_ok)


def _has_numbers(exp: Expectation) -> bool:
    fields = (exp.score, exp.printed, exp.precisions, exp.counts, exp.totals, exp.bp)
    return any(v is not None for v in (*fields, exp.hyp_len, exp.ref_len))


def _check_expectation(
    case: Case,
    impl: ExpectationKey,
    exp: Expectation,
    report: _Reporter,
    where: _Where,
    config_ok: bool,
) -> None:
    source = f"{exp.source or ''} {case.source}".lower()
    if any(bad in source for bad in FORBIDDEN_SOURCES):
        report("provenance", "an expected value may not come from this project", *where)
    if exp.is_error and _has_numbers(exp):
        report("expectation-conflict", "'error' cannot be combined with numbers", *where)
        return
    if not exp.is_error and not _has_numbers(exp):
        report("expectation-empty", "give a score, printed value, counts or an error", *where)
        return
    if exp.score is not None and exp.tolerance == Tolerance():
        report("tolerance-missing", "a score needs a tolerance that fits its source", *where)
    _check_tolerance(exp, report, where)
    _check_score_range(case, exp, report, where)
    if exp.printed is not None:
        _check_printed(impl, exp, exp.printed, report, where)
    conflict = _config_conflicts(case, impl)
    if conflict:
        report("config-conflict", conflict, *where)
        return
    if config_ok:
        _check_consistency(case, impl, exp, report, where)


def _check_tolerance(exp: Expectation, report: _Reporter, where: _Where) -> None:
    tol = exp.tolerance
    if tol.abs >= MAX_TOLERANCE * exp.scale or tol.rel >= MAX_TOLERANCE:
        report(
            "tolerance-too-wide",
            f"tolerance {{abs: {tol.abs!r}, rel: {tol.rel!r}}} is at least 1% of the "
            f"{'scale' if tol.abs >= MAX_TOLERANCE * exp.scale else 'score'}: it would accept "
            "what it should catch",
            *where,
            "tolerance",
        )


def _check_score_range(case: Case, exp: Expectation, report: _Reporter, where: _Where) -> None:
    upper = exp.scale * (math.inf if case.config.get("smoothing") in MAY_EXCEED_ONE else 1)
    for name, value in (("score", exp.score), ("printed", exp.printed)):
        # float noise above the top is real output (sacrebleu prints 100.00000000000004)
        if value is not None and not 0 <= float(value) <= upper * (1 + 1e-9):
            report("score-range", f"{name} {value} outside [0, {exp.scale}]", *where)


def _check_printed(
    impl: ExpectationKey, exp: Expectation, printed: str, report: _Reporter, where: _Where
) -> None:
    """The printed text has the key's decimals and the score rounds to it."""
    half = printed_half_unit(printed)
    decimals = -int(math.log10(half * 2) - 0.5)
    if impl.printed_decimals is not None and decimals != impl.printed_decimals:
        report(
            "printed-format",
            f"printed {printed!r} has {decimals} decimals; {impl.key} prints "
            f"{impl.printed_decimals}",
            *where,
        )
    if exp.score is not None and abs(exp.score - float(printed)) > half * (1 + 1e-9):
        report(
            "printed-inconsistent",
            f"score {exp.score!r} does not round to printed {printed!r}",
            *where,
        )


def _config_conflicts(case: Case, impl: ExpectationKey) -> str:
    for knob, value in case.config.items():
        if knob in impl.knobs and knob in KNOB_NAMES:
            try:
                same = normalize_knob(knob, value) == normalize_knob(knob, impl.knobs[knob])
            except BleuError:
                continue
            if not same:
                return (
                    f"config {knob}={value!r} contradicts {impl.key}'s own {knob}="
                    f"{impl.knobs[knob]!r} (fixtures/implementations.yaml)"
                )
    return ""


def _check_precisions(exp: Expectation, report: _Reporter, where: _Where) -> None:
    """Where an order has matches, its precision is counts/totals on the key's scale
    (smoothing only changes zero-match orders; sacrebleu add-k omits its counts)."""
    if exp.precisions is None or exp.counts is None or exp.totals is None:
        return
    for n, (p, m, t) in enumerate(zip(exp.precisions, exp.counts, exp.totals), start=1):
        if m > 0 and not PRECISION_TOLERANCE.accepts(p, exp.scale * m / t):
            report(
                "precisions-inconsistent",
                f"precision of order {n} is {p!r} but counts/totals give {m}/{t}",
                *where,
            )


def _ref_len(value: float) -> int | Fraction:
    return int(value) if float(value).is_integer() else Fraction(str(value))


def _check_consistency(
    case: Case, impl: ExpectationKey, exp: Expectation, report: _Reporter, where: _Where
) -> None:
    """Counts, totals, lengths, BP and score of one expectation agree with each other under
    the key's profile (bleu_impl checks the arithmetic; it never supplies the values)."""
    if impl.profile is None:
        return
    knobs = {**impl.knobs, **case.config}
    try:
        config = get_profile(impl.profile).resolve(knobs, case.level)
    except BleuError as exc:
        report("invalid-config", f"{impl.profile} + config: {exc}", "config")
        return
    if not _check_counts_shape(exp, config, report, where):
        return
    _check_precisions(exp, report, where)
    _check_bp(exp, report, where)
    if config.smoothing not in LAST_SEGMENT_METHODS:
        _check_score_from_statistics(case, impl, exp, config, report, where)


def _check_counts_shape(exp: Expectation, config: Config, report: _Reporter, where: _Where) -> bool:
    """False (after reporting) when counts/totals are given but cannot be statistics."""
    if exp.counts is None and exp.totals is None:
        return True
    counts, totals = exp.counts or (), exp.totals or ()
    problem = ""
    if exp.counts is None or exp.totals is None or len(counts) != len(totals):
        problem = "counts and totals must both be given, equally long"
    elif len(counts) != config.max_order:
        problem = f"{len(counts)} counts but the config has max_order {config.max_order}"
    elif any(m > t for m, t in zip(counts, totals, strict=True)):
        problem = "a count exceeds its total"
    if problem:
        report("counts-shape", problem, *where)
    return not problem


def _check_bp(exp: Expectation, report: _Reporter, where: _Where) -> None:
    c, r, bp = exp.hyp_len, exp.ref_len, exp.bp
    if c is None or r is None or bp is None:
        return
    if c > r and bp != 1:
        report("bp-inconsistent", f"bp must be 1 when hyp_len > ref_len, got {bp}", *where)
    elif c > 0:
        want = 1.0 if c > r else math.exp(1 - r / c)
        if not BP_TOLERANCE.accepts(bp, want):
            report("bp-inconsistent", f"bp {bp!r} != exp(1 - {r}/{c}) = {want!r}", *where)


def _check_score_from_statistics(
    case: Case,
    impl: ExpectationKey,
    exp: Expectation,
    config: Config,
    report: _Reporter,
    where: _Where,
) -> None:
    counts, totals, hyp_len, ref_len = exp.counts, exp.totals, exp.hyp_len, exp.ref_len
    if counts is None or totals is None or hyp_len is None or ref_len is None:
        return
    if impl.profile is None or (exp.score is None and exp.printed is None) or exp.is_error:
        return
    stats = BleuStats(counts, totals, hyp_len, _ref_len(ref_len), 1)
    try:
        result = score_stats(stats, profile=impl.profile, level=case.level, config=config)
    except EmulatedFailure as exc:
        report(
            "score-inconsistent",
            f"{impl.profile} cannot score the given counts: {exc.kind}: {exc}",
            *where,
        )
        return
    actual = result.score * exp.scale
    if exp.score is not None:  # a wrong printed value is reported by printed-inconsistent
        consistent = exp.tolerance.accepts(actual, exp.score)
    else:
        consistent = exp.score_matches(actual)
    if not consistent:
        shown = exp.score if exp.score is not None else exp.printed
        knobs = {**impl.knobs, **case.config}
        report(
            "score-inconsistent",
            f"score {shown!r} disagrees with its own counts/totals/lengths under "
            f"{impl.profile}{dict(knobs) if knobs else ''}: they give {actual!r}",
            *where,
        )
